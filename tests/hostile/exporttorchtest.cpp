// SPDX-License-Identifier: MIT
// `rankstep-cli export --torch`: the programs written from the DDP, FSDP, GPipe and context
// parallelism lessons' solutions train under torchrun (python3 -m torch.distributed.run, with
// Debian's --redirects workaround) exactly what one process trains, and a wrong schedule's program
// says which layer differs. Small sizes (HIDDEN 32, LENGTH 8) keep each to importing torch four
// times. Skipped without python3-torch, except in CI, which installs it.
#include "clilaunch.h"
#include "torchsupport.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace rankstep::hostile {
namespace {

using testsupport::ProcessResult;
using testsupport::TempDir;

const std::string kSource = RANKSTEP_SOURCE_DIR;

// Exports FILE's FUNCTION at 4 ranks to DIR/out.py, with `more` options; the export's own result.
ProcessResult exportProgram(const std::string &file, const std::string &function, int layers,
                            const TempDir &dir, const std::vector<std::string> &more = {})
{
    std::vector<std::string> args{
        "export",    file, "--function", function,
        "--ranks",   "4",  "--layers",   std::to_string(layers),
        "--batches", "4",  "--hidden",   "32",
        "--length",  "8",  "--torch",    (dir.path() / "out.py").string()};
    args.insert(args.end(), more.begin(), more.end());
    return runCli({args, "", {}}, dir);
}

// DIR/out.py under torchrun on 4 processes with --check, as docs/export.md says to run it.
// `--standalone` always rendezvouses on localhost:29400, so two of these tests at once (ctest -j)
// would meet each other's ranks: each holds a lock on one file for its whole torchrun, and the
// next waits for it.
// `environment`, NAME=VALUE each, is added to torchrun's and so to every rank's.
ProcessResult torchrun(const TempDir &dir, const std::vector<std::string> &environment = {})
{
    std::vector<std::string> args{"/tmp/rankstep-tests-torchrun-standalone.lock", "/usr/bin/env"};
    args.insert(args.end(), environment.begin(), environment.end());
    for (const char *arg :
         {"/usr/bin/timeout", "300", "/usr/bin/python3", "-m", "torch.distributed.run",
          "--standalone", "--nproc_per_node", "4", "--redirects", "1", "--tee", "1"})
        args.emplace_back(arg);
    args.push_back((dir.path() / "out.py").string());
    args.emplace_back("--check");
    return testsupport::runProgram("/usr/bin/flock", args, dir);
}

const std::regex kMatch("weights match one process \\(max abs diff [0-9.e+-]+\\)");

// FILE's FUNCTION exported and run: the weights of one process. `lesson` names it in the output.
void expectFileMatches(const std::string &file, const std::string &lesson,
                       const std::string &function, int layers,
                       const std::vector<std::string> &more = {})
{
    TempDir dir;
    const ProcessResult exported = exportProgram(file, function, layers, dir, more);
    ASSERT_EQ(exported.exitCode, 0) << exported.out << exported.err;
    const ProcessResult run = torchrun(dir);
    std::smatch line;
    EXPECT_TRUE(std::regex_search(run.out, line, kMatch)) << run.out << run.err;
    EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
    std::cout << lesson << ": " << line.str() << "\n"; // the line the report quotes
}

void expectMatch(const std::string &lesson, const std::string &function, int layers,
                 const std::vector<std::string> &more = {})
{
    expectFileMatches(kSource + "/lessons/" + lesson + "/solution.py", lesson, function, layers,
                      more);
}

TEST(ExportedPrograms, DdpSolutionTrainsWhatOneProcessTrains)
{
    REQUIRE_TORCH();
    expectMatch("30-ddp", "ddp", 2);
}

TEST(ExportedPrograms, FsdpSolutionTrainsWhatOneProcessTrains)
{
    REQUIRE_TORCH();
    expectMatch("50-fsdp", "fsdp", 6);
}

TEST(ExportedPrograms, GpipeSolutionTrainsWhatOneProcessTrains)
{
    REQUIRE_TORCH();
    expectMatch("70-gpipe", "gpipe", 8);
}

// Each rank holds a chunk of every sequence; the keys and values (the input rows they project)
// travel around the ring as the learner's passes did, and each layer's causal attention over the
// chunks trains what one process's over whole sequences does. The lesson's solution overlaps the
// passes (pass_to_start, receive_start: written as sends before receives where they started)
// with a blockwise attention.
TEST(ExportedPrograms, ContextParallelSolutionTrainsWhatOneProcessTrains)
{
    REQUIRE_TORCH();
    expectMatch("99-context_parallel", "context_parallel", 2, {"--context", "4"});
}

// The blocking ring (pass_to, receive), as the lesson's solution was first.
TEST(ExportedPrograms, BlockingRingTrainsWhatOneProcessTrains)
{
    REQUIRE_TORCH();
    expectFileMatches(kSource + "/tests/hostile/data/blocking_ring.py", "blocking ring",
                      "context_parallel", 2, {"--context", "4"});
}

// --check gathers every rank's final weights on rank 0 as tensors: no rank unpickles what another
// sent (all_gather_object did: a rank's bytes became objects on rank 0). The ranks here have
// Python's unpickling refused outright (a sitecustomize that only a rank, with LOCAL_RANK set,
// obeys), and still match.
TEST(ExportedPrograms, TheCheckGathersTheWeightsWithoutUnpickling)
{
    REQUIRE_TORCH();
    TempDir dir;
    dir.write("site/sitecustomize.py",
              "import os, pickle\n"
              "if 'LOCAL_RANK' in os.environ:\n"
              "    class Refused(pickle.Unpickler):\n"
              "        def load(self):\n"
              "            raise SystemExit('a rank unpickled what another rank sent')\n"
              "    def loads(*args, **kwargs):\n"
              "        raise SystemExit('a rank unpickled what another rank sent')\n"
              "    pickle.Unpickler, pickle.loads = Refused, loads\n");
    const ProcessResult exported =
        exportProgram(kSource + "/lessons/50-fsdp/solution.py", "fsdp", 6, dir);
    ASSERT_EQ(exported.exitCode, 0) << exported.out << exported.err;
    const ProcessResult run = torchrun(dir, {"PYTHONPATH=" + (dir.path() / "site").string()});
    EXPECT_EQ(run.out.find("a rank unpickled"), std::string::npos) << run.out << run.err;
    EXPECT_EQ(run.err.find("a rank unpickled"), std::string::npos) << run.err;
    EXPECT_TRUE(std::regex_search(run.out, kMatch)) << run.out << run.err;
    EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
}

// Every rank takes every batch and the allreduce sums them: each batch counts four times. The
// simulator's check passes it (no weight is missing); the program trains for real and says so.
TEST(ExportedPrograms, AWrongScheduleSaysWhichLayerDiffers)
{
    REQUIRE_TORCH();
    TempDir dir;
    std::ifstream in(kSource + "/lessons/30-ddp/solution.py");
    std::string code{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const std::string mine = "model.get_activation([model.rank])";
    const std::size_t at = code.find(mine);
    ASSERT_NE(at, std::string::npos) << "the DDP solution changed: update this test";
    code.replace(at, mine.size(), "model.get_activation(range(model.BATCHES))");
    const ProcessResult exported = exportProgram(dir.write("twice.py", code), "ddp", 2, dir);
    ASSERT_EQ(exported.exitCode, 0) << exported.out << exported.err;
    const ProcessResult run = torchrun(dir);
    EXPECT_TRUE(std::regex_search(
        run.out, std::regex("layer 0 differs from one process \\(max abs diff [0-9.e+-]+\\)")))
        << run.out << run.err;
    EXPECT_FALSE(std::regex_search(run.out, kMatch)) << run.out;
    EXPECT_NE(run.exitCode, 0);
}

// The DDP lesson's starter sets no final weight: the program names the first layer it lacks.
TEST(ExportedPrograms, AStarterThatTrainsNothingSaysWhichLayerIsMissing)
{
    REQUIRE_TORCH();
    TempDir dir;
    const ProcessResult exported =
        exportProgram(kSource + "/lessons/30-ddp/starter.py", "ddp", 2, dir);
    ASSERT_EQ(exported.exitCode, 0) << exported.out << exported.err;
    EXPECT_NE(exported.out.find("not correct yet"), std::string::npos) << exported.out;
    const ProcessResult run = torchrun(dir);
    EXPECT_NE(run.out.find("layer 0 differs: no rank set the whole final weight of this layer"),
              std::string::npos)
        << run.out << run.err;
    EXPECT_NE(run.exitCode, 0);
}

// The split backward's halves (backward_input, then backward_weight) make exactly what backward
// makes: the program's Rank, used in one process without torch.distributed.
TEST(ExportedPrograms, TheSplitBackwardsHalvesMakeWhatBackwardMakes)
{
    REQUIRE_TORCH();
    TempDir dir;
    const ProcessResult exported =
        exportProgram(kSource + "/lessons/30-ddp/solution.py", "ddp", 2, dir);
    ASSERT_EQ(exported.exitCode, 0) << exported.out << exported.err;
    const ProcessResult run = testsupport::runProgram(
        "/usr/bin/python3",
        {"-c",
         "import runpy, sys, torch\n"
         "Rank = runpy.run_path(sys.argv[1], run_name='exported')['Rank']\n"
         "whole, split = (Rank(0, torch.device('cpu'), {}) for _ in range(2))\n"
         "for r in (whole, split):\n"
         "    r.forward(0, [1]); r.forward(1, [1]); r.loss([1])\n"
         "whole.backward(1, [1]); whole.backward(0, [1])\n"
         "split.backward_input(1, [1]); split.backward_input(0, [1])\n"
         "split.backward_weight(1, [1]); split.backward_weight(0, [1])\n"
         "for layer in (0, 1):\n"
         "    d = whole.gradient(layer, [1], 1, [0]) - split.gradient(layer, [1], 1, [0])\n"
         "    assert d.abs().max() == 0 and whole.gradient(layer, [1], 1, [0]).abs().max() > 0\n"
         "d = whole.grad_outputs[(-1, (1,))] - split.grad_outputs[(-1, (1,))]\n"
         "assert d.abs().max() == 0\n"
         "print('split backward matches')\n",
         (dir.path() / "out.py").string()},
        dir);
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("split backward matches"), std::string::npos) << run.out << run.err;
}

// Messages started on the communication stream are written where they started, as the program's
// sends and receives of what they carry (each rank's gradient to rank 0, rank 0's updated weight
// back): the program trains what one process trains.
TEST(ExportedPrograms, AMessageOnTheCommunicationStreamIsSentAndReceived)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string file = dir.write("started.py", R"(from lib import Model


async def started(model: Model) -> Model:
    ws = [model.load_weights(layer) for layer in range(model.LAYERS)]
    a = [model.get_activation([model.rank])]
    for layer in range(model.LAYERS):
        a.append(model.forward(layer, a[layer], ws[layer][0]))
    g = model.loss(a[-1])
    grads = {}
    for layer in reversed(range(model.LAYERS)):
        grads[layer], g = model.backward(layer, a[layer], g, ws[layer][0])
    for layer in range(model.LAYERS):  # rank 0 sums and updates; the others get its weight
        if model.rank == 0:
            coming = [model.receive_start(r) for r in range(1, model.RANKS)]
            total = grads[layer]
            for handle in coming:
                total = total + await handle
            w, o = model.update(layer, total, *ws[layer])
            for handle in [model.pass_to_start(r, w) for r in range(1, model.RANKS)]:
                await handle
        else:
            await model.pass_to_start(0, grads[layer])
            w = await model.receive_start(0)
        model.set_final_weight(layer, w)
    return model
)");
    const ProcessResult exported = exportProgram(file, "started", 2, dir);
    ASSERT_EQ(exported.exitCode, 0) << exported.out << exported.err;
    std::ifstream in(dir.path() / "out.py");
    const std::string program{std::istreambuf_iterator<char>(in), {}};
    EXPECT_NE(program.find("r.send(\"weight_grad\", 0, [1], total=1, shards=[0], to=0)"),
              std::string::npos)
        << program;
    EXPECT_NE(program.find("r.receive(\"weight_grad\", 0, [1], total=1, shards=[0], source=1)"),
              std::string::npos)
        << program;
    const ProcessResult run = torchrun(dir);
    EXPECT_TRUE(std::regex_search(run.out, kMatch)) << run.out << run.err;
    EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
}

// Debian's PyTorch has no NCCL: asked for it, the program says so before it joins any group
// (it was torch's "Distributed package doesn't have NCCL built in" traceback).
TEST(ExportedPrograms, NcclWithoutItSaysSoBeforeStarting)
{
    REQUIRE_TORCH();
    if (std::system("/usr/bin/python3 -c 'import sys, torch.distributed as d; "
                    "sys.exit(d.is_nccl_available())'") != 0)
        GTEST_SKIP() << "this PyTorch has NCCL";
    TempDir dir;
    const ProcessResult exported =
        runCli({{"export", kSource + "/lessons/20-grad_accum/solution.py", "--function",
                 "grad_accum", "--ranks", "1", "--layers", "2", "--batches", "4", "--torch",
                 (dir.path() / "out.py").string()},
                "",
                {}},
               dir);
    ASSERT_EQ(exported.exitCode, 0) << exported.out << exported.err;
    const ProcessResult run = testsupport::runProgram(
        "/usr/bin/env",
        {"RANK=0", "WORLD_SIZE=1", "LOCAL_RANK=0", "MASTER_ADDR=127.0.0.1", "MASTER_PORT=1",
         "/usr/bin/python3", (dir.path() / "out.py").string(), "--backend", "nccl"},
        dir);
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_NE(run.err.find("--backend nccl needs a PyTorch built with CUDA and NCCL, and a GPU; "
                           "this one has no NCCL"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(run.err.find("Traceback"), std::string::npos) << run.err;
}

} // namespace
} // namespace rankstep::hostile
