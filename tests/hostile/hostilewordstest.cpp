// SPDX-License-Identifier: MIT
// Plain words for hostile input: a byte order mark and old Mac line ends read as
// CPython reads them, everywhere; the learner's own doing (sys.modules, signal.alarm, printing a
// gigabyte) and the run's size blamed correctly; output options never overwrite the code file.
#include "hostilecases.h"
#include "tempdir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace rankstep::hostile {
namespace {

namespace fs = std::filesystem;
using testsupport::ProcessResult;
using testsupport::TempDir;

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

std::string solvedDdp()
{
    return testsupport::readFileText(fs::path(RANKSTEP_SOURCE_DIR) /
                                     "tests/lessons/data/class/alice.py");
}

ProcessResult runCli(const std::vector<std::string> &args, const TempDir &dir)
{
    ProcessResult result = testsupport::runProgram(RANKSTEP_CLI, args, dir);
    EXPECT_EQ(result.err.find("internal error"), std::string::npos) << result.err;
    return result;
}

// `run`, `lesson` and `grade` all solve the file, as CPython runs it.
void expectSolvedEverywhere(const std::string &source)
{
    TempDir dir;
    const std::string file = dir.write("ddp.py", source);
    const auto run = runCli({"run", file, "--function", "ddp", "--ranks", "4", "--quiet"}, dir);
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(contains(run.out, "Correct!")) << run.out << run.err;
    const auto lesson = runCli({"lesson", "ddp", file, "--quiet"}, dir);
    EXPECT_EQ(lesson.exitCode, 0) << lesson.err;
    EXPECT_TRUE(contains(lesson.out, "Solved!")) << lesson.out << lesson.err;
    const auto graded = runCli({"grade", file}, dir);
    EXPECT_EQ(graded.exitCode, 0) << graded.err;
    EXPECT_TRUE(contains(graded.out, "1 of 1 puzzle functions solved.")) << graded.out;
    EXPECT_TRUE(testsupport::readFileText(file) == source);
}

TEST(HostileWords, AByteOrderMarkIsReadAsCPythonReadsIt)
{
    expectSolvedEverywhere("\xEF\xBB\xBF" + solvedDdp());
}

TEST(HostileWords, OldMacLineEndsAreReadAsCPythonReadsThem)
{
    std::string source = solvedDdp();
    for (char &c : source)
        c = c == '\n' ? '\r' : c;
    expectSolvedEverywhere(source);
}

ProcessResult runPuzzle(const TempDir &dir, const std::string &source,
                        const std::vector<std::string> &options = {})
{
    const std::string file = dir.write("puzzle.py", source);
    std::vector<std::string> args = {"run",     file, "--function", "puzzle",
                                     "--ranks", "2",  "--quiet"};
    args.insert(args.end(), options.begin(), options.end());
    ProcessResult result = runCli(args, dir);
    EXPECT_TRUE(testsupport::readFileText(file) == source) << "the learner's file changed";
    return result;
}

TEST(HostileWords, EmptyingSysModulesIsTheLearnersErrorNotAnInternalOne)
{
    TempDir dir;
    for (const char *module : {"_rankstep_support", "lib"}) {
        const auto run = runPuzzle(dir, std::string("import sys\nsys.modules['") + module +
                                            "'] = None\n\nasync def puzzle(model):\n"
                                            "    raise ValueError('the shard is empty')\n");
        EXPECT_EQ(run.exitCode, 2) << module << ": " << run.err;
        EXPECT_TRUE(contains(run.err, "Error (rank 0, line 5): ValueError: the shard is empty"))
            << run.err;
    }
}

TEST(HostileWords, SignalAlarmIsNotBlamedOnCtypes)
{
    TempDir dir;
    const auto run = runPuzzle(
        dir,
        "import signal\nsignal.alarm(1)\n\ndef puzzle(model):\n    while True:\n        pass\n",
        {"--timeout", "10"});
    EXPECT_EQ(run.exitCode, 2) << run.err;
    EXPECT_TRUE(contains(run.err,
                         "was ended by signal 14 (Alarm clock), which the code sent or "
                         "set up itself"))
        << run.err;
    EXPECT_FALSE(contains(run.err, "ctypes")) << run.err;
}

TEST(HostileWords, AMemoryLimitTooSmallForPythonIsAUsageError)
{
    TempDir dir;
    const auto run = runPuzzle(dir, "def puzzle(model):\n    pass\n", {"--memory-limit", "1"});
    EXPECT_EQ(run.exitCode, 64) << run.err;
    EXPECT_TRUE(contains(run.err, "--memory-limit 1 is too little for Python itself to start"))
        << run.err;
    EXPECT_FALSE(contains(run.err, "ctypes")) << run.err;
}

TEST(HostileWords, RunningOutOfMemoryAtTheLargestSizesBlamesTheSizeNotALine)
{
    if (kSanitized)
        GTEST_SKIP() << "a sanitizer build has no memory cap";
    TempDir dir;
    const std::string file = dir.write("ddp.py", solvedDdp());
    const auto run =
        runCli({"run", file, "--function", "ddp", "--ranks", "16384", "--layers", "4096",
                "--batches", "65535", "--memory-limit", "256", "--timeout", "60", "--quiet"},
               dir);
    EXPECT_EQ(run.exitCode, 2) << run.err.substr(0, 2000);
    EXPECT_TRUE(contains(run.err,
                         "The run ran out of memory: the simulation of 16384 ranks, 4096 "
                         "layers and 65535 batches needs more than the 256 MiB"))
        << run.err.substr(0, 2000);
    EXPECT_FALSE(contains(run.err, ", line ")) << run.err.substr(0, 2000);
}

TEST(HostileWords, MoreRanksThanTheLargestRunAreRefusedBeforeAnythingRuns)
{
    TempDir dir;
    const std::string file = dir.write("ddp.py", solvedDdp());
    for (const std::string ranks : {"16385", "1000000000"}) {
        const auto run = runCli({"run", file, "--function", "ddp", "--ranks", ranks}, dir);
        EXPECT_EQ(run.exitCode, 64) << run.err;
        EXPECT_TRUE(
            contains(run.err, "--ranks takes a whole number from 1 to 16384, not '" + ranks + "'"))
            << run.err;
    }
}

TEST(HostileWords, PrintingHundredsOfMegabytesKeepsTheFirstMegabyteAndCountsTheRest)
{
    TempDir dir;
    const std::string source =
        "def puzzle(model):\n    for i in range(200):\n        print('x' * (1 << 20))\n";
    const std::string file = dir.write("puzzle.py", source);
    const auto run = runCli({"run", file, "--function", "puzzle"}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.err;
    EXPECT_LT(run.out.size(), (1U << 20) + 4096) << "the runner echoed everything";
    // 200 prints of 2^20 characters and a newline; the first 2^20 are kept.
    EXPECT_TRUE(contains(run.out,
                         "[output cut at 1 MiB: 208,666,824 more characters were "
                         "printed and dropped]"))
        << run.out.substr(run.out.size() - std::min<std::size_t>(run.out.size(), 500));
}

TEST(HostileWords, WritingToTheRealStdoutAndStderrIsCappedToo)
{
    TempDir dir;
    const std::string source =
        "import sys\n\ndef puzzle(model):\n    for i in range(100):\n"
        "        sys.__stdout__.write('x' * (1 << 20))\n"
        "        sys.__stderr__.write('y' * (1 << 20))\n";
    const std::string file = dir.write("puzzle.py", source);
    const auto run = runCli({"run", file, "--function", "puzzle"}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.err.substr(0, 2000);
    EXPECT_LT(run.out.size() + run.err.size(), (1U << 20) + 4096) << "the cap was got around";
    EXPECT_TRUE(contains(run.out,
                         "[output cut at 1 MiB: 208,666,624 more characters were "
                         "printed and dropped]"))
        << run.out.substr(run.out.size() - std::min<std::size_t>(run.out.size(), 500));
}

TEST(HostileWords, NoOutputOptionOverwritesTheCodeFile)
{
    TempDir dir;
    const std::string source = "def puzzle(model):\n    pass\n";
    const std::string file = dir.write("puzzle.py", source);
    fs::create_symlink("puzzle.py", dir.path() / "link.py");
    for (const char *option : {"--json", "--png", "--svg", "--state-png", "--chrome-trace",
                               "--trace-json", "--trace-out"})
        for (const std::string &target : {file, (dir.path() / "link.py").string()}) {
            const auto run = runCli({"run", file, "--function", "puzzle", option, target}, dir);
            EXPECT_EQ(run.exitCode, 64) << option << " " << target << ": " << run.err;
            EXPECT_TRUE(contains(run.err, std::string(option) + " would overwrite the input file"))
                << run.err;
            EXPECT_TRUE(testsupport::readFileText(file) == source) << option << " overwrote it";
        }
    const std::string lessonFile = dir.write("ddp.py", solvedDdp());
    const auto lesson = runCli({"lesson", "ddp", lessonFile, "--json", lessonFile}, dir);
    EXPECT_EQ(lesson.exitCode, 64) << lesson.err;
    EXPECT_TRUE(testsupport::readFileText(lessonFile) == solvedDdp());
}

} // namespace
} // namespace rankstep::hostile
