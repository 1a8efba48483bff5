// SPDX-License-Identifier: MIT
// The PyTorch lessons (lessons/100-torch_loop and on), run for real by `rankstep-cli
// lesson NAME FILE` at small sizes (8 steps, n_embd 32): every solution is solved, every starter
// fails the check its lesson teaches, a learner's error names its rank and line, an endless loop
// ends at the timeout with every process, and simulated-run options are refused. Without PyTorch
// the tests are skipped, except in CI, which installs it.
#include "clilaunch.h"
#include "torchsupport.h"

#include "core/io/torchlessonreport.h"
#include "core/lessons/builtin.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>

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

// The built-in lesson's solution or starter, to change one line of it.
std::string builtinLessonText(const std::string &id, bool solution)
{
    const lessons::LessonSet set =
        lessons::loadLessonsSkippingBroken(lessons::builtinLessonFiles());
    const lessons::Lesson *lesson = lessons::findLesson(set.lessons, id);
    return lesson ? (solution ? lesson->solution : lesson->starter) : std::string();
}

// Whether the command's output has `part` in it; its output when not.
::testing::AssertionResult says(const ProcessResult &run, const std::string &part)
{
    if (run.out.find(part) != std::string::npos)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "no \"" << part << "\" in:\n" << run.out << run.err;
}

// A train(run) with the lessons' loop: `head` first (imports, helpers), then `setup` (run.model
// and run.optimizer as `model` and `optimizer` when empty); each step draws X, y, runs `step`
// (which leaves the batch's `loss`, backward done), steps the optimizer, clears the gradients and
// logs the loss; `after` ends the function.
std::string trainingLoop(const std::string &head, const std::string &setup, const std::string &step,
                         const std::string &after = "")
{
    return head + "\ndef train(run):\n" +
           (setup.empty() ? "    model, optimizer = run.model, run.optimizer\n" : setup) +
           "    for step in range(run.steps):\n"
           "        X, y = run.get_batch()\n" +
           step +
           "        optimizer.step()\n"
           "        optimizer.zero_grad(set_to_none=True)\n"
           "        run.log(loss)\n" +
           after;
}

// The built-in lesson's solution with its lines `from` replaced by `to`, written to DIR/NAME; a
// failure, and the path still, when the solution no longer has those lines.
std::string changedSolution(const TempDir &dir, const std::string &name, const std::string &id,
                            const std::string &from, const std::string &to)
{
    std::string code = builtinLessonText(id, true);
    const std::size_t at = code.find(from);
    if (at == std::string::npos)
        ADD_FAILURE() << "the " << id << " solution changed: update this test\n" << code;
    else
        code.replace(at, from.size(), to);
    return dir.write(name, code);
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
    bool startsUniform = true; // the lesson's model starts at about ln(10) (not the checklist's)
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
    EXPECT_TRUE(says(solution, "Solved!"));
    const auto read = io::torchLessonReportFromJson(readText(report));
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_TRUE(read->solved);
    ASSERT_EQ(read->ranks.size(), std::size_t(c.ranks));
    for (const io::TorchRankLosses &rank : read->ranks) {
        EXPECT_EQ(rank.losses.size(), 8U); // one logged loss a step: the curve
        EXPECT_EQ(rank.optimizerSteps, 8);
    }
    EXPECT_EQ(read->referenceLosses.size(), 8U);
    if (c.lesson == "torch_checklist") { // the gradient-norm curves: the reference's, the rank's
        EXPECT_EQ(read->referenceGradNorms.size(), 8U);
        EXPECT_EQ(read->ranks.at(0).gradNorms.size(), 8U);
        EXPECT_EQ(read->clipNorm, 1.0);
    }
    // The checklist's check: a fresh model's loss is about ln(10); the checklist lesson's model
    // starts careless, far above, for the learner to mend.
    if (c.startsUniform)
        EXPECT_NEAR(read->initLoss, read->expectedInitLoss, 0.25);
    else
        EXPECT_GT(read->initLoss, read->expectedInitLoss + 0.2); // 3.6 at the lesson's width

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
    EXPECT_TRUE(says(starter, "Not solved yet: "));
}

INSTANTIATE_TEST_SUITE_P(Lessons, TorchLessons,
                         ::testing::Values(Case{"torch_loop", "weights", 1},
                                           Case{"torch_amp", "autocast weights", 1},
                                           Case{"torch_ddp", "ranks agree", 2},
                                           Case{"torch_ddp_accum", "all-reduces", 2},
                                           Case{"torch_zero", "optimizer state sharded", 2},
                                           Case{"torch_fsdp", "weights", 2},
                                           Case{"torch_checkpoint", "memory", 1},
                                           Case{"torch_checklist", "weights", 1, false}),
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
    EXPECT_TRUE(says(run, "Error (rank 1, line 8): ValueError: no batch today"));
}

// The ranks run the learner's code: whatever they check of themselves, the code can rewrite.
// This one trains without DDP (the starter), replaces the harness's checks with ones that all
// pass (as it once could) and sets the counters DDP's hook keeps. The verdict is made outside
// them, from the weights each rank left and the bytes they sent each other: not solved.
TEST(TorchLessonRuns, PatchingTheChecksInsideTheRanksDoesNotSolveTheLesson)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code =
        dir.write("cheat.py", trainingLoop("import rankstep_real.torchlesson as harness\n",
                                           "    passed = lambda *a, **k: ([{'name': 'weights', "
                                           "'passed': True, 'message': 'ok'}], [])\n"
                                           "    harness.checks_of = passed\n"
                                           "    harness.COUNTERS.ddp_wrapped = 1\n"
                                           "    model, optimizer = run.model, run.optimizer\n",
                                           "        logits, loss = model(X, y)\n"
                                           "        loss.backward()\n"
                                           "        harness.COUNTERS.syncs += 1\n"));
    const ProcessResult run = runCli({lessonArgs("torch_ddp", code), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_EQ(run.out.find("Solved!"), std::string::npos) << run.out;
    EXPECT_TRUE(says(run, "NOT   rank 1's weights differ from rank 0's"));
    EXPECT_TRUE(says(run, "the gradients were not averaged across the ranks"));
}

// The typical mistakes of the later lessons, each named in a plain sentence.
TEST(TorchLessonMistakes, SavingAShardedOptimizerWithoutConsolidatingSaysWhatToCall)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code = dir.write(
        "zero.py",
        trainingLoop("import torch\n"
                     "from torch.distributed.optim import ZeroRedundancyOptimizer\n"
                     "from torch.nn.parallel import DistributedDataParallel as DDP\n",
                     "    model = DDP(run.model)\n"
                     "    optimizer = ZeroRedundancyOptimizer(model.parameters(),\n"
                     "                                        optimizer_class=torch.optim.AdamW,\n"
                     "                                        lr=run.learning_rate)\n",
                     "        loss = model(X, y)[1]\n"
                     "        loss.backward()\n",
                     "    if run.rank == 0:\n"
                     "        run.save_optimizer(optimizer)\n"));
    const ProcessResult run = runCli({lessonArgs("torch_zero", code), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_TRUE(says(run, "Error (rank 0, line 18)"));
    EXPECT_TRUE(says(run, "first every rank calls optimizer.consolidate_state_dict(to=0)"));
}

// consolidate_state_dict called on rank 0 alone: rank 0 waits in it until the timeout, and the
// sentence says which ranks waited there and which returned without calling it, not only that a
// rank waited in a collective.
TEST(TorchLessonMistakes, ConsolidatingOnRankZeroAloneSaysEveryRankCallsIt)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string file = changedSolution(dir, "zero.py", "torch_zero",
                                             "    optimizer.consolidate_state_dict(to=0)\n"
                                             "    if run.rank == 0:\n"
                                             "        run.save_optimizer(optimizer)\n",
                                             "    if run.rank == 0:\n"
                                             "        optimizer.consolidate_state_dict(to=0)\n"
                                             "        run.save_optimizer(optimizer)\n");
    const ProcessResult run =
        runCli({lessonArgs("torch_zero", file, {"--timeout", "15"}), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 4) << run.out << run.err;
    EXPECT_TRUE(says(run,
                     "Rank 0 was waiting in optimizer.consolidate_state_dict(to=0) for "
                     "rank 1, which returned from train(run) without calling it"));
    EXPECT_EQ(run.out.find("a rank waiting in a collective"), std::string::npos) << run.out;
}

// FSDP by hand with an all-reduce of the whole gradient: the right weights, twice the traffic a
// reduce-scatter needs, and the check says which collective to use.
TEST(TorchLessonMistakes, AllReducingTheWholeGradientInFsdpIsNamed)
{
    REQUIRE_TORCH();
    TempDir dir;
    // Every rank gets the whole sum; the rank's own slice of it lands where all_to_all_single
    // would have put the pieces, divided by nothing more (the sum over ranks is already in it).
    const std::string code = changedSolution(
        dir, "fsdp.py", "torch_fsdp", "        dist.all_to_all_single(received, grad)\n",
        "        dist.all_reduce(grad)\n"
        "        received = torch.zeros(run.world_size, size)\n"
        "        received[0] = grad.view(run.world_size, size)[run.rank]\n");
    const ProcessResult run = runCli({lessonArgs("torch_fsdp", code), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_TRUE(says(run, "ok    the weights equal"));
    EXPECT_TRUE(says(run, "an all-reduce of the whole gradient sends twice what a rank needs"));
}

// Plain DDP in ZeRO's clothes: every rank steps run.optimizer, AdamW of the whole model, and
// pads its traffic with broadcasts as large as ZeRO's. The weights, the bytes and the state rank
// 0 saves are all right (before: `Solved!`); the state every rank held is the whole model's.
TEST(TorchLessonMistakes, PlainDdpDisguisedAsZeroIsToldApartByTheStateEachRankHeld)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code = dir.write(
        "disguised.py",
        trainingLoop(
            R"(import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
)",
            R"(    model, optimizer = DDP(run.model), run.optimizer
    share = -(-sum(p.numel() for p in model.parameters()) // run.world_size)
)",
            R"(        logits, loss = model(X, y)
        loss.backward()
        for owner in range(run.world_size):  # as many bytes as ZeRO's broadcasts of each share
            dist.broadcast(torch.zeros(share), src=owner)
)",
            R"(    dist.broadcast(torch.zeros(2 * share), src=1)  # as many as gathering the state
    if run.rank == 0:
        run.save_optimizer(optimizer)
)"));
    const ProcessResult run = runCli({lessonArgs("torch_zero", code), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_TRUE(says(run, "ok    the ranks sent each other"));
    EXPECT_TRUE(says(run, "ok    rank 0's saved optimizer state equals"));
    EXPECT_TRUE(says(run,
                     "NOT   rank 0's AdamW held the state of all 9002 of the model's "
                     "values (rank 0 9002, rank 1 9002), as every rank of plain DDP does"));
}

// FSDP's files from plain DDP: every rank steps the whole model's AdamW on gradients averaged by
// a reduce-scatter and an all-gather (an all-reduce, as many bytes as FSDP's two collectives),
// then slices its weights and that AdamW's state for saving. Before: `Solved!`.
TEST(TorchLessonMistakes, PlainDdpSlicedForSavingIsToldApartFromFsdp)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code =
        dir.write("sliced.py", trainingLoop(R"(import torch
import torch.distributed as dist
from torch.nn.utils import parameters_to_vector, vector_to_parameters
)",
                                            R"(    model, optimizer = run.model, run.optimizer
    count = sum(p.numel() for p in model.parameters())
    size = -(-count // run.world_size)
)",
                                            R"(        logits, loss = model(X, y)
        loss.backward()
        grad = torch.zeros(size * run.world_size)
        grad[:count] = parameters_to_vector(p.grad for p in model.parameters())
        received = torch.empty_like(grad)
        dist.all_to_all_single(received, grad)
        slices = [torch.empty(size) for _ in range(run.world_size)]
        dist.all_gather(slices, received.view(run.world_size, size).sum(0) / run.world_size)
        vector_to_parameters(torch.cat(slices)[:count], [p.grad for p in model.parameters()])
)",
                                            R"(
    def mine(tensors):
        flat = torch.zeros(size * run.world_size)
        flat[:count] = torch.cat([t.detach().reshape(-1) for t in tensors])
        return flat[run.rank * size:(run.rank + 1) * size].clone()

    shard = torch.nn.Parameter(mine(model.parameters()))
    saved = torch.optim.AdamW([shard], lr=run.learning_rate)
    saved.state[shard] = {"step": torch.tensor(float(run.steps))}
    for key in ("exp_avg", "exp_avg_sq"):
        saved.state[shard][key] = mine(optimizer.state[p][key] for p in model.parameters())
    run.save_shard(shard, saved)
)"));
    const ProcessResult run = runCli({lessonArgs("torch_fsdp", code), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_TRUE(says(run, "ok    the weights equal"));
    EXPECT_TRUE(says(run, "ok    the AdamW state the ranks' shards hold together equals"));
    EXPECT_TRUE(says(run,
                     "NOT   rank 0's AdamW held the state of all 9002 of the model's "
                     "values (rank 0 9002, rank 1 9002), as every rank of plain DDP does"));
}

// FSDP by hand that sums the gradient's slices but forgets to divide by the number of ranks:
// Adam hides most of it, so the check says what the optimizer's state shows.
TEST(TorchLessonMistakes, SummingTheGradientInsteadOfAveragingItIsNamed)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code =
        changedSolution(dir, "summed.py", "torch_fsdp", ".sum(0) / run.world_size", ".sum(0)");
    const ProcessResult run = runCli({lessonArgs("torch_fsdp", code), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_TRUE(says(run,
                     "NOT   AdamW's first moment is 2 times the reference's: the slices of "
                     "the gradient were summed over the ranks but not divided by "
                     "run.world_size"));
}

// The checklist's habits one at a time: a run that clips before the backward, or has no warmup,
// is told which habit it left out.
TEST(TorchLessonMistakes, TheChecklistNamesTheHabitLeftOut)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string solution = builtinLessonText("torch_checklist", true);
    const std::string clip =
        "        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), "
        "run.clip_norm)\n";
    const std::string warmup =
        "            group[\"lr\"] = run.learning_rate * min(1.0, (step + "
        "1) / run.warmup_steps)\n";
    ASSERT_NE(solution.find(clip), std::string::npos) << solution;
    ASSERT_NE(solution.find(warmup), std::string::npos) << solution;
    std::string early = solution;
    early.erase(early.find(clip), clip.size());
    early.insert(early.find("        logits, loss = model(X, y)\n"), clip);
    std::string flat = solution;
    flat.replace(flat.find(warmup), warmup.size(),
                 "            group[\"lr\"] = run.learning_rate\n");
    for (const auto &[code, name, sentence] :
         {std::tuple{early, "clipping", "clip_grad_norm_ must run after loss.backward()"},
          std::tuple{flat, "warmup", "there is no warmup"}}) {
        // The lesson's width and 20 steps: the gradient norm passes the clipping norm from step
        // 11 on (at width 32, or in 8 steps, clipping never bites and cannot be told apart).
        const ProcessResult run =
            runCli({{"lesson", "torch_checklist", dir.write(std::string(name) + ".py", code),
                     "--steps", "20"},
                    "",
                    {}},
                   dir);
        EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
        EXPECT_NE(run.out.find(sentence), std::string::npos) << name << ":\n" << run.out;
        EXPECT_TRUE(says(run, std::string("Not solved yet: weights.")));
    }
}

// One checkpoint around every block recomputes them all at once in the backward: the kernel's
// peak for the rank is as high as without checkpointing.
TEST(TorchLessonMistakes, OneCheckpointAroundEveryBlockSavesNoMemory)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code = dir.write(
        "whole.py",
        trainingLoop("from torch.utils.checkpoint import checkpoint\n"
                     "\n"
                     "def blocks(model, x):\n"
                     "    for block in model.blocks:\n"
                     "        x = block(x)\n"
                     "    return x\n",
                     "",
                     "        x = checkpoint(blocks, model, model.token_embedding_table(X),\n"
                     "                       use_reentrant=False)\n"
                     "        logits, loss = model.readout(x, y)\n"
                     "        loss.backward()\n"));
    const ProcessResult run =
        runCli({{"lesson", "torch_checkpoint", code, "--steps", "3"}, "", {}}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_TRUE(says(run, "ok    the weights equal"));
    EXPECT_TRUE(says(run, "Not solved yet: memory."));
}

// Gradient accumulation lowers the peak as checkpointing does, without checkpointing: the batch
// in eight slices whose gradients add up. Its weights round differently (4e-07 at the lesson's
// size, within the other lessons' tolerance), while a checkpointed block computes the same numbers
// again: the check wants them exactly (before: `Solved!`, "the rank kept one block's activations
// at a time").
TEST(TorchLessonMistakes, AccumulatingInsteadOfCheckpointingIsNotSolved)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code = dir.write(
        "accumulate.py",
        trainingLoop("", "",
                     "        for part in range(8):\n"
                     "            rows = slice(part * len(X) // 8, (part + 1) * len(X) // 8)\n"
                     "            logits, loss = model(X[rows], y[rows])\n"
                     "            (loss / 8).backward()\n"));
    const ProcessResult run =
        runCli({{"lesson", "torch_checkpoint", code, "--steps", "3"}, "", {}}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_TRUE(says(run, "NOT   the weights differ from those of the plain loop"));
    EXPECT_TRUE(says(run, "the lesson asks for torch.utils.checkpoint"));
}

// The optimizer state a ZeRO rank saves is read by the check, outside the ranks, as data: a rank
// that writes the file itself, as a pickle whose loading would create a file, is refused unread.
TEST(TorchLessonRuns, AnOptimizerFileThatIsAPickleIsRefusedUnread)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::filesystem::path made = dir.path() / "made-by-the-pickle";
    const std::string code =
        changedSolution(dir, "pickle.py", "torch_zero", "        run.save_optimizer(optimizer)\n",
                        "        import os, pickle\n"
                        "        class Boom:\n"
                        "            def __reduce__(self):\n"
                        "                return (open, ('" +
                            made.string() +
                            "', 'w'))\n"
                            "        with open(f'rank-{run.rank}.optimizer', 'wb') as file:\n"
                            "            pickle.dump(Boom(), file)\n");
    const ProcessResult run = runCli({lessonArgs("torch_zero", code), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_TRUE(says(run,
                     "NOT   rank 0 saved no optimizer state (rank-0.optimizer was refused: "
                     "it is not a weights file a rank writes"));
    EXPECT_FALSE(std::filesystem::exists(made));
}

// Exit code 5 is what a rank of a run across nodes ends with when the other node's files never
// came (cli/realrun.h kExchangeFailed). A lesson runs on one node: a rank that ends itself with
// it is a rank that ended, not another node's doing (before: "The ranks of another node stopped
// before every rank's files were exchanged").
TEST(TorchLessonRuns, ARankEndingWithTheExchangesCodeIsNotBlamedOnAnotherNode)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code = dir.write("five.py",
                                       "import os\n"
                                       "\n"
                                       "def train(run):\n"
                                       "    os._exit(5)\n");
    const ProcessResult run = runCli({lessonArgs("torch_ddp", code), "", {}}, dir);
    EXPECT_NE(run.exitCode, 0) << run.out << run.err;
    EXPECT_EQ(run.out.find("another node"), std::string::npos) << run.out;
    EXPECT_TRUE(says(run, "A rank process ended unexpectedly"));
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
    EXPECT_TRUE(says(run, "--timeout"));
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
