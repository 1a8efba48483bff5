// SPDX-License-Identifier: MIT
// The runner's sandbox (cli/sandbox.h): learner code runs in a private folder, writes and reads
// nothing of the user's, has no network, starts no program and signals no other process, and the
// kernel refusing a layer is said once. Each case runs rankstep-cli as the app does: in the folder
// of the learner's saved code.
#include "clilaunch.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace rankstep::hostile {
namespace {

using testsupport::ProcessResult;
using testsupport::TempDir;

constexpr const char *kSkipSeccomp = "RANKSTEP_SANDBOX_SKIP=seccomp";
constexpr const char *kSkipLandlock = "RANKSTEP_SANDBOX_SKIP=landlock";

// Runs `body` (the lines of `def puzzle(model):`) from a code store holding it and `saved.py`.
ProcessResult runPuzzle(const TempDir &dir, const std::string &body,
                        const std::vector<std::string> &environment = {})
{
    dir.write("store/saved.py", "# the learner's other lesson\n");
    dir.write("store/puzzle.py", "import os\n\n\ndef puzzle(model):\n" + body);
    return runCli({{"run", "puzzle.py", "--function", "puzzle", "--timeout", "20"},
                   (dir.path() / "store").string(),
                   environment},
                  dir);
}

std::size_t count(const std::string &text, const std::string &part)
{
    std::size_t n = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
        ++n;
    return n;
}

TEST(Sandbox, RunsTheCodeInAPrivateFolderNeverInTheCodeStore)
{
    TempDir dir;
    const ProcessResult run = runPuzzle(dir,
                                        "    print('cwd', os.getcwd(), flush=True)\n"
                                        "    for name in os.listdir('.'):\n"
                                        "        os.remove(name)\n"
                                        "    open('scratch.txt', 'w').write('mine')\n");

    EXPECT_EQ(run.exitCode, 1) << run.err; // ran to the end; the check fails, nothing else
    EXPECT_NE(run.out.find("Rankstep-run-"), std::string::npos) << run.out;
    EXPECT_EQ(dir.read("store/saved.py"), "# the learner's other lesson\n");
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "store/puzzle.py"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "store/scratch.txt"));
}

TEST(Sandbox, RefusesWritesOutsideTheRunFolder)
{
    TempDir dir;
    const std::string outside = (dir.path() / "outside.txt").string();
    const ProcessResult run = runPuzzle(dir, "    open('" + outside + "', 'w').write('x')\n");

    EXPECT_EQ(run.exitCode, 2);
    EXPECT_NE(run.err.find("PermissionError"), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(outside));
}

// Landlock before ABI 3 (Linux 6.1, Debian 12's) does not cover truncate(2) or a file's mode:
// seccomp refuses them on its own.
class WithOrWithoutLandlock : public ::testing::TestWithParam<std::string>
{};

TEST_P(WithOrWithoutLandlock, RefusesToTruncateOrChmodTheLearnersFiles)
{
    TempDir dir;
    const std::string saved = dir.write("store/saved.py", "# the learner's other lesson\n");
    for (const std::string &call :
         {"os.truncate('" + saved + "', 0)", "os.chmod('" + saved + "', 0)"}) {
        const ProcessResult run = runPuzzle(dir, "    " + call + "\n", {GetParam()});
        EXPECT_EQ(run.exitCode, 2) << call;
        EXPECT_NE(run.err.find("PermissionError"), std::string::npos) << call << run.err;
        EXPECT_EQ(dir.read("store/saved.py"), "# the learner's other lesson\n") << call;
        EXPECT_EQ(std::filesystem::status(saved).permissions() & std::filesystem::perms::owner_read,
                  std::filesystem::perms::owner_read)
            << call;
    }
}

std::string landlockName(const ::testing::TestParamInfo<std::string> &param)
{
    return param.index == 0 ? "Whole" : "WithoutLandlock";
}

INSTANTIATE_TEST_SUITE_P(Sandbox, WithOrWithoutLandlock,
                         ::testing::Values("RANKSTEP_SANDBOX_SKIP=", kSkipLandlock), landlockName);

TEST(Sandbox, RefusesReadingTheUsersFilesAndProc)
{
    TempDir dir;
    const std::string secret = dir.write("secret.txt", "mine");
    for (const std::string &path : {secret, std::string("/proc/self/cmdline")}) {
        const ProcessResult run = runPuzzle(dir, "    print(open('" + path + "').read())\n");
        EXPECT_EQ(run.exitCode, 2) << path;
        EXPECT_NE(run.err.find("PermissionError"), std::string::npos) << path << run.err;
    }
}

TEST(Sandbox, RefusesTheNetwork)
{
    TempDir dir;
    const ProcessResult run = runPuzzle(dir, "    import socket\n    socket.socket()\n");

    EXPECT_EQ(run.exitCode, 2);
    EXPECT_NE(run.err.find("PermissionError"), std::string::npos) << run.err;
}

TEST(Sandbox, RefusesToStartProcesses)
{
    TempDir dir;
    const ProcessResult run = runPuzzle(dir, "    os.fork()\n");

    EXPECT_EQ(run.exitCode, 2);
    EXPECT_NE(run.err.find("PermissionError: [Errno 1] Operation not permitted (Rankstep runs "
                           "your code in a sandbox: it may write files only in its own folder"),
              std::string::npos)
        << run.err;
}

TEST(Sandbox, RefusesToSignalTheSupervisor)
{
    TempDir dir;
    const ProcessResult run = runPuzzle(dir,
                                        "    import signal\n"
                                        "    os.kill(os.getppid(), signal.SIGTERM)\n");

    EXPECT_EQ(run.exitCode, 2) << run.err;
    EXPECT_NE(run.err.find("PermissionError"), std::string::npos) << run.err;
}

// Each layer alone keeps the code from starting a program: seccomp refuses the fork and the
// exec, Landlock the exec (no file may be executed).
class EveryLayer : public ::testing::TestWithParam<std::string>
{};

TEST_P(EveryLayer, RefusesToStartPrograms)
{
    TempDir dir;
    const std::string marker = (dir.path() / "ran.txt").string();
    const ProcessResult run = runPuzzle(
        dir,
        "    import subprocess\n    subprocess.run(['/bin/sh', '-c', 'touch " + marker + "'])\n",
        {GetParam()});

    EXPECT_EQ(run.exitCode, 2) << run.err;
    EXPECT_NE(run.err.find("PermissionError"), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(marker));
}

std::string layerName(const ::testing::TestParamInfo<std::string> &param)
{
    const char *names[] = {"Whole", "WithoutSeccomp", "WithoutLandlock"};
    return names[param.index];
}

INSTANTIATE_TEST_SUITE_P(Sandbox, EveryLayer,
                         ::testing::Values("RANKSTEP_SANDBOX_SKIP=", kSkipSeccomp, kSkipLandlock),
                         layerName);

TEST(Sandbox, SaysOnceWhichProtectionTheKernelRefused)
{
    TempDir dir;
    const ProcessResult whole = runPuzzle(dir, "    pass\n");
    EXPECT_EQ(count(whole.err, "refused part of the sandbox"), 0U) << whole.err;

    const ProcessResult without = runPuzzle(dir, "    pass\n", {kSkipSeccomp});
    EXPECT_EQ(without.exitCode, 1) << without.err; // the run goes on
    EXPECT_EQ(count(without.err, "refused part of the sandbox"), 1U) << without.err;
    EXPECT_NE(without.err.find("without seccomp"), std::string::npos) << without.err;
    EXPECT_EQ(without.err.find("Landlock"), std::string::npos) << without.err;
}

TEST(Sandbox, GradeSaysOnceWhichProtectionTheKernelRefused)
{
    TempDir dir;
    dir.write("class/a.py", "async def ddp(model):\n    return model\n");
    dir.write("class/b.py", "async def ddp(model):\n    return model\n");
    const ProcessResult graded = runCli(
        {{"grade", (dir.path() / "class").string(), "--timeout", "10"}, {}, {kSkipLandlock}}, dir);

    EXPECT_EQ(graded.exitCode, 0) << graded.err;
    EXPECT_NE(graded.out.find("0 of 2 puzzle functions solved"), std::string::npos) << graded.out;
    EXPECT_EQ(count(graded.err, "refused part of the sandbox"), 1U) << graded.err;
    EXPECT_NE(graded.err.find("without Landlock"), std::string::npos) << graded.err;
}

} // namespace
} // namespace rankstep::hostile
