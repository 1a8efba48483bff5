// SPDX-License-Identifier: MIT
// `rankstep-cli real` of context parallelism: each rank holds a chunk of every sequence, real keys
// and values travel around the ring, and the chunks' causal attention trains what one process
// trains on whole sequences (rankstep_real/context.py, blocks.py); the report carries the chunks
// and their keys and values, and the app reads it; the real library says what the simulator says
// of each mistake; a keyword the real library does not know is one sentence. Small sizes (HIDDEN
// 16, LENGTH 8) keep each run to seconds.
#include "clilaunch.h"
#include "torchsupport.h"

#include "core/io/jsonparser.h"
#include "core/io/realtrace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace rankstep::hostile {
namespace {

using testsupport::ProcessResult;
using testsupport::TempDir;

const std::string kSource = RANKSTEP_SOURCE_DIR;

std::vector<std::string> realArgs(const std::string &file, int ranks, int context)
{
    return {"real",       file,
            "--function", "context_parallel",
            "--ranks",    std::to_string(ranks),
            "--context",  std::to_string(context),
            "--layers",   "2",
            "--batches",  "2",
            "--hidden",   "16",
            "--length",   "8",
            "--timeout",  "120"};
}

std::string readText(const std::string &path)
{
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// How many of rank `rank`'s storage changes set an object of `kind`, and how many of its events
// are `op`.
int setsOf(const io::JsonValue &report, std::size_t rank, const std::string &kind)
{
    int count = 0;
    for (const io::JsonValue &change : report.find("ranks")->items.at(rank).find("changes")->items)
        if (const io::JsonValue *object = change.find("object"); object && !object->isNull())
            count += object->find("kind")->text == kind ? 1 : 0;
    return count;
}

int eventsOf(const io::JsonValue &report, std::size_t rank, const std::string &op)
{
    int count = 0;
    for (const io::JsonValue &event : report.find("ranks")->items.at(rank).find("events")->items)
        count += event.find("op")->text == op ? 1 : 0;
    return count;
}

const std::string kOverlapped = kSource + "/lessons/99-context_parallel/solution.py";
const std::string kBlocking = kSource + "/tests/hostile/data/blocking_ring.py";

// 3 passes of keys and values per layer each way, an all-reduce of each layer's gradient over the
// context group, and the weights of one process; `attentions` calls of forward a rank makes (one
// per layer at once, or one per chunk blockwise).
void expectRingTrains(const std::string &file, int attentions)
{
    TempDir dir;
    std::vector<std::string> args = realArgs(file, 4, 4);
    const std::string json = (dir.path() / "context.json").string();
    args.insert(args.end(), {"--json", json});
    const ProcessResult run = runCli({args, "", {}}, dir);
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_NE(run.out.find("The weights of the 4 ranks, put together, match one process trained "
                           "on every batch"),
              std::string::npos)
        << run.out;
    const auto report = io::parseJson(readText(json));
    ASSERT_TRUE(report) << report.error().message;
    for (std::size_t rank = 0; rank < 4; ++rank) {
        EXPECT_EQ(eventsOf(*report, rank, "pass_to"), 12) << "rank " << rank;
        EXPECT_EQ(eventsOf(*report, rank, "receive"), 12) << "rank " << rank;
        EXPECT_EQ(eventsOf(*report, rank, "allreduce"), 2) << "rank " << rank;
        EXPECT_EQ(setsOf(*report, rank, "KeysValues"), 16) << "rank " << rank;
        EXPECT_EQ(eventsOf(*report, rank, "forward"), attentions) << "rank " << rank;
        EXPECT_EQ(eventsOf(*report, rank, "backward"), attentions) << "rank " << rank;
    }
    // The app opens what the runner wrote (core/io/realtrace.h), keys and values and chunks too.
    const auto trace = io::realTraceFromJson(readText(json));
    ASSERT_TRUE(trace) << trace.error().message;
    EXPECT_EQ(trace->config.layout.context, 4);
    const bool chunks = std::any_of(trace->changes.begin(), trace->changes.end(), [&](auto &c) {
        const core::Object *object = trace->changes.object(c);
        return object && object->kind == core::ObjectKind::KeysValues && object->context &&
               object->total == 4;
    });
    EXPECT_TRUE(chunks) << "no chunk's keys and values in the opened trace";
}

// The lesson's solution: the overlapped ring (pass_to_start, receive_start) with blockwise
// attention (kv=[one chunk], so_far=...), four calls a layer each way.
TEST(RealContextRuns, TheOverlappedRingTrainsWhatOneProcessTrains)
{
    REQUIRE_TORCH();
    expectRingTrains(kOverlapped, 8);
}

// The blocking ring (pass_to, receive, one attention over every chunk), as the lesson was first.
TEST(RealContextRuns, TheBlockingRingTrainsWhatOneProcessTrains)
{
    REQUIRE_TORCH();
    expectRingTrains(kBlocking, 2);
}

// A program whose ranks, only in the real run, send their own chunk's keys and values on instead
// of the ones they received: every chunk's attention then sees one chunk's keys four times under
// every chunk's name. The simulator passes it (its objects say which chunk they are); the real
// tensors say otherwise, and the check says the model differs from its first layer on.
TEST(RealContextRuns, KeysAndValuesOfTheWrongChunkTrainAnotherModel)
{
    REQUIRE_TORCH();
    TempDir dir;
    std::string code = readText(kOverlapped);
    const std::string own =
        "        kv = model.keys_values(layer, activations[layer], weights[layer])\n";
    const std::string anchor = "                kv = await coming\n";
    ASSERT_NE(code.find(own), std::string::npos)
        << "the context solution changed: update this test";
    code.insert(code.find(own) + own.size(), "        own = kv\n");
    const std::size_t at = code.find(anchor);
    ASSERT_NE(at, std::string::npos) << "the context solution changed: update this test";
    code.insert(at + anchor.size(),
                "                if hasattr(model, 'recorder'):  # only the real library has it\n"
                "                    kv.keys, kv.values = own.keys, own.values\n");
    const ProcessResult run = runCli({realArgs(dir.write("same.py", code), 4, 4), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_NE(run.out.find("Layer 0 is the first that differs from one process"), std::string::npos)
        << run.out << run.err;
}

// The real library's refusal of a keyword it does not know, as `real` prints it: the simulator
// never sees the keyword here (only the real run passes it), as it will not once it has a form
// the real library lacks.
TEST(RealContextRuns, AKeywordTheRealLibraryLacksIsOneSentence)
{
    REQUIRE_TORCH();
    TempDir dir;
    std::string code = readText(kOverlapped);
    const std::string call =
        "model.forward(\n                layer, activations[layer], "
        "weights[layer], kv=[kv], so_far=so_far\n            )";
    const std::size_t at = code.find(call);
    ASSERT_NE(at, std::string::npos) << "the context solution changed: update this test";
    code.replace(at, call.size(),
                 "model.forward(layer, activations[layer], weights[layer], kv=[kv], "
                 "so_far=so_far, **({'blockwise': True} if hasattr(model, 'recorder') else {}))");
    const int line = int(std::count(code.begin(), code.begin() + std::ptrdiff_t(at), '\n')) + 1;
    const ProcessResult run = runCli({realArgs(dir.write("newer.py", code), 4, 4), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(
        run.out.find(
            "line " + std::to_string(line) +
            "): rankstep_real.objects.PuzzleError: forward(layer 0): real runs have no keyword "
            "'blockwise' (forward(layer, inp, weight, kv=None, so_far=None) is what they take)"),
        std::string::npos)
        << run.out << run.err;
    EXPECT_NE(run.out.find("Every rank process was stopped"), std::string::npos) << run.out;
}

// The learner's mistakes, each made on every rank of a context group of 2 after any pass it needs.
const char *const kMistakes = R"(from lib import Model


async def ring(model, layer, a, w):
    other = model.group("context")[1 - model.coords["context"]]
    mine = model.keys_values(layer, a, w)
    await model.pass_to(other, mine)
    return [mine, await model.receive(other)]


async def no_kv(model: Model) -> Model:
    w, o = model.load_weights(0)
    model.forward(0, model.get_activation([0, 1]), w)
    return model


async def unfinished_used(model: Model) -> Model:
    w0, o0 = model.load_weights(0)
    w1, o1 = model.load_weights(1)
    a = model.get_activation([0, 1])
    b = model.forward(0, a, w0, kv=[model.keys_values(0, a, w0)])  # its own chunk's only
    model.forward(1, b, w1, kv=[])
    return model


async def unfinished_summed(model: Model) -> Model:
    ws = [model.load_weights(layer) for layer in range(2)]
    a = [model.get_activation([0, 1])]
    for layer in range(2):
        a.append(model.forward(layer, a[layer], ws[layer][0],
                               kv=await ring(model, layer, a[layer], ws[layer][0])))
    grad = model.loss(a[2])
    mine = model.keys_values(1, a[1], ws[1][0])
    wg, _ = model.backward(1, a[1], grad, ws[1][0], kv=[mine])  # its own chunk's only
    await model.allreduce(wg, 1, group=model.group("context"))
    return model


async def chunk_twice(model: Model) -> Model:
    w, o = model.load_weights(0)
    a = model.get_activation([0, 1])
    kv = model.keys_values(0, a, w)
    model.forward(0, a, w, kv=[kv, kv])
    return model


async def not_kv(model: Model) -> Model:
    w, o = model.load_weights(0)
    a = model.get_activation([0, 1])
    model.forward(0, a, w, kv=[a])
    return model


async def other_batches(model: Model) -> Model:
    w, o = model.load_weights(0)
    a = model.get_activation([0, 1])
    model.forward(0, a, w, kv=[model.keys_values(0, model.get_activation([0]), w)])
    return model


async def other_layer(model: Model) -> Model:
    w0, o0 = model.load_weights(0)
    w1, o1 = model.load_weights(1)
    a = model.get_activation([0, 1])
    b = model.forward(0, a, w0, kv=await ring(model, 0, a, w0))
    model.forward(0, a, w0, kv=[model.keys_values(0, a, w0), model.keys_values(1, b, w1)])
    return model


async def gradients(model):
    ws = [model.load_weights(layer) for layer in range(2)]
    a = [model.get_activation([0, 1])]
    for layer in range(2):
        a.append(model.forward(layer, a[layer], ws[layer][0],
                               kv=await ring(model, layer, a[layer], ws[layer][0])))
    grad = model.loss(a[2])
    kv = await ring(model, 1, a[1], ws[1][0])
    wg, _ = model.backward(1, a[1], grad, ws[1][0], kv=kv)
    return wg, ws[1]


async def update_unsummed(model: Model) -> Model:
    wg, (w, o) = await gradients(model)
    model.update(1, wg, w, o)
    return model


async def summed_alone(model: Model) -> Model:
    wg, (w, o) = await gradients(model)
    await model.allreduce(wg, 1, group=[model.rank])
    return model
)";

// Runs each of `functions` (comma-separated) of `file` in turn with the real library on two
// processes of a context group of 2 (gloo, a file store), a fresh model each and a barrier after
// each, so that torch is imported twice in all, not twice a mistake: the mistakes are independent
// (each is made on both ranks, after the same passes), and a rank that stops or waits for ever in
// one leaves the later ones unsaid, which fails them too. A line "FUNCTION R: SENTENCE" for each
// rank R that raised in FUNCTION.
const char *const kDriver = R"(import datetime, os, subprocess, sys
source, file, functions = sys.argv[1:4]
if len(sys.argv) == 4:
    store = os.path.join(os.path.dirname(os.path.abspath(file)), "mistakes.store")
    ranks = [subprocess.Popen([sys.executable, sys.argv[0], source, file, functions, str(r), store],
                              stdout=subprocess.PIPE, text=True) for r in range(2)]
    said = []
    for child in ranks:  # a rank that waits for ever is ended, not left behind
        try:
            said.append(child.communicate(timeout=300)[0])
        except subprocess.TimeoutExpired:
            child.kill()
            said.append(child.communicate()[0])
    print("".join(said), end="")
    sys.exit(0)
me = int(sys.argv[4])
sys.path.insert(0, source + "/core/real")
import torch.distributed as dist
from rankstep_real import lib, rank, tensors
sys.modules["lib"] = lib
dist.init_process_group("gloo", init_method="file://" + sys.argv[5], rank=me, world_size=2,
                        timeout=datetime.timedelta(seconds=60))
groups = {(r,): dist.new_group([r]) for r in range(2)}
module = {}
exec(compile(open(file).read(), "mistakes.py", "exec"), module)
for function in functions.split(","):
    model = lib.Model(me, 2, 2, 2, tensors.Sizes(8, 4), lib.Recorder("mistakes.py"), groups,
                      layout=lib.Layout(2, context=2))
    try:
        rank._drive(module[function](model))
        model.finish_sends()
    except lib.PuzzleError as error:
        print(f"{function} {me}: {error}", flush=True)
    dist.barrier()
)";

TEST(RealContextRuns, TheRealLibrarySaysWhatTheSimulatorSaysOfEachMistake)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string file = dir.write("mistakes.py", kMistakes);
    const std::string driver = dir.write("driver.py", kDriver);
    const std::vector<std::string> functions = {
        "no_kv",         "unfinished_used", "unfinished_summed", "chunk_twice", "not_kv",
        "other_batches", "other_layer",     "update_unsummed",   "summed_alone"};
    std::string list;
    for (const std::string &function : functions)
        list += (list.empty() ? "" : ",") + function;
    // Each line of it after a newline, so that a function's name is never found inside another's.
    std::string byRank = "\n";
    byRank += testsupport::runProgram("/usr/bin/python3", {driver, kSource, file, list}, dir).out;
    for (const std::string &function : functions) {
        const ProcessResult simulated =
            runCli({{"run", file, "--function", function, "--ranks", "2", "--layers", "2",
                     "--batches", "2", "--context", "2"},
                    "",
                    {}},
                   dir);
        EXPECT_NE(simulated.exitCode, 0) << function;
        const std::string said = simulated.out + simulated.err;
        // The rank the simulator names ("Error (rank 1, line 51): ..."), and what that rank of
        // the real run raised in that function.
        const std::size_t named = said.find("Error (rank ");
        ASSERT_NE(named, std::string::npos) << function << said;
        const std::string rank = said.substr(named + 12, said.find(',', named) - named - 12);
        std::string prefix = "\n"; // appended, not "\n" + ...: g++ 12 warns of that (-Wrestrict)
        prefix.append(function).append(" ").append(rank).append(": ");
        const std::size_t line = byRank.find(prefix);
        ASSERT_NE(line, std::string::npos)
            << function << ": rank " << rank << " raised nothing in the real library\n"
            << byRank;
        const std::size_t from = line + prefix.size();
        const std::string real = byRank.substr(from, byRank.find('\n', from) - from);
        EXPECT_NE(said.find(real), std::string::npos)
            << function << ": the real library says\n  " << real << "\nthe simulator\n"
            << said;
    }
}

} // namespace
} // namespace rankstep::hostile
