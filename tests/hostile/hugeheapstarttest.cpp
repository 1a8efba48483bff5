// SPDX-License-Identifier: MIT
// rankstep-cli runs with its malloc heap on huge pages (core/hugeheap.h): started without the
// setting, it starts itself again with it, keeping the user's other tunables, and the programs it
// starts get the user's GLIBC_TUNABLES as the user gave it.
#include "clilaunch.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rankstep::hostile {
namespace {

using testsupport::TempDir;

bool hugePagesOnRequest()
{
    std::ifstream enabled("/sys/kernel/mm/transparent_hugepage/enabled");
    std::stringstream text;
    text << enabled.rdbuf();
    return text.str().find("[madvise]") != std::string::npos;
}

// The line of `text` that begins with `name=`, without the newline; "" when none.
std::string lineOf(const std::string &text, const std::string &name)
{
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind(name + "=", 0) == 0)
            return line;
    return {};
}

TEST(HugeHeapStart, TheCliRunsWithItsHeapOnHugePagesAndItsChildrenWithTheUsersSettings)
{
    if (!hugePagesOnRequest())
        GTEST_SKIP() << "transparent huge pages are not `madvise` here: the cli keeps its start";
    TempDir dir;
    const std::string users = "glibc.malloc.arena_max=4:glibc.malloc.tcache_count=8";
    // A stand-in for the Python that `real` asks about PyTorch: it copies the environment
    // rankstep-cli was last started with (its /proc entry; glibc cuts GLIBC_TUNABLES there at
    // each colon) and writes down its own.
    const std::string python =
        dir.write("python-standin", "#!/bin/sh\ncat /proc/$PPID/environ > " +
                                        (dir.path() / "cli.env").string() + "\nenv > " +
                                        (dir.path() / "child.env").string() + "\nexit 1\n");
    std::filesystem::permissions(python, std::filesystem::perms::owner_all);
    const char *had = std::getenv("GLIBC_TUNABLES");
    const std::string previous = had ? had : "";
    unsetenv("GLIBC_TUNABLES"); // the test's own would come first
    const testsupport::ProcessResult run =
        runCli({{"real", std::string(RANKSTEP_SOURCE_DIR) + "/lessons/30-ddp/solution.py",
                 "--function", "ddp", "--ranks", "2", "--layers", "2", "--batches", "2"},
                "",
                {"RANKSTEP_PYTHON=" + python, "GLIBC_TUNABLES=" + users}},
               dir);
    if (had)
        setenv("GLIBC_TUNABLES", previous.c_str(), 1);

    EXPECT_EQ(run.exitCode, 69) << run.out << run.err;
    const std::string cli = dir.read("cli.env");
    EXPECT_NE(cli.find("glibc.malloc.hugetlb=1"), std::string::npos) << cli;
    const std::string child = dir.read("child.env");
    EXPECT_EQ(lineOf(child, "GLIBC_TUNABLES"), "GLIBC_TUNABLES=" + users) << child;
    EXPECT_EQ(lineOf(child, "RANKSTEP_GLIBC_TUNABLES_BEFORE"), "") << child;
}

} // namespace
} // namespace rankstep::hostile
