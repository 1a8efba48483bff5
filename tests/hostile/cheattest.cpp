// SPDX-License-Identifier: MIT
// Grading that cannot be faked: the verdict comes only from the runner's own report (cli/
// runchannel.h), never from a file or descriptor the learner's code can reach. Three cheats, each
// solved before the fix: running the reference solution into the grader's trace file, writing a
// 0 byte (the old "solved" code) into the supervisor's pipe, and replaying a solved run's trace
// into the grader's trace file; and a fourth that the simulation itself refuses, ranks sharing
// gradients through a global. Each runs with the whole sandbox and without it (the verdict's
// rules alone must hold).
#include "clilaunch.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::hostile {
namespace {

using testsupport::ProcessResult;
using testsupport::TempDir;

const std::string kExecCheat = R"(import os
import subprocess


async def ddp(model):
    words = open("/proc/self/cmdline", "rb").read().split(b"\0")
    out = words[words.index(b"--trace-out") + 1].decode()
    subprocess.run([os.readlink("/proc/self/exe"), "lesson", "ddp", "--solution", "--quiet",
                    "--trace-out", out])
    os._exit(0)
)";

const std::string kPipeCheat = R"(import os


async def ddp(model):
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            if fd > 2 and os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:"):
                os.write(fd, b"\0")
        except OSError:
            pass
    return model
)";

// SOLVED is replaced by the path of a trace of the reference solution.
const std::string kReplayCheat = R"(import os
import sys


async def ddp(model):
    code = sys._getframe().f_code.co_filename
    index = os.path.basename(code).split("-")[0]
    out = os.path.join(os.path.dirname(code), index + ".rstb")
    with open("SOLVED", "rb") as solved, open(out, "wb") as trace:
        trace.write(solved.read())
    os._exit(0)
)";

// The same trace written into the grader's trace file, the run then going on to its end: the
// supervisor writes the run's own trace there afterwards, whatever the code left.
const std::string kReplayAndFinishCheat = R"(import os
import sys


async def ddp(model):
    code = sys._getframe().f_code.co_filename
    index = os.path.basename(code).split("-")[0]
    out = os.path.join(os.path.dirname(code), index + ".rstb")
    with open("SOLVED", "rb") as solved, open(out, "wb") as trace:
        trace.write(solved.read())
    return model
)";

// Ranks share the interpreter, not memory: a global carries each rank's weight gradients to the
// others, and one allreduce only waits for every rank to have stored them. Solved at Timesteps 4.8
// (the target is 5.1) while objects belonged to no rank.
const std::string kSharedMemoryCheat = R"(STASH = {}


async def ddp(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]
        STASH[model.rank, layer] = grad_weights[layer]
    await model.allreduce(grad_weights[0], 0)
    for layer in range(model.LAYERS):
        for other in range(model.RANKS):
            if other != model.rank:
                grad_weights[layer] = grad_weights[layer] + STASH[other, layer]
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
)";

// Gradients that no backward computed: fake_grad stands for all of a layer's batches, and the
// update takes it. Solved at Timesteps 0.5 while the verdict only asked whether every layer was
// updated once.
const std::string kFakeGradientCheat = R"(async def ddp(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
        grad_weights[layer] = model.fake_grad(layer, range(model.BATCHES))
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
)";

// Every rank computes its own batch's backward (so the backwards cover every batch), then builds
// the all-reduced gradient by hand instead of all-reducing: DDP without its communication.
const std::string kHandMadeGradientCheat = R"(from lib import WeightGrad


async def ddp(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    activations[0] = model.get_activation([model.rank])
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        everyone = WeightGrad(layer, model.LAYERS, range(model.BATCHES), model.BATCHES)
        weights[layer], opt_states[layer] = model.update(  # hand-made
            layer, everyone, weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
)";

// Each rank computes its own batch's backward, so the backwards cover every batch, then updates
// with fake_grad over every batch in place of the all-reduce: DDP without communicating. Solved at
// Timesteps 4.5 while the verdict asked only whether some rank's backward saw each batch.
const std::string kFakeGradientAfterBackwardCheat = R"(async def ddp(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer], grad_weights[layer]
        everyone = model.fake_grad(layer, range(model.BATCHES))
        weights[layer], opt_states[layer] = model.update(
            layer, everyone, weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
)";

// ZeRO-1 without its all-gather: each rank joins its updated shard to the other shards of the
// weight it loaded, which no update touched. Solved at Timesteps 5.1 while combine took the step
// of its first shard.
const std::string kStaleShardsCheat = R"(async def zero1(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])
    for layer in range(model.LAYERS):
        weights[layer], _ = model.load_weights(layer)
        _, opt_states[layer] = model.load_weights(layer, model.rank, model.RANKS)
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]
    for layer in range(model.LAYERS):
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)
        mine = weights[layer].shard(model.rank, model.RANKS)
        mine, opt_states[layer] = model.update(layer, grad_weights[layer], mine, opt_states[layer])
        del grad_weights[layer]
        for other in range(model.RANKS):
            if other != model.rank:
                mine = mine.combine(weights[layer].shard(other, model.RANKS))
        weights[layer] = mine
    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
)";

// DDP at half the all-reduce's traffic: a scatter-reduce gives each rank one shard of the summed
// gradient, which it joins to the other shards of its own batch's gradient. Solved at Timesteps
// 5.1 while combine took the union of the shards' batches.
const std::string kOwnShardsCheat = R"(async def ddp(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]
    for layer in range(model.LAYERS):
        mine = grad_weights[layer]
        reduced = await model.scatterreduce(mine, layer)
        for other in range(model.RANKS):
            if other != model.rank:
                reduced = reduced.combine(mine.shard(other, model.RANKS))
        del grad_weights[layer]
        weights[layer], opt_states[layer] = model.update(
            layer, reduced, weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
)";

// A sum started from 0 (`sum([...])`, which calls __radd__) of a gradient made by hand at the top
// level, outside any run: the sum came out as made by no one's hand, and the update took it.
const std::string kHandMadeSumCheat = R"(from lib import WeightGrad

EVERYONE = [sum([WeightGrad(layer, 2, range(4), 4)]) for layer in range(2)]


async def ddp(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    activations[0] = model.get_activation([model.rank])
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer], grad_weights[layer]
        weights[layer], opt_states[layer] = model.update(
            layer, EVERYONE[layer], weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
)";

// The shared-memory cheat above with each other rank's gradient passed through a thread: a thread
// of the code's own had no acting rank, so what it made (here `0 + gradient`) was no rank's and
// every rank could use it.
// Activations kept in a list instead of the storage, so that the backward recomputes none: the
// memory figure counts only what the storage holds. Solved at Timesteps 67.5 and 6,291,456 bytes
// (the targets are 83.5 and 7,340,032) while the list held eight activations.
const std::string kActivationStashCheat = R"(def checkpointing(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    kept = [model.get_activation(range(model.BATCHES))]
    for layer in range(model.LAYERS):
        kept.append(model.forward(layer, kept[layer], weights[layer]))
    grad = model.loss(kept[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad = model.backward(layer, kept[layer], grad, weights[layer])
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
)";

// FSDP's weights gathered once and kept in a list for the backward, which gathers none again.
// Solved at Timesteps 18.1 and 2,097,152 bytes (the targets are 19.9 and 2,359,296) while the
// list held every layer's whole weight.
const std::string kWeightStashCheat = R"(async def fsdp(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer, model.rank, model.RANKS)
    gathered = []
    for layer in range(model.LAYERS):
        gathered.append(await model.allgather(weights[layer], layer))
        activations[layer + 1] = model.forward(layer, activations[layer], gathered[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    del activations[model.LAYERS]
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], gathered[layer]
        )
        grad_weights[layer] = await model.scatterreduce(grad_weights[layer], layer)
        del grad_activations[layer + 1], activations[layer]
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
)";

const std::string kThreadCheat = R"(import threading

STASH = {}


def launder(obj):
    out = []
    thread = threading.Thread(target=lambda: out.append(obj.__radd__(0)))
    thread.start()
    thread.join()
    return out[0] if out else None


async def ddp(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]
        STASH[model.rank, layer] = grad_weights[layer]
    await model.allreduce(grad_weights[0], 0)
    for layer in range(model.LAYERS):
        for other in range(model.RANKS):
            if other != model.rank:
                grad_weights[layer] = grad_weights[layer] + launder(STASH[other, layer])
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
)";

// Bytecode made by hand: a LOAD_CONST whose index reaches past its constants to a pointer to a
// bytearray laid over the whole address space, through which the code clears the hand-made mark
// of the gradient it built (pybind11 keeps the value behind a pointer after the object's header,
// the holder after the 56 bytes of core::Object). Before, the update took the gradient: the
// process's memory was the code's to read and write, as with ctypes.
const std::string kBytecodeCheat = R"(import dis
import struct

from lib import WeightGrad

KEEP = []


def memory():
    # A bytearray of the whole address space, made of bytes whose layout is bytearray's: a
    # LOAD_CONST whose index reaches past co_consts into a pointer to it.
    consts = ()
    while True:
        fake = struct.pack("<qqqqqqq", 2**20, id(bytearray), 2**62, 2**62, 0, 0, 0)
        ptr = struct.pack("<q", id(fake) + 32)
        KEEP.append((fake, ptr))
        diff = id(ptr) + 32 - (id(consts) + 24)
        if diff % 8 == 0 and abs(diff) < 2**34:
            break
    n = (diff // 8) & 0xFFFFFFFF
    args = []
    while True:
        args.append(n & 0xFF)
        n >>= 8
        if not n:
            break
    code = bytes([dis.opmap["RESUME"], 0])
    for a in reversed(args[1:]):
        code += bytes([dis.opmap["EXTENDED_ARG"], a])
    code += bytes([dis.opmap["LOAD_CONST"], args[0], dis.opmap["RETURN_VALUE"], 0])

    def g():
        return None

    g.__code__ = g.__code__.replace(co_code=code, co_consts=consts)
    return g()




def clean(obj):
    # pybind11 keeps the C++ value behind a pointer right after the object's header; the holder
    # (rank, run, hand-made) follows the 56 bytes of core::Object.
    mem = memory()
    value = struct.unpack("<Q", mem[id(obj) + 16:id(obj) + 24])[0]
    mem[value + 64] = 0
    return obj


async def ddp(model):
    import fractions  # a module not loaded yet still imports, from its source

    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    activations[0] = model.get_activation([model.rank])
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer], grad_weights[layer]
        everyone = clean(WeightGrad(layer, model.LAYERS, range(model.BATCHES), model.BATCHES))
        weights[layer], opt_states[layer] = model.update(
            layer, everyone, weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
)";

class Cheat : public ::testing::TestWithParam<std::string>
{
protected:
    ProcessResult cli(const TempDir &dir, const std::vector<std::string> &args)
    {
        return runCli({args, dir.path().string(), {GetParam()}}, dir);
    }
    // `cheat` with SOLVED replaced by the path of a trace of the reference solution.
    void expectReplayNotSolved(const std::string &cheat, const std::string &name)
    {
        TempDir dir;
        const std::string solved = (dir.path() / "solved.rstb").string();
        const ProcessResult reference = runCli(
            {{"lesson", "ddp", "--solution", "--quiet", "--trace-out", solved}, {}, {}}, dir);
        ASSERT_EQ(reference.exitCode, 0) << reference.err;
        std::string code = cheat;
        code.replace(code.find("SOLVED"), 6, solved);
        expectNotSolvedByGrade(dir, dir.write(name, code));
    }
    void expectNotSolvedByGrade(const TempDir &dir, const std::string &file)
    {
        const ProcessResult graded = cli(dir, {"grade", file, "--timeout", "10"});
        EXPECT_EQ(graded.exitCode, 0) << graded.err;
        EXPECT_NE(graded.out.find("0 of 1 puzzle functions solved"), std::string::npos)
            << graded.out << graded.err;
    }
    // The cheat `source`, saved as `file` and run as `lesson`, ends with `exitCode` (1: it ran and
    // its verdict says why it is not solved; 2: a call was refused), is never "Solved", says
    // `words`, and `grade` solves it no more.
    void expectRefused(const TempDir &dir, const std::string &lesson, const std::string &file,
                       const std::string &source, int exitCode, const std::string &words)
    {
        const ProcessResult run = cli(dir, {"lesson", lesson, dir.write(file, source)});
        EXPECT_EQ(run.exitCode, exitCode) << run.out << run.err;
        EXPECT_EQ(run.out.find("Solved"), std::string::npos) << run.out;
        EXPECT_NE((run.out + run.err).find(words), std::string::npos) << run.out << run.err;
        expectNotSolvedByGrade(dir, dir.path().string() + "/" + file);
    }
};

TEST_P(Cheat, RunningTheSolutionIntoTheGradersTraceFileIsNotSolved)
{
    TempDir dir;
    expectNotSolvedByGrade(dir, dir.write("execcheat.py", kExecCheat));
}

TEST_P(Cheat, WritingIntoTheSupervisorsPipeIsNotSolved)
{
    TempDir dir;
    const ProcessResult run = cli(dir, {"lesson", "ddp", dir.write("pipecheat.py", kPipeCheat)});
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_EQ(run.out.find("Solved"), std::string::npos) << run.out;
}

TEST_P(Cheat, ReplayingASolvedTraceIsNotSolved)
{
    expectReplayNotSolved(kReplayCheat, "replaycheat.py");
}

TEST_P(Cheat, ReplayingASolvedTraceAndFinishingTheRunIsNotSolved)
{
    expectReplayNotSolved(kReplayAndFinishCheat, "finishcheat.py");
}

TEST_P(Cheat, AddingAnotherRanksGradientsFromAGlobalIsNotSolved)
{
    TempDir dir;
    const ProcessResult run =
        cli(dir, {"lesson", "ddp", dir.write("sharedmemory.py", kSharedMemoryCheat)});
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_EQ(run.out.find("Solved"), std::string::npos) << run.out;
    EXPECT_NE(run.err.find("Error (rank 3, line 22): rank 3 used rank 0's weight gradient for "
                           "layer 0 in a sum without receiving it: ranks do not share memory; "
                           "send it (pass_to) or reduce it (allreduce, scatterreduce) first"),
              std::string::npos)
        << run.err;
}

TEST_P(Cheat, GradientsNoBackwardComputedDoNotSolveATrainingLesson)
{
    TempDir dir;
    expectRefused(dir, "ddp", "fake.py", kFakeGradientCheat, 1,
                  "Not solved yet: layer 0's weight gradients were not computed by a "
                  "backward for batches 0-3");
}

TEST_P(Cheat, AGradientMadeByHandInPlaceOfACollectiveIsRefused)
{
    TempDir dir;
    expectRefused(dir, "ddp", "handmade.py", kHandMadeGradientCheat, 2,
                  "used a weight gradient for layer 1 in update that was made by hand");
}

TEST_P(Cheat, FakeGradientsInPlaceOfTheAllReduceDoNotSolveATrainingLesson)
{
    TempDir dir;
    expectRefused(dir, "ddp", "fakeafter.py", kFakeGradientAfterBackwardCheat, 1,
                  "Not solved yet: rank 0 updated layer 1 with weight gradients of "
                  "batches 1-3 that no backward of that rank computed and no collective "
                  "or message brought to it");
}

TEST_P(Cheat, ShardsNeverUpdatedDoNotJoinAnUpdatedWeight)
{
    TempDir dir;
    expectRefused(dir, "zero1", "staleshards.py", kStaleShardsCheat, 2,
                  "combine needs weights at the same step, but got steps 1 and 0");
}

TEST_P(Cheat, ShardsOfOtherBatchesDoNotJoinASummedGradient)
{
    TempDir dir;
    expectRefused(dir, "ddp", "ownshards.py", kOwnShardsCheat, 2,
                  "combine needs weight gradients of the same batches");
}

TEST_P(Cheat, ASumOfAGradientMadeByHandIsMadeByHand)
{
    TempDir dir;
    expectRefused(dir, "ddp", "handmadesum.py", kHandMadeSumCheat, 2,
                  "used a weight gradient for layer 1 in update that was made by hand");
}

TEST_P(Cheat, ActivationsKeptOutsideTheStorageDoNotMeetTheMemoryTarget)
{
    TempDir dir;
    expectRefused(dir, "checkpointing", "stash.py", kActivationStashCheat, 1,
                  "Not solved yet: line 8 (rank 0) kept 8 activations outside the five storage "
                  "dictionaries, so the memory figure does not count them; keep them in "
                  "`activations` or recompute them.");
}

TEST_P(Cheat, WeightsKeptOutsideTheStorageDoNotMeetTheMemoryTarget)
{
    TempDir dir;
    expectRefused(dir, "fsdp", "gathered.py", kWeightStashCheat, 1,
                  "Not solved yet: line 10 (rank 0) kept 6 weights outside the five storage "
                  "dictionaries, so the memory figure does not count them; keep them in "
                  "`weights`.");
}

TEST_P(Cheat, AThreadOfTheCodesOwnCannotUseThePuzzleApi)
{
    TempDir dir;
    expectRefused(dir, "ddp", "thread.py", kThreadCheat, 2,
                  "a thread the code started used the puzzle API during the run");
}

TEST_P(Cheat, BytecodeMadeByHandCannotReachTheRunnersMemory)
{
    TempDir dir;
    const ProcessResult run = cli(dir, {"lesson", "ddp", dir.write("bytecode.py", kBytecodeCheat)});
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_EQ(run.out.find("Solved"), std::string::npos) << run.out;
    EXPECT_NE(run.err.find("RuntimeError: code objects cannot be made from bytes in a Rankstep run "
                           "(types.CodeType, code.replace, marshal)"),
              std::string::npos)
        << run.err;
    expectNotSolvedByGrade(dir, dir.path().string() + "/bytecode.py");
    // Nor from marshal's bytes; compile() and exec() of source work.
    const ProcessResult marshalled =
        cli(dir, {"run",
                  dir.write("marshalled.py",
                            "import marshal\n\n\ndef puzzle(model):\n"
                            "    exec(compile('x = 1', 'x', 'exec'))\n"
                            "    marshal.loads(marshal.dumps(compile('x = 1', 'x', 'exec')))\n"),
                  "--function", "puzzle", "--ranks", "2"});
    EXPECT_EQ(marshalled.exitCode, 2) << marshalled.out << marshalled.err;
    EXPECT_NE(marshalled.err.find("Error (rank 0, line 6): RuntimeError: code objects cannot be "
                                  "made from bytes"),
              std::string::npos)
        << marshalled.err;
}

// Only what changed during a run that sent no report is removed: an older file stays.
TEST(Grading, RunWithoutAReportLeavesAnOlderOutputFileAlone)
{
    TempDir dir;
    const std::string older = dir.write("older.json", "{\"mine\": true}");
    const ProcessResult run = runCli(
        {{"run", dir.write("exit.py", "import os\n\n\ndef puzzle(model):\n    os._exit(0)\n"),
          "--function", "puzzle", "--json", older},
         {},
         {}},
        dir);
    EXPECT_EQ(run.exitCode, 2) << run.err;
    EXPECT_EQ(dir.read("older.json"), "{\"mine\": true}");
}

std::string sandboxName(const ::testing::TestParamInfo<std::string> &param)
{
    return param.index == 0 ? "Sandboxed" : "WithoutSandbox";
}

INSTANTIATE_TEST_SUITE_P(Grading, Cheat,
                         ::testing::Values("RANKSTEP_SANDBOX_SKIP=",
                                           "RANKSTEP_SANDBOX_SKIP=landlock,seccomp"),
                         sandboxName);

} // namespace
} // namespace rankstep::hostile
