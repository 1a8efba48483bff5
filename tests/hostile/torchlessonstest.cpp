// SPDX-License-Identifier: MIT
// The PyTorch lessons (lessons/100-torch_loop and on), run for real by `rankstep-cli
// lesson NAME FILE` at small sizes (8 steps, n_embd 32): every solution is solved, every starter
// fails the check its lesson teaches, a learner's error names its rank and line, an endless loop
// ends at the timeout with every process, and simulated-run options are refused. Without PyTorch
// the tests are skipped, except in CI, which installs it.
#include "clilaunch.h"
#include "torchsupport.h"

#include "core/io/torchlessonreport.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace rankstep::hostile {
namespace {

using testsupport::ProcessResult;
using testsupport::TempDir;

std::vector<std::string> lessonArgs(const std::string &lesson, const std::string &code,
                                    const std::vector<std::string> &more = {})
{
    std::vector<std::string> args{"lesson", lesson, code, "--steps", "8", "--embd", "32"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

std::string readText(const std::filesystem::path &path)
{
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Case {
    std::string lesson;
    std::string starterFails; // the check its starter does not pass
    int ranks = 1;
};

class TorchLessons : public ::testing::TestWithParam<Case>
{};

TEST_P(TorchLessons, TheSolutionIsSolvedAndTheStarterFailsWhatTheLessonTeaches)
{
    REQUIRE_TORCH();
    const Case &c = GetParam();
    TempDir dir;
    const std::string report = (dir.path() / "solution.json").string();
    const ProcessResult solution =
        runCli({lessonArgs(c.lesson, "--solution", {"--json", report}), "", {}}, dir);
    ASSERT_EQ(solution.exitCode, 0) << solution.out << solution.err;
    EXPECT_NE(solution.out.find("Solved!"), std::string::npos) << solution.out;
    const auto read = io::torchLessonReportFromJson(readText(report));
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_TRUE(read->solved);
    ASSERT_EQ(read->ranks.size(), std::size_t(c.ranks));
    for (const io::TorchRankLosses &rank : read->ranks) {
        EXPECT_EQ(rank.losses.size(), 8U); // one logged loss a step: the curve
        EXPECT_EQ(rank.optimizerSteps, 8);
    }
    EXPECT_EQ(read->referenceLosses.size(), 8U);
    // The checklist's check: a fresh model's loss is about ln(10).
    EXPECT_NEAR(read->initLoss, read->expectedInitLoss, 0.25);

    const ProcessResult starter =
        runCli({lessonArgs(c.lesson, "--starter", {"--json", report}), "", {}}, dir);
    EXPECT_EQ(starter.exitCode, 1) << starter.out << starter.err;
    const auto failed = io::torchLessonReportFromJson(readText(report));
    ASSERT_TRUE(failed) << failed.error().message;
    EXPECT_FALSE(failed->solved);
    bool named = false;
    for (const io::TorchCheck &check : failed->checks)
        named = named || (check.name == c.starterFails && !check.passed);
    EXPECT_TRUE(named) << "the starter should fail '" << c.starterFails << "':\n" << starter.out;
    EXPECT_NE(starter.out.find("Not solved yet: "), std::string::npos) << starter.out;
}

INSTANTIATE_TEST_SUITE_P(Lessons, TorchLessons,
                         ::testing::Values(Case{"torch_loop", "weights", 1},
                                           Case{"torch_amp", "autocast weights", 1},
                                           Case{"torch_ddp", "ranks agree", 2},
                                           Case{"torch_ddp_accum", "all-reduces", 2}),
                         [](const auto &param) { return param.param.lesson; });

// A DDP lesson whose rank 1 raises: the message names the rank and the line, and the run ends
// with every process (rank 0 would wait in the next all-reduce for ever).
TEST(TorchLessonRuns, ALearnersErrorNamesItsRankAndLine)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code = dir.write("broken.py",
                                       "from torch.nn.parallel import DistributedDataParallel\n"
                                       "\n"
                                       "def train(run):\n"
                                       "    model = DistributedDataParallel(run.model)\n"
                                       "    for step in range(run.steps):\n"
                                       "        X, y = run.get_batch()\n"
                                       "        if run.rank == 1 and step == 3:\n"
                                       "            raise ValueError('no batch today')\n"
                                       "        loss = model(X, y)[1]\n"
                                       "        loss.backward()\n");
    const ProcessResult run = runCli({lessonArgs("torch_ddp", code), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(run.out.find("Error (rank 1, line 8): ValueError: no batch today"), std::string::npos)
        << run.out;
}

// The ranks run the learner's code: whatever they check of themselves, the code can rewrite.
// This one trains without DDP (the starter), replaces the harness's checks with ones that all
// pass (as it once could) and sets the counters DDP's hook keeps. The verdict is made outside
// them, from the weights each rank left and the bytes they sent each other: not solved.
TEST(TorchLessonRuns, PatchingTheChecksInsideTheRanksDoesNotSolveTheLesson)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code = dir.write("cheat.py",
                                       "import rankstep_real.torchlesson as harness\n"
                                       "\n"
                                       "def train(run):\n"
                                       "    passed = lambda *a, **k: ([{'name': 'weights', "
                                       "'passed': True, 'message': 'ok'}], [])\n"
                                       "    harness.checks_of = passed\n"
                                       "    harness.COUNTERS.ddp_wrapped = 1\n"
                                       "    for step in range(run.steps):\n"
                                       "        X, y = run.get_batch()\n"
                                       "        logits, loss = run.model(X, y)\n"
                                       "        loss.backward()\n"
                                       "        run.optimizer.step()\n"
                                       "        run.optimizer.zero_grad(set_to_none=True)\n"
                                       "        run.log(loss)\n"
                                       "        harness.COUNTERS.syncs += 1\n");
    const ProcessResult run = runCli({lessonArgs("torch_ddp", code), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_EQ(run.out.find("Solved!"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("NOT   rank 1's weights differ from rank 0's"), std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("the gradients were not averaged across the ranks"), std::string::npos)
        << run.out;
}

TEST(TorchLessonRuns, AnEndlessLoopEndsAtTheTimeoutWithEveryProcess)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code = dir.write("forever.py",
                                       "def train(run):\n"
                                       "    while True:\n"
                                       "        pass\n");
    const ProcessResult run =
        runCli({lessonArgs("torch_ddp", code, {"--timeout", "15"}), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 4) << run.out << run.err;
    EXPECT_NE(run.out.find("--timeout"), std::string::npos) << run.out;
    const std::string ranks = "pgrep -f '[_]_real-rank .*--source-name " + code + "' >/dev/null";
    EXPECT_NE(std::system(ranks.c_str()), 0) << "a rank process outlived the command";
}

TEST(TorchLessonRuns, OptionsOfSimulatedRunsAreRefused)
{
    TempDir dir;
    const ProcessResult run =
        runCli({{"lesson", "torch_loop", "--solution", "--trace-out", "t.rstb"}, "", {}}, dir);
    EXPECT_EQ(run.exitCode, 64) << run.out << run.err;
    EXPECT_NE(run.err.find("--trace-out is for simulated lessons"), std::string::npos) << run.err;
}

TEST(TorchLessonRuns, WithoutPyTorchTheLessonSaysHowToInstallIt)
{
    TempDir dir;
    const ProcessResult run = runCli(
        {{"lesson", "torch_loop", "--solution"}, "", {"RANKSTEP_PYTHON=/nonexistent/python3"}},
        dir);
    EXPECT_EQ(run.exitCode, 69) << run.out << run.err;
    EXPECT_NE(run.err.find("apt-get install python3-torch"), std::string::npos) << run.err;
}

} // namespace
} // namespace rankstep::hostile
