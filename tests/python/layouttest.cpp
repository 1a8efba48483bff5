// SPDX-License-Identifier: MIT
// A run's layout from Python (docs/simulation.md, "Layouts"): the degrees, a rank's coordinates,
// its groups as collectives' `group=`, and the command line's options and refusals.
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace rankstep::pythontests {
namespace {

// Every rank prints its coordinates and its groups, then all-reduces a gradient over its tensor
// group: a group the layout names works as a collective's group.
const std::string kLayoutProbe = R"py(
async def probe(model):
    if model.rank == 5:
        print(model.TENSOR, model.CONTEXT, model.PIPELINE, model.DATA, model.EXPERT)
        print(sorted(model.coords.items()))
        print(model.group("tensor"), model.group("pipeline"), model.group("data"),
              model.group("expert"))
    w, o = model.load_weights(0)
    g = model.fake_grad(0, [model.rank])
    g = await model.allreduce(g, 0, group=model.group("tensor"))
    print(model.rank, sorted(g.batches))
)py";

python::RunRequest layoutRequest(const core::Layout &layout)
{
    python::RunRequest request = makeRequest(kLayoutProbe, "probe", 8, 2, 8);
    request.config.layout = layout;
    return request;
}

TEST(LayoutInPython, ARankKnowsItsDegreesCoordinatesAndGroups)
{
    python::Runtime runtime;
    // 8 ranks: tensor 2 x pipeline 2, data 2, one expert group of 2.
    const python::RunOutcome outcome = runtime.run(layoutRequest(core::Layout{2, 1, 2, 2}));
    ASSERT_FALSE(outcome.trace.error) << outcome.trace.error->message;
    // Rank 5 = 1 + 2 * (0 + 2 * 1): tensor 1, pipeline 0, data 1.
    EXPECT_NE(outcome.output.find("2 1 2 2 2\n"
                                  "[('context', 0), ('data', 1), ('expert', 1), ('pipeline', 0), "
                                  "('tensor', 1)]\n"
                                  "[4, 5] [5, 7] [1, 5] [1, 5]\n"),
              std::string::npos)
        << outcome.output;
    // The tensor group {4, 5} sums the gradients of batches 4 and 5.
    EXPECT_NE(outcome.output.find("5 [4, 5]\n"), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find("0 [0, 1]\n"), std::string::npos) << outcome.output;
}

TEST(LayoutInPython, APlainRunIsAllData)
{
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(layoutRequest(core::Layout{}));
    ASSERT_FALSE(outcome.trace.error) << outcome.trace.error->message;
    EXPECT_NE(outcome.output.find("1 1 1 8 1\n"), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find("[5] [5] [0, 1, 2, 3, 4, 5, 6, 7] [5]\n"), std::string::npos)
        << outcome.output;
}

TEST(LayoutInPython, AnUnknownAxisIsNamedInASentence)
{
    python::Runtime runtime;
    const std::string source = R"py(
def bad(model):
    model.group("tensors")  # bad axis
)py";
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "bad", 2, 1, 2));
    EXPECT_TRUE(hasError(outcome.trace, core::ErrorKind::Exception, 0, lineOf(source, "bad axis"),
                         "the axes are 'tensor', 'context', 'pipeline', 'data' and 'expert'"));
}

TEST(LayoutOnTheCommandLine, TheRunnerGetsTheLayoutAndTheTraceKeepsIt)
{
    TempDir dir;
    const std::string file = (dir.path() / "probe.py").string();
    std::ofstream(file) << kLayoutProbe;
    const std::string json = (dir.path() / "probe.json").string();
    const CliResult run =
        runCli({"run", file, "--ranks", "8", "--layers", "2", "--batches", "8", "--tensor", "2",
                "--pipeline", "2", "--expert", "2", "--json", json},
               dir);
    EXPECT_NE(run.out.find("[4, 5] [5, 7] [1, 5] [1, 5]"), std::string::npos) << run.out << run.err;
    std::ifstream in(json);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    EXPECT_NE(
        text.find("\"layout\": {\"tensor\": 2, \"context\": 1, \"pipeline\": 2, \"expert\": 2}"),
        std::string::npos)
        << text.substr(0, 600);
}

TEST(LayoutOnTheCommandLine, ALayoutTheRanksCannotFillIsBadUsage)
{
    TempDir dir;
    const std::string file = (dir.path() / "probe.py").string();
    std::ofstream(file) << kLayoutProbe;
    const CliResult run =
        runCli({"run", file, "--ranks", "8", "--tensor", "3", "--pipeline", "2"}, dir);
    EXPECT_EQ(run.exitCode, 64);
    EXPECT_NE(
        run.err.find("--tensor 3 x --pipeline 2 need a multiple of 6 ranks, and 8 is not one"),
        std::string::npos)
        << run.err;
}

} // namespace
} // namespace rankstep::pythontests
