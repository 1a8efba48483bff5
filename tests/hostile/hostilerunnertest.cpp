// SPDX-License-Identifier: MIT
// Every hostile input of hostilecases.h through `rankstep-cli run`, as a learner or the app runs
// it: the runner answers with its documented exit code and a plain sentence, in bounded time, and
// the learner's file is byte for byte what it was.
#include "hostilecases.h"
#include "tempdir.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace rankstep::hostile {
namespace {

using testsupport::ProcessResult;
using testsupport::TempDir;

struct TimedRun {
    ProcessResult result;
    double seconds = 0;
};

TimedRun runHostile(const HostileCase &c, const TempDir &dir, const std::string &file)
{
    std::vector<std::string> args = {"run",     file, "--function", "puzzle",
                                     "--ranks", "2",  "--quiet"};
    args.insert(args.end(), c.options.begin(), c.options.end());
    const auto start = std::chrono::steady_clock::now();
    TimedRun run{testsupport::runProgram(RANKSTEP_CLI, args, dir)};
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return run;
}

// The --timeout the case runs under.
double timeoutOf(const HostileCase &c)
{
    for (std::size_t i = 0; i + 1 < c.options.size(); ++i)
        if (c.options[i] == "--timeout")
            return std::stod(c.options[i + 1]);
    return 30;
}

class HostileInput : public ::testing::TestWithParam<HostileCase>
{};

TEST_P(HostileInput, RunnerAnswersWithItsExitCodeAPlainMessageAndLeavesTheFileAlone)
{
    const HostileCase &c = GetParam();
    if (c.skipUnderSanitizers && kSanitized)
        GTEST_SKIP() << "a sanitizer build has no memory cap and reports segfaults itself";
    TempDir dir;
    const std::string file = dir.write("puzzle.py", c.source);

    const TimedRun run = runHostile(c, dir, file);

    EXPECT_EQ(run.result.exitCode, c.exitCode) << "stderr:\n" << run.result.err.substr(0, 2000);
    const std::string &said = c.messageOnStdout ? run.result.out : run.result.err;
    EXPECT_NE(said.find(c.message), std::string::npos)
        << "expected: " << c.message << "\nstdout:\n"
        << run.result.out.substr(0, 2000) << "\nstderr:\n"
        << run.result.err.substr(0, 2000);
    EXPECT_EQ(run.result.err.find("internal error"), std::string::npos) << run.result.err;
    EXPECT_LT(run.seconds, timeoutOf(c) + 10) << "the runner outlived its time limit";
    EXPECT_TRUE(testsupport::readFileText(file) == c.source) << "the learner's file changed";
}

std::string caseName(const ::testing::TestParamInfo<HostileCase> &info)
{
    return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(EveryCase, HostileInput, ::testing::ValuesIn(hostileCases()), caseName);

TEST(HostileInputs, CoverEveryInputTheIssueNames)
{
    for (const char *name :
         {"Exception", "SyntaxError", "InfiniteLoop", "InfiniteRecursion", "AllocatingGigabytes",
          "OsExit", "Segfault", "DeleteKeyTwice", "NonPuzzleValue", "ForeignAwaitable",
          "TenMillionOperations", "FiveMegabyteSource", "BinaryGarbage"})
        EXPECT_NO_THROW(hostileCase(name)) << name;
}

} // namespace
} // namespace rankstep::hostile
