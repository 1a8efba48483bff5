// SPDX-License-Identifier: MIT
// docs/simulation.md's extensions and conveniences as seen from Python: double-counting warnings,
// receive(source), collectives over groups, and the capture of what the learner prints.
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace rankstep::pythontests {
namespace {

const core::Event *findEvent(const core::Trace &trace, int rank, core::OpKind op, int nth = 0)
{
    for (const core::Event &event : trace.events)
        if (event.rank == rank && event.op == op && nth-- == 0)
            return &event;
    return nullptr;
}

// The printed lines in sorted order: ranks interleave in the scheduler's order, not by number.
std::vector<std::string> sortedLines(const std::string &text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    std::sort(lines.begin(), lines.end());
    return lines;
}

TEST(PythonRuntime, WarnsWhenASumOfWeightGradsCountsABatchTwice)
{
    const std::string source = R"py(
def puzzle(model):
    first = model.fake_grad(0, [0, 1])
    fine = first + model.fake_grad(0, [2])
    twice = first + model.fake_grad(0, [1, 2])  # overlap-here
    print(sorted(fine.batches), sorted(twice.batches))
)py";
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "puzzle", 2, 2, 4));
    const core::Trace &trace = outcome.trace;

    ASSERT_FALSE(trace.error.has_value()) << trace.error->message;
    // The sum still covers the union; batch 1 is in both, once per rank.
    EXPECT_EQ(outcome.output, "[0, 1, 2] [0, 1, 2]\n[0, 1, 2] [0, 1, 2]\n");
    ASSERT_EQ(trace.warnings.size(), 2u);
    for (int r = 0; r < 2; ++r) {
        const core::Warning &warning = trace.warnings[std::size_t(r)];
        EXPECT_EQ(warning.rank, r);
        EXPECT_EQ(warning.line, lineOf(source, "# overlap-here"));
        EXPECT_NE(warning.message.find("batch 1"), std::string::npos) << warning.message;
        EXPECT_NE(warning.message.find("twice"), std::string::npos) << warning.message;
    }
}

TEST(PythonRuntime, ReceiveFromASourceSkipsOlderMessagesOfOthers)
{
    // Rank 1 runs before rank 2, so its message is the oldest one waiting for rank 0.
    const std::string source = R"py(
async def puzzle(model):
    if model.rank == 0:
        print("first", await model.receive(2))  # receive-two
        print("then", await model.receive())
    else:
        await model.pass_to(0, "from " + str(model.rank))
)py";
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "puzzle", 3, 2, 4));
    const core::Trace &trace = outcome.trace;

    ASSERT_FALSE(trace.error.has_value()) << trace.error->message;
    EXPECT_EQ(outcome.output, "first from 2\nthen from 1\n");
    const core::Event *receive = findEvent(trace, 0, core::OpKind::Receive);
    ASSERT_NE(receive, nullptr);
    EXPECT_EQ(receive->peer, 2);
    EXPECT_EQ(receive->line, lineOf(source, "# receive-two"));
    // Both senders passed at clock 0 (0.2 each), so each receive starts at 0.2 at the earliest.
    EXPECT_EQ(receive->start.toString(), "0.2");
    const core::Event *second = findEvent(trace, 0, core::OpKind::Receive, 1);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(second->peer, 1);
    EXPECT_EQ(second->start.toString(), "0.4");
}

TEST(PythonRuntime, GroupsOfTwoAllreduceIndependently)
{
    // Rank r forwards r + 1 batches, so it reaches the allreduce at clock r + 1.
    const std::string source = R"py(
async def puzzle(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    weights[0], opt_states[0] = model.load_weights(0)
    activations[0] = model.get_activation(range(model.rank + 1))
    activations[1] = model.forward(0, activations[0], weights[0])
    group = [0, 1] if model.rank < 2 else [2, 3]
    total = await model.allreduce(model.fake_grad(0, [model.rank]), 0, group=group)  # reduce-here
    print(model.rank, sorted(total.batches))
)py";
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "puzzle", 4, 2, 4));
    const core::Trace &trace = outcome.trace;

    ASSERT_FALSE(trace.error.has_value()) << trace.error->message;
    // Each group sums its own two gradients.
    EXPECT_EQ(sortedLines(outcome.output),
              (std::vector<std::string>{"0 [0, 1]", "1 [0, 1]", "2 [2, 3]", "3 [2, 3]"}));
    // The clock of a group is the largest of its members: 2 for ranks 0, 1 and 4 for 2, 3.
    const char *expectedStart[] = {"2", "2", "4", "4"};
    for (int r = 0; r < 4; ++r) {
        const core::Event *reduce = findEvent(trace, r, core::OpKind::AllReduce);
        ASSERT_NE(reduce, nullptr) << "rank " << r;
        EXPECT_EQ(reduce->start.toString(), expectedStart[r]) << "rank " << r;
        EXPECT_EQ(reduce->duration.toString(), "0.3");
        EXPECT_EQ(reduce->line, lineOf(source, "# reduce-here"));
    }
    EXPECT_EQ(trace.figures.endTime.toString(), "4.3");
}

TEST(PythonRuntime, AGroupOfOtherIntegersThanIntsInAListIsTakenAsBefore)
{
    // A list of plain ints is read directly; a bool in it, a tuple or a range take the general
    // conversion, as before, and name the same groups.
    const std::string source = R"py(
async def puzzle(model):
    group = [0, True] if model.rank == 0 else range(2) if model.rank == 1 else (3, 2)
    total = await model.allreduce(model.fake_grad(0, [model.rank]), 0, group=group)
    print(model.rank, sorted(total.batches))
)py";
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "puzzle", 4, 1, 4));

    ASSERT_FALSE(outcome.trace.error.has_value()) << outcome.trace.error->message;
    EXPECT_EQ(sortedLines(outcome.output),
              (std::vector<std::string>{"0 [0, 1]", "1 [0, 1]", "2 [2, 3]", "3 [2, 3]"}));
}

TEST(PythonRuntime, AGroupListChangedInPlaceNamesItsNewMembers)
{
    // The same list object, its members replaced between two collectives: the second names the
    // new ones (rank 0 first with rank 1, then with rank 2; a list that was read once is not
    // trusted to hold what it held).
    const std::string source = R"py(
async def puzzle(model):
    pairs = {0: ([0, 1], [0, 2]), 1: ([0, 1], [1, 3]), 2: ([2, 3], [0, 2]), 3: ([2, 3], [1, 3])}
    first, second = pairs[model.rank]
    group = list(first)
    one = await model.allreduce(model.fake_grad(0, [model.rank]), 0, group=group)
    group[:] = second
    two = await model.allreduce(model.fake_grad(1, [model.rank]), 1, group=group)
    print(model.rank, sorted(one.batches), sorted(two.batches))
)py";
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "puzzle", 4, 2, 4));

    ASSERT_FALSE(outcome.trace.error.has_value()) << outcome.trace.error->message;
    EXPECT_EQ(sortedLines(outcome.output),
              (std::vector<std::string>{"0 [0, 1] [0, 2]", "1 [0, 1] [1, 3]", "2 [2, 3] [0, 2]",
                                        "3 [2, 3] [1, 3]"}));
}

TEST(PythonRuntime, ScatterreduceOverAGroupShardsByPositionInTheGroup)
{
    const std::string source = R"py(
async def puzzle(model):
    group = [1, 3] if model.rank % 2 else [0, 2]
    part = await model.scatterreduce(model.fake_grad(0, [model.rank]), 0, group=group)
    print(model.rank, sorted(part.batches), sorted(part.shards), part.total)
)py";
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "puzzle", 4, 1, 4));

    ASSERT_FALSE(outcome.trace.error.has_value()) << outcome.trace.error->message;
    // Shard index = position in the group, total = the group's size.
    EXPECT_EQ(sortedLines(outcome.output),
              (std::vector<std::string>{"0 [0, 2] [0] 2", "1 [1, 3] [0] 2", "2 [0, 2] [1] 2",
                                        "3 [1, 3] [1] 2"}));
}

TEST(PythonRuntime, CapturesWhatTheLearnerPrintsInRankOrder)
{
    const std::string source = R"py(
import sys

print("loading")


def puzzle(model):
    print("hello from", model.rank)
    print("to stderr", model.rank, file=sys.stderr)
)py";
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "puzzle", 2, 2, 4));

    ASSERT_FALSE(outcome.trace.error.has_value());
    EXPECT_EQ(outcome.output, "loading\nhello from 0\nto stderr 0\nhello from 1\nto stderr 1\n");
    // The capture is per run: a second run starts empty.
    const python::RunOutcome again =
        runtime.run(makeRequest("def puzzle(model):\n    pass\n", "puzzle", 1, 1, 1));
    EXPECT_EQ(again.output, "");
}

TEST(PythonRuntime, NamesTheFunctionsAFileDefinesWhenTheOneAskedForIsMissing)
{
    const std::string source =
        "def first(model):\n    pass\n\n\nasync def second(model):\n    pass\n";
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(source, "third", 1, 1, 1)).trace;

    ASSERT_TRUE(trace.error.has_value());
    EXPECT_EQ(trace.error->kind, core::ErrorKind::Usage);
    EXPECT_NE(trace.error->message.find("no function named 'third'"), std::string::npos);
    EXPECT_NE(trace.error->message.find("first, second"), std::string::npos)
        << trace.error->message;
}

} // namespace
} // namespace rankstep::pythontests
