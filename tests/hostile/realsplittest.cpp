// SPDX-License-Identifier: MIT
// `rankstep-cli real` of the layouts that split a layer: tensor-parallel slices, sequence shards
// and experts train on real processes what one process trains (rankstep_real/blocks.py,
// parallel.py); the report carries the slices and experts and the app reads it; the real
// library's checks say what the simulator says; and the check takes each layer's kind from the
// simulation, not from a rank. Small sizes (HIDDEN 16, LENGTH 4) keep each run to seconds.
#include "clilaunch.h"
#include "torchsupport.h"

#include "core/io/jsonparser.h"
#include "core/io/realtrace.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rankstep::hostile {
namespace {

using testsupport::ProcessResult;
using testsupport::TempDir;

const std::string kSource = RANKSTEP_SOURCE_DIR;

std::vector<std::string> realArgs(const std::string &file, const std::string &function, int ranks,
                                  int layers, int batches, const std::string &axis, int degree)
{
    return {"real",       file,
            "--function", function,
            "--ranks",    std::to_string(ranks),
            "--layers",   std::to_string(layers),
            "--batches",  std::to_string(batches),
            "--hidden",   "16",
            "--length",   "4",
            "--timeout",  "120",
            "--" + axis,  std::to_string(degree)};
}

std::string readText(const std::string &path)
{
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// How many events of each op rank `rank` of a real run's report recorded.
std::map<std::string, int> opsOf(const io::JsonValue &report, std::size_t rank)
{
    std::map<std::string, int> ops;
    const io::JsonValue *ranks = report.find("ranks");
    if (!ranks || ranks->items.size() <= rank)
        return ops;
    for (const io::JsonValue &event : ranks->items[rank].find("events")->items)
        ++ops[event.find("op")->text];
    return ops;
}

// The first final weight rank `rank` reports, as its report writes the object.
const io::JsonValue *firstFinalWeight(const io::JsonValue &report, std::size_t rank, int layer)
{
    const io::JsonValue *ranks = report.find("ranks");
    if (!ranks || ranks->items.size() <= rank)
        return nullptr;
    for (const io::JsonValue &entry : ranks->items[rank].find("final_weights")->items)
        if (entry.find("layer")->text == std::to_string(layer))
            return entry.find("object");
    return nullptr;
}

struct RealRun {
    ProcessResult run;
    std::string json;
};

RealRun runSolution(const TempDir &dir, const std::string &lesson, const std::string &function,
                    int ranks, int batches, const std::string &axis, int degree)
{
    std::vector<std::string> args = realArgs(kSource + "/lessons/" + lesson + "/solution.py",
                                             function, ranks, 2, batches, axis, degree);
    const std::string json = (dir.path() / (function + ".json")).string();
    args.insert(args.end(), {"--json", json});
    return {runCli({args, "", {}}, dir), json};
}

// Megatron's count: per layer two all-reduces forward and two backward, each completing the
// partial sums of one block; every slice's values match one process's layer.
TEST(RealSplitRuns, TensorParallelSlicesTrainWhatOneProcessTrains)
{
    REQUIRE_TORCH();
    TempDir dir;
    const RealRun real =
        runSolution(dir, "97-tensor_parallel", "tensor_parallel", 4, 2, "tensor", 4);
    ASSERT_EQ(real.run.exitCode, 0) << real.run.out << real.run.err;
    EXPECT_NE(real.run.out.find("The weights of the 4 ranks, put together, match one process"),
              std::string::npos)
        << real.run.out;
    const auto report = io::parseJson(readText(real.json));
    ASSERT_TRUE(report) << report.error().message;
    for (std::size_t rank = 0; rank < 4; ++rank) {
        const std::map<std::string, int> ops = opsOf(*report, rank);
        EXPECT_EQ(ops.at("allreduce"), 8) << "rank " << rank;
        EXPECT_EQ(ops.at("forward"), 4) << "rank " << rank;
        const io::JsonValue *weight = firstFinalWeight(*report, rank, 1);
        ASSERT_NE(weight, nullptr);
        ASSERT_NE(weight->find("slice"), nullptr) << "rank " << rank;
        EXPECT_TRUE(weight->find("slice")->boolean);
        EXPECT_EQ(weight->find("shards")->items.at(0).text, std::to_string(rank));
    }
    // The app opens what the runner wrote (core/io/realtrace.h).
    const auto trace = io::realTraceFromJson(readText(real.json));
    ASSERT_TRUE(trace) << trace.error().message;
}

// Between the blocks each rank keeps its part of each batch's sequence: reduce-scatter after a
// block, all-gather before the next, and the last block's sum an all-reduce for the loss.
TEST(RealSplitRuns, SequenceShardsTrainWhatOneProcessTrains)
{
    REQUIRE_TORCH();
    TempDir dir;
    const RealRun real =
        runSolution(dir, "98-sequence_parallel", "sequence_parallel", 4, 2, "tensor", 4);
    ASSERT_EQ(real.run.exitCode, 0) << real.run.out << real.run.err;
    EXPECT_NE(real.run.out.find("match one process trained on every batch"), std::string::npos)
        << real.run.out;
    const auto report = io::parseJson(readText(real.json));
    ASSERT_TRUE(report) << report.error().message;
    const std::map<std::string, int> ops = opsOf(*report, 1);
    EXPECT_EQ(ops.at("allreduce"), 1);
    EXPECT_EQ(ops.at("scatterreduce"), 7);
    EXPECT_EQ(ops.at("allgather"), 12);
    const auto trace = io::realTraceFromJson(readText(real.json));
    ASSERT_TRUE(trace) << trace.error().message;
}

// Tokens travel to their expert's rank and back with four all-to-alls (gloo's all_to_all_single:
// it has no all_to_all of a list); each rank's expert trains on the batches the router sends it.
TEST(RealSplitRuns, ExpertsTrainWhatOneProcessTrainsThroughAlltoall)
{
    REQUIRE_TORCH();
    TempDir dir;
    const RealRun real =
        runSolution(dir, "99-expert_parallel", "expert_parallel", 2, 4, "expert", 2);
    ASSERT_EQ(real.run.exitCode, 0) << real.run.out << real.run.err;
    EXPECT_NE(real.run.out.find("The weights of the 2 ranks, put together, match one process"),
              std::string::npos)
        << real.run.out;
    const auto report = io::parseJson(readText(real.json));
    ASSERT_TRUE(report) << report.error().message;
    for (std::size_t rank = 0; rank < 2; ++rank) {
        EXPECT_EQ(opsOf(*report, rank).at("alltoall"), 4) << "rank " << rank;
        const io::JsonValue *expert = firstFinalWeight(*report, rank, 1);
        ASSERT_NE(expert, nullptr);
        ASSERT_NE(expert->find("expert"), nullptr);
        EXPECT_EQ(expert->find("expert")->text, std::to_string(rank));
    }
    const auto trace = io::realTraceFromJson(readText(real.json));
    ASSERT_TRUE(trace) << trace.error().message;
}

// Two processes of the real library, each patched so that all_gather_object (a pickle from the
// other process, unpickled in this one) fails: the alltoall shares what every member sends whom
// as numbers, and each rank gets the rows of the batches sent to it, as get_activation makes them.
// Two gloo ranks forked from one script (argv: the source folder, a store file) with
// all_gather_object refused: what follows runs the real library's collectives without a pickle.
const char *const kTwoRanksWithoutPickles = R"(import os, sys
sys.path.insert(0, sys.argv[1] + '/core/real')
import torch
import torch.distributed as dist
from rankstep_real import lib, rank as driving, tensors

me = 0 if os.fork() else 1
dist.init_process_group('gloo', init_method='file://' + sys.argv[2], rank=me, world_size=2)


def refuse(*args, **kwargs):
    raise RuntimeError('all_gather_object: a pickle from another process')


dist.all_gather_object = refuse
)";

// The two ranks above running `body` (a script named `name` in `dir`): what they printed.
ProcessResult runTwoRanks(const TempDir &dir, const std::string &name, const char *body)
{
    const std::string script = dir.write(name, std::string(kTwoRanksWithoutPickles) + body);
    return testsupport::runProgram("/usr/bin/python3",
                                   {script, kSource, (dir.path() / "store").string()}, dir);
}

const char *const kAlltoallWithoutPickles =
    R"(model = lib.Model(me, 2, 2, 4, tensors.Sizes(8, 4), lib.Recorder('alltoall.py'))
# Rank r sends member j batch 2r + j; rank 1 sends itself nothing.
pieces = [model.get_activation([2 * me]), None if me else model.get_activation([1])]


async def exchange():
    return await model.alltoall(pieces, 0)


try:
    got = driving._drive(exchange())
    same = torch.equal(got.value, model.get_activation(sorted(got.batches)).value)
    print(f'rank {me}: {type(got).__name__} of batches {sorted(got.batches)}, rows match {same}',
          flush=True)
except Exception as error:
    print(f'rank {me}: {error}', flush=True)
dist.destroy_process_group()
if me == 0:
    os.wait()
)";

TEST(RealSplitRuns, TheAlltoallSharesItsPlanWithoutAPickle)
{
    REQUIRE_TORCH();
    TempDir dir;
    const ProcessResult run = runTwoRanks(dir, "alltoall.py", kAlltoallWithoutPickles);
    EXPECT_NE(run.out.find("rank 0: Activation of batches [0, 2], rows match True"),
              std::string::npos)
        << run.out << run.err;
    EXPECT_NE(run.out.find("rank 1: Activation of batches [1], rows match True"), std::string::npos)
        << run.out << run.err;
}

// The real library's allreduce, scatterreduce and allgather share what each member holds (its
// batches, its shards and their sizes, its context mark) as numbers in tensors: with
// all_gather_object refused, the three still give every member the sum, its shard and the whole.
const char *const kCollectivesWithoutPickles =
    R"(model = lib.Model(me, 2, 1, 4, tensors.Sizes(8, 4), lib.Recorder('collectives.py'))
weight, _ = model.load_weights(0)
batches = [2 * me, 2 * me + 1]
activation = model.get_activation(batches)
grad = model.loss(model.forward(0, activation, weight))
mine, _ = model.backward(0, activation, grad, weight)
shard, _ = model.load_weights(0, me, 2)


async def collectives():
    summed = await model.allreduce(mine, 0)
    piece = await model.scatterreduce(mine, 0)
    whole = await model.allgather(shard, 0)
    return summed, piece, whole


try:
    summed, piece, whole = driving._drive(collectives())
    print(f'rank {me}: allreduce batches {sorted(summed.batches)}, scatterreduce batches '
          f'{sorted(piece.batches)} shard {sorted(piece.shards)}, allgather shards '
          f'{sorted(whole.shards)} of {whole.total}, whole weight matches '
          f'{torch.equal(whole.flat(), weight.flat())}', flush=True)
except Exception as error:
    print(f'rank {me}: {type(error).__name__}: {error}', flush=True)
dist.destroy_process_group()
if me == 0:
    os.wait()
)";

TEST(RealSplitRuns, TheCollectivesShareWhatTheMembersHoldWithoutAPickle)
{
    REQUIRE_TORCH();
    TempDir dir;
    const ProcessResult run = runTwoRanks(dir, "collectives.py", kCollectivesWithoutPickles);
    for (const char *rank : {"0", "1"}) {
        const std::string expected =
            std::string("rank ") + rank +
            ": allreduce batches [0, 1, 2, 3], scatterreduce batches [0, 1, 2, 3] shard [" + rank +
            "], allgather shards [0, 1] of 2, whole weight matches True";
        EXPECT_NE(run.out.find(expected), std::string::npos) << run.out << run.err;
    }
}

// The real library keeps where each token lives as the simulator does: two ranks, one expert each,
// take the loss on the tokens their expert computed, and are refused with the simulator's
// sentence; after the combine each takes it at home. (`real` simulates first, so a program that
// skips the combine stops there; this is the library on its own.)
const char *const kLossAtTheExpert =
    R"(model = lib.Model(me, 2, 2, 4, tensors.Sizes(8, 4), lib.Recorder('home.py'),
                  layout=lib.Layout(2, expert=2))
w0, _ = model.load_weights(0)
w1, _ = model.load_weights(1, expert=model.coords['expert'])


def to_experts(t):
    return [t.pick([b for b in t.batches if model.expert_of(b) == e]) for e in range(2)]


def to_homes(t):
    return [t.pick([b for b in t.batches if b // 2 == r]) for r in range(2)]


async def layer():
    a1 = model.forward(0, model.get_activation([2 * me, 2 * me + 1]), w0)
    out = model.forward(1, await model.alltoall(to_experts(a1), 1), w1)
    try:
        model.loss(out)
        print(f'rank {me}: the loss at the expert was taken', flush=True)
    except lib.PuzzleError as error:
        print(f'rank {me}: {error}', flush=True)
    grad = model.loss(await model.alltoall(to_homes(out), 1))
    print(f'rank {me}: the loss at home on batches {sorted(grad.batches)}', flush=True)


try:
    driving._drive(layer())
except Exception as error:
    print(f'rank {me}: {type(error).__name__}: {error}', flush=True)
dist.destroy_process_group()
if me == 0:
    os.wait()
)";

TEST(RealSplitRuns, ALossAtTheExpertIsRefusedAsTheSimulatorRefusesIt)
{
    REQUIRE_TORCH();
    TempDir dir;
    const ProcessResult run = runTwoRanks(dir, "home.py", kLossAtTheExpert);
    for (const char *said :
         {"rank 0: loss needs the tokens of batch 2 back on rank 1: they are still with expert 0 "
          "on rank 0; combine them with alltoall first",
          "rank 1: loss needs the tokens of batch 1 back on rank 0: they are still with expert 1 "
          "on rank 1; combine them with alltoall first",
          "rank 0: the loss at home on batches [0, 1]",
          "rank 1: the loss at home on batches [2, 3]"})
        EXPECT_NE(run.out.find(said), std::string::npos) << said << "\n" << run.out << run.err;
}

// A rank's code that marks its final slices as whole layers (only in the real run) leaves a
// weights file that claims another model than the simulation trained: the check refuses it, as
// it takes each layer's kind from the simulation.
TEST(RealSplitRuns, ARankThatCallsItsSlicesWholeLayersIsRefused)
{
    REQUIRE_TORCH();
    TempDir dir;
    std::string code = readText(kSource + "/lessons/97-tensor_parallel/solution.py");
    const std::string anchor =
        "    for layer in range(model.LAYERS):\n        model.set_final_weight";
    const std::size_t at = code.find(anchor);
    ASSERT_NE(at, std::string::npos);
    code.insert(at,
                "    if hasattr(model, 'recorder'):  # only in the real run\n"
                "        for layer in range(model.LAYERS):\n"
                "            weights[layer].slice = False\n");
    const ProcessResult run = runCli(
        {realArgs(dir.write("whole.py", code), "tensor_parallel", 4, 2, 2, "tensor", 4), "", {}},
        dir);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(run.out.find("final weights (rank-0.weights) were refused: its layer entry '0' is "
                           "not a tensor layer's, as the simulated run trained it"),
              std::string::npos)
        << run.out << run.err;
}

// The overlapped ring (pass_to_start, receive_start) runs for real too: every rank posts its send
// and its receive before awaiting either, and no rank waits for ever (gloo's sends never wait
// for their receiver); the weights are one process's.
TEST(RealSplitRuns, TheOverlappedRingRunsForReal)
{
    REQUIRE_TORCH();
    TempDir dir;
    const ProcessResult run = runCli({realArgs(kSource + "/lessons/99-context_parallel/solution.py",
                                               "context_parallel", 4, 2, 2, "context", 4),
                                      "",
                                      {}},
                                     dir);
    EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_NE(run.out.find("The weights of the 4 ranks, put together, match one process trained "
                           "on every batch"),
              std::string::npos)
        << run.out << run.err;
}

// The learner's mistakes, each a rank function that makes it on rank 0 before any collective.
const char *const kMistakes = R"(from lib import Model


async def partial_used(model: Model) -> Model:
    w, o = model.load_weights(0, model.coords["tensor"], model.TENSOR, split="tensor")
    p = model.forward(0, model.get_activation([0, 1]), w)
    model.forward(0, p, w)
    return model


async def wrong_group(model: Model) -> Model:
    w, o = model.load_weights(0, model.coords["tensor"], model.TENSOR, split="tensor")
    p = model.forward(0, model.get_activation([0, 1]), w)
    await model.allreduce(p, 0, group=[model.rank])
    return model


async def shard_used(model: Model) -> Model:
    w, o = model.load_weights(0, model.coords["tensor"], model.TENSOR, split="tensor")
    model.forward(0, model.get_activation([0, 1]).shard(model.rank, model.TENSOR), w)
    return model


async def other_expert(model: Model) -> Model:
    model.load_weights(1, expert=1 - model.coords["expert"])
    return model


async def stranger_tokens(model: Model) -> Model:
    w, o = model.load_weights(0, expert=model.coords["expert"])
    model.forward(0, model.get_activation([0, 1]), w)
    return model
)";

// Runs each of `mistakes` (a function of `file` and the axis of its group of 2) in turn on rank 0
// of 2 with the real library, a fresh model each and no process group needed, in one process
// (torch imported once): what each raised, "" when it raised nothing.
std::map<std::string, std::string> realSentences(
    const TempDir &dir, const std::string &file,
    const std::vector<std::pair<std::string, std::string>> &mistakes)
{
    const std::string marker = "=== ";
    std::string cases;
    for (const auto &[function, axis] : mistakes)
        cases += "('" + function + "', '" + axis + "'), ";
    const std::string driver =
        "import sys\n"
        "sys.path.insert(0, '" +
        kSource +
        "/core/real')\n"
        "from rankstep_real import lib, rank, tensors\n"
        "sys.modules['lib'] = lib\n"
        "module = {}\n"
        "exec(compile(open('" +
        file + "').read(), 'mistakes.py', 'exec'), module)\n" + "for function, axis in [" + cases +
        "]:\n" + "    print('" + marker + "' + function)\n" +
        "    model = lib.Model(0, 2, 2, 2, tensors.Sizes(8, 4), lib.Recorder('mistakes.py'),\n"
        "                      layout=lib.Layout(2, **{axis: 2}))\n"
        "    try:\n        rank._drive(module[function](model))\n"
        "    except lib.PuzzleError as error:\n        print(error)\n";
    const std::string out = runProgram("/usr/bin/python3", {"-c", driver}, dir).out;
    // "=== FUNCTION\nSENTENCE\n" for each, SENTENCE and its newline absent when it raised nothing.
    std::map<std::string, std::string> said;
    for (std::size_t at = out.find(marker); at != std::string::npos;) {
        const std::size_t name = at + marker.size();
        const std::size_t text = out.find('\n', name);
        if (text == std::string::npos)
            break;
        const std::size_t next = out.find("\n" + marker, text);
        const std::size_t end = next == std::string::npos ? out.size() : next + 1;
        std::string sentence = out.substr(text + 1, end - text - 1);
        if (!sentence.empty() && sentence.back() == '\n')
            sentence.pop_back(); // print's newline
        said[out.substr(name, text - name)] = sentence;
        at = next == std::string::npos ? next : next + 1;
    }
    return said;
}

TEST(RealSplitRuns, TheRealLibrarySaysWhatTheSimulatorSaysOfEachMistake)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string file = dir.write("mistakes.py", kMistakes);
    const std::vector<std::pair<std::string, std::string>> mistakes = {
        {"partial_used", "tensor"},
        {"wrong_group", "tensor"},
        {"shard_used", "tensor"},
        {"other_expert", "expert"},
        {"stranger_tokens", "expert"}};
    const std::map<std::string, std::string> sentences = realSentences(dir, file, mistakes);
    for (const auto &[function, axis] : mistakes) {
        const auto found = sentences.find(function);
        const std::string real = found == sentences.end() ? "" : found->second;
        ASSERT_FALSE(real.empty()) << function << " raised nothing in the real library";
        const ProcessResult simulated =
            runCli({{"run", file, "--function", function, "--ranks", "2", "--layers", "2",
                     "--batches", "2", "--" + axis, "2"},
                    "",
                    {}},
                   dir);
        EXPECT_NE(simulated.exitCode, 0) << function;
        const std::string said = simulated.out + simulated.err;
        EXPECT_NE(said.find(real), std::string::npos)
            << function << ": the real library says\n  " << real << "\nthe simulator\n"
            << said;
    }
}

} // namespace
} // namespace rankstep::hostile
