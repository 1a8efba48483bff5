// SPDX-License-Identifier: MIT
// Output files on a full disk and on /dev/full: rankstep-cli says which file failed and why,
// exits 73 (not 0 with "Solved!", nor 64 with "Unknown error"), and leaves no part of the file
// behind (an earlier file there stays as it was). And a sweep grid too large to run is refused
// from the lists' lengths, before anything is made.
#include "fulldisk.h"
#include "tempdir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace rankstep::hostile {
namespace {

namespace fs = std::filesystem;
using testsupport::ProcessResult;
using testsupport::TempDir;

constexpr int kCannotWrite = 73;
const std::string kSolution = RANKSTEP_SOURCE_DIR "/lessons/30-ddp/solution.py";

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

// rankstep-cli under /bin/sh's limits: `limits` is run first ("ulimit -f 8": every write to a
// file past 4 KiB fails with EFBIG, as on a disk that is full; SIGXFSZ is ignored so that the
// write fails instead of ending the process).
ProcessResult runLimited(const std::string &limits, const std::vector<std::string> &args,
                         const TempDir &dir)
{
    std::vector<std::string> words{"-c", "trap '' XFSZ; " + limits + " && exec \"$0\" \"$@\"",
                                   RANKSTEP_CLI};
    words.insert(words.end(), args.begin(), args.end());
    return testsupport::runProgram("/bin/sh", words, dir);
}

std::vector<std::string> namesIn(const fs::path &folder)
{
    std::vector<std::string> names;
    for (const auto &entry : fs::directory_iterator(folder))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(OutputFiles, EveryOutputToAFullDeviceFailsWithItsOwnExitCodeAndTheReason)
{
    const TempDir dir;
    const std::string full = testsupport::fullDevice(dir.path());
    const std::string reason = ": the disk is full (No space left on device)";
    // Figures are drawn by rankstep-figures, whose sentence is the app's; files of the run's own
    // are written by rankstep-cli.
    const std::pair<const char *, std::string> cases[] = {
        {"--png", "Could not write " + full + reason},
        {"--svg", "Could not write " + full + reason},
        {"--state-png", "Could not write " + full + reason},
        {"--json", "cannot write '" + full + "'" + reason},
        {"--trace-out", "cannot write '" + full + "'" + reason},
    };
    for (const auto &[option, sentence] : cases) {
        const ProcessResult run =
            testsupport::runProgram(RANKSTEP_CLI, {"lesson", "ddp", kSolution, option, full}, dir);
        EXPECT_EQ(run.exitCode, kCannotWrite) << option << "\n" << run.out << run.err;
        EXPECT_TRUE(contains(run.err, "rankstep-cli: " + sentence)) << option << "\n" << run.err;
        EXPECT_FALSE(contains(run.err, "Unknown error")) << run.err;
        EXPECT_TRUE(fs::is_character_file(full)) << option << " replaced the device by a file";
    }
}

TEST(OutputFiles, OnAFullDiskNoPartOfAnOutputIsLeftAndAnEarlierFileStaysWhole)
{
    const TempDir dir;
    const fs::path out = dir.path() / "out";
    fs::create_directory(out);
    const std::string json = (out / "run.json").string(), png = (out / "run.png").string();
    const TempDir earlier;
    fs::copy_file(earlier.write("run.json", "{\"earlier\": true}\n"), json);

    const ProcessResult both =
        runLimited("ulimit -f 8", {"lesson", "ddp", kSolution, "--json", json, "--png", png}, dir);
    EXPECT_EQ(both.exitCode, kCannotWrite) << both.out << both.err;
    EXPECT_TRUE(contains(both.err, "rankstep-cli: cannot write '" + json +
                                       "': the file would be larger than this process may "
                                       "write (File too large)"))
        << both.err;
    EXPECT_EQ(testsupport::readFileText(json), "{\"earlier\": true}\n");
    EXPECT_EQ(namesIn(out), std::vector<std::string>{"run.json"}) << "a partial file was left";

    const ProcessResult figure =
        runLimited("ulimit -f 8", {"lesson", "ddp", kSolution, "--png", png}, dir);
    EXPECT_EQ(figure.exitCode, kCannotWrite) << figure.out << figure.err;
    EXPECT_TRUE(contains(figure.err, "Could not write " + png +
                                         ": the file would be larger than this process may "
                                         "write (File too large)"))
        << figure.err;
    EXPECT_EQ(namesIn(out), std::vector<std::string>{"run.json"}) << "a partial figure was left";
}

// Grading wrote each function to a scratch file from a worker thread: on a full disk the throw
// ended `grade` with SIGABRT; and a run that could not write its trace (exit 73) was blamed on
// the code ("the code ended the process (exit code 73)"). Its output goes through a pipe here
// (cat), which the limit spares; 2 KiB hold the 1503 bytes of code, not the 2213 of the trace.
TEST(OutputFiles, GradingOnAFullDiskSaysSoInItsRowsInsteadOfAbortingOrBlamingTheCode)
{
    const TempDir dir;
    for (const auto &[blocks, file] : {std::pair{"0", "-ddp.py'"}, std::pair{"4", ".rstb'"}}) {
        const ProcessResult grade =
            testsupport::runProgram("/bin/sh",
                                    {"-c",
                                     std::string("trap '' XFSZ; (ulimit -f ") + blocks +
                                         " && \"$0\" \"$@\"; echo \"exit $?\") 2>&1 | cat",
                                     RANKSTEP_CLI, "grade", kSolution},
                                    dir);
        EXPECT_TRUE(contains(grade.out, "exit 0")) << grade.out << grade.err;
        EXPECT_TRUE(contains(grade.out, "not graded: cannot write '")) << grade.out;
        EXPECT_TRUE(contains(grade.out, file + std::string(": the file would be larger than this "
                                                           "process may write")))
            << grade.out;
    }
}

// A sweep's run that could not write its trace said only "the run ended without a trace (exit
// code 73)".
TEST(OutputFiles, ASweepOnAFullDiskSaysWhyItsRunsLeftNoTrace)
{
    const TempDir dir;
    const ProcessResult sweep = testsupport::runProgram(
        "/bin/sh",
        {"-c", "trap '' XFSZ; (ulimit -f 1 && \"$0\" \"$@\"; echo \"exit $?\") 2>&1 | cat",
         RANKSTEP_CLI, "sweep", kSolution, "--ranks", "1,2", "--batches-per-rank", "1"},
        dir);
    EXPECT_TRUE(contains(sweep.out, "exit 0")) << sweep.out << sweep.err;
    EXPECT_TRUE(contains(sweep.out, "crashed")) << sweep.out;
    EXPECT_TRUE(contains(sweep.out, "not run: cannot write '")) << sweep.out;
    EXPECT_TRUE(contains(sweep.out, ".rstb': the file would be larger than this process may write"))
        << sweep.out;
}

std::string oneTo(int last)
{
    std::string list;
    for (int k = 1; k <= last; ++k) {
        if (k > 1)
            list += ',';
        list += std::to_string(k);
    }
    return list;
}

// 500 values of three lists once took 3.1 GB and 7.9 s to refuse; 1000 ran out of memory (exit
// 70). Under a 1 GiB address space, only a refusal from the lists' lengths gets the sentence.
TEST(OutputFiles, ASweepGridTooLargeIsRefusedFromTheListsLengthsAlone)
{
    const TempDir dir;
    const std::string code = dir.write("code.py", "def puzzle(ranks):\n    pass\n");
    for (const auto &[last, settings] :
         {std::pair{500, std::string("125000000")}, std::pair{1000, std::string("1000000000")}}) {
        const std::string list = oneTo(last);
        const ProcessResult sweep =
            runLimited("ulimit -v 1048576",
                       {"sweep", code, "--ranks", list, "--layers", list, "--batches", list}, dir);
        EXPECT_EQ(sweep.exitCode, 64) << sweep.err;
        EXPECT_TRUE(contains(sweep.err, "rankstep-cli: the grid has " + settings +
                                            " settings; a sweep runs at most 10000"))
            << sweep.err;
    }
    const ProcessResult batches =
        runLimited("ulimit -v 1048576", {"sweep", code, "--batches", oneTo(20000)}, dir);
    EXPECT_EQ(batches.exitCode, 64) << batches.err;
    EXPECT_TRUE(contains(batches.err,
                         "a sweep runs at most 10000 (--batches alone names more "
                         "values)"))
        << batches.err;
}

} // namespace
} // namespace rankstep::hostile
