// SPDX-License-Identifier: MIT
// model.alltoall from Python (docs/simulation.md, "Expert parallelism"): the pieces go out by the
// group's order, the answer is what every rank sent this one, and traces keep the event.
#include "pythontestsupport.h"

#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::pythontests {
namespace {

using core::ErrorKind;
using core::OpKind;

// Two ranks, two batches each: rank r keeps the batch for itself and sends the other to its
// neighbour, then sends every token back where it came from.
const std::string kExchange = R"py(
async def exchange(model):
    mine = [2 * model.rank, 2 * model.rank + 1]
    pieces = [model.get_activation([b]) for b in mine]
    got = await model.alltoall(pieces, 0, group=model.group("data"))
    print(model.rank, sorted(got.batches))
    back = [model.get_activation([b]) for b in sorted(got.batches)]
    home = await model.alltoall(back, 0, group=[0, 1])
    print(model.rank, sorted(home.batches))
)py";

TEST(PythonAllToAll, SendsEachPieceToItsRankAndBack)
{
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(kExchange, "exchange", 2, 1, 4));
    ASSERT_EQ(outcome.trace.status, core::RunStatus::Ok); // it trains nothing: no check to pass
    // Rank 1 completes the first exchange and goes on; rank 0 completes the second.
    EXPECT_EQ(outcome.output, "1 [1, 3]\n0 [0, 2]\n0 [0, 1]\n1 [2, 3]\n");
    int events = 0;
    for (const core::Event &event : outcome.trace.events)
        events += event.op == OpKind::AllToAll ? 1 : 0;
    EXPECT_EQ(events, 4);
}

TEST(PythonAllToAll, AskForAListOfPieces)
{
    std::string source = kExchange;
    const std::string call = "await model.alltoall(pieces, 0, group=model.group(\"data\"))";
    source.replace(source.find(call), call.size(),
                   "await model.alltoall(pieces[0], 0)  # not-a-list");
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(source, "exchange", 2, 1, 4)).trace;
    ASSERT_TRUE(trace.error);
    EXPECT_NE(trace.error->message.find("pieces is a list with one activation (or None) for each "
                                        "rank of the group"),
              std::string::npos)
        << trace.error->message;
}

TEST(PythonAllToAll, TracesKeepTheEventThroughJsonAndBinary)
{
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(kExchange, "exchange", 2, 1, 4)).trace;
    ASSERT_EQ(trace.status, core::RunStatus::Ok);
    const std::string json = io::traceToJson(trace);
    EXPECT_NE(json.find("\"op\": \"alltoall\""), std::string::npos);
    const auto fromJson = io::traceFromJson(json);
    ASSERT_TRUE(fromJson) << fromJson.error().message;
    EXPECT_EQ(io::traceToJson(*fromJson), json);
    const auto fromBinary = io::traceFromBinary(io::traceToBinary(trace));
    ASSERT_TRUE(fromBinary) << fromBinary.error().message;
    EXPECT_EQ(io::traceToJson(*fromBinary), json);
}

// Two ranks holding one expert each: rank 0's tokens 0 and 1 go to experts 0 and 1 and come
// back after the expert's forward.
const std::string kExperts = R"py(
async def experts(model):
    w, o = model.load_weights(0, expert=model.coords["expert"])
    model.storage()[0][0] = w  # in the trace's storage changes
    print(model.rank, w.expert, [model.expert_of(b) for b in range(model.BATCHES)])
    mine = model.get_activation([2 * model.rank, 2 * model.rank + 1])
    pieces = [mine.pick([b for b in mine.batches if model.expert_of(b) == e]) for e in range(2)]
    routed = await model.alltoall(pieces, 0, group=model.group("expert"))
    out = model.forward(0, routed, w)  # expert-forward
    print(model.rank, sorted(out.batches))
)py";

python::RunRequest expertRequest(const std::string &source, int skew = 0)
{
    python::RunRequest request = makeRequest(source, "experts", 2, 1, 4);
    request.config.layout.expert = 2;
    request.config.cost.routerSkew = skew;
    return request;
}

TEST(PythonExperts, EachRankComputesTheTokensOfItsExpert)
{
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(expertRequest(kExperts));
    ASSERT_TRUE(outcome.trace.status == core::RunStatus::Ok)
        << (outcome.trace.error ? outcome.trace.error->message : "");
    EXPECT_EQ(outcome.output, "0 0 [0, 1, 0, 1]\n1 1 [0, 1, 0, 1]\n1 [1, 3]\n0 [0, 2]\n");
}

TEST(PythonExperts, AForwardOnTokensOfAnotherExpertIsRefused)
{
    std::string source = kExperts;
    const std::string call = "out = model.forward(0, routed, w)";
    source.replace(source.find(call), call.size(), "out = model.forward(0, mine, w)");
    python::Runtime runtime;
    const core::Trace trace = runtime.run(expertRequest(source)).trace;
    // Rank 1 completes the alltoall and computes first: its own batch 2 is expert 0's.
    EXPECT_TRUE(hasError(trace, ErrorKind::Check, 1, lineOf(source, "# expert-forward"),
                         "forward(layer 0): the router sends batch 2 to expert 0, but this "
                         "weight is expert 1's"));
}

TEST(PythonExperts, PickRefusesABatchTheObjectDoesNotHold)
{
    std::string source = kExperts;
    const std::string call = "mine.pick([b for b in mine.batches if model.expert_of(b) == e])";
    source.replace(source.find(call), call.size(), "mine.pick([7])");
    python::Runtime runtime;
    const core::Trace trace = runtime.run(expertRequest(source)).trace;
    ASSERT_TRUE(trace.error);
    EXPECT_NE(trace.error->message.find("pick(batches): this activation holds batches"),
              std::string::npos)
        << trace.error->message;
}

TEST(PythonExperts, TracesKeepExpertsAndTheRoutersSkew)
{
    python::Runtime runtime;
    const core::Trace trace = runtime.run(expertRequest(kExperts, 1)).trace;
    ASSERT_EQ(trace.status, core::RunStatus::Ok) << (trace.error ? trace.error->message : "");
    const std::string json = io::traceToJson(trace);
    EXPECT_NE(json.find("\"expert\": 1"), std::string::npos);
    EXPECT_NE(json.find("\"router_skew\": 1"), std::string::npos);
    const auto fromJson = io::traceFromJson(json);
    ASSERT_TRUE(fromJson) << fromJson.error().message;
    EXPECT_EQ(fromJson->config.cost.routerSkew, 1);
    EXPECT_EQ(io::traceToJson(*fromJson), json);
    const auto fromBinary = io::traceFromBinary(io::traceToBinary(trace));
    ASSERT_TRUE(fromBinary) << fromBinary.error().message;
    EXPECT_EQ(fromBinary->config.cost.routerSkew, 1);
    EXPECT_EQ(io::traceToJson(*fromBinary), json);
}

// The lesson's solution under an uneven router: expert 0 gets 3 of every 4 tokens (skew 2), so
// rank 0 computes longer and rank 1 waits for it in the next alltoall; evenly neither waits.
TEST(PythonExperts, AnUnevenRouterShowsAsIdleTimeOfTheOtherExpertsRank)
{
    const std::string solution = readSourceFile("lessons/99-expert_parallel/solution.py");
    python::Runtime runtime;
    python::RunRequest even = makeRequest(solution, "expert_parallel", 2, 2, 4);
    even.config.layout.expert = 2;
    const core::Trace evenly = runtime.run(even).trace;
    ASSERT_TRUE(isCorrect(evenly));
    ASSERT_EQ(evenly.figures.ranks.size(), 2u);
    EXPECT_EQ(evenly.figures.ranks[1].idle, core::SimTime());

    python::RunRequest skewed = even;
    skewed.config.cost.routerSkew = 2;
    const core::Trace unevenly = runtime.run(skewed).trace;
    ASSERT_TRUE(isCorrect(unevenly));
    ASSERT_EQ(unevenly.figures.ranks.size(), 2u);
    // Expert 0 computes 3 tokens forward and backward where expert 1 computes 1: 4 steps idle.
    EXPECT_EQ(unevenly.figures.ranks[0].idle, core::SimTime());
    EXPECT_EQ(unevenly.figures.ranks[1].idle, core::SimTime::steps(4));
    EXPECT_GT(unevenly.figures.endTime, evenly.figures.endTime);
}

// alltoall_start (docs/simulation.md, "Overlapped communication"): two ranks, one expert each,
// eight batches. Each rank dispatches its first two tokens and computes the next two's dense
// layer while they travel; the blocking form waits for them first.
const std::string kOverlappedDispatch = R"py(
async def overlap(model):
    w0, o0 = model.load_weights(0)
    w1, o1 = model.load_weights(1, expert=model.coords["expert"])
    first = model.get_activation([4 * model.rank, 4 * model.rank + 1])
    second = model.get_activation([4 * model.rank + 2, 4 * model.rank + 3])

    def to_experts(t):
        return [t.pick([b for b in t.batches if model.expert_of(b) == e]) for e in range(2)]

    a = model.forward(0, first, w0)
    h = model.alltoall_start(to_experts(a), 1, group=model.group("expert"))
    b = model.forward(0, second, w0)  # beside-the-dispatch
    routed = await h
    out = model.forward(1, routed, w1)
    print(model.rank, sorted(out.batches), h)
)py";

const std::string kBlockingDispatch = [] {
    std::string source = kOverlappedDispatch;
    const std::string start = "h = model.alltoall_start(";
    source.replace(source.find(start), start.size(), "routed = await model.alltoall(");
    const std::string wait = "    routed = await h\n";
    source.erase(source.find(wait), wait.size());
    const std::string print = ", h)";
    source.replace(source.find(print), print.size(), ")");
    return source;
}();

python::RunRequest overlapRequest(const std::string &source)
{
    python::RunRequest request = makeRequest(source, "overlap", 2, 2, 8);
    request.config.layout.expert = 2;
    return request;
}

TEST(PythonAllToAllStart, GivesWhatTheBlockingFormGivesAndOverlapsTheDispatchWithCompute)
{
    python::Runtime runtime;
    const python::RunOutcome overlapped = runtime.run(overlapRequest(kOverlappedDispatch));
    ASSERT_EQ(overlapped.trace.status, core::RunStatus::Ok)
        << (overlapped.trace.error ? overlapped.trace.error->message : "");
    const python::RunOutcome blocking = runtime.run(overlapRequest(kBlockingDispatch));
    ASSERT_EQ(blocking.trace.status, core::RunStatus::Ok)
        << (blocking.trace.error ? blocking.trace.error->message : "");
    // Rank 1 completes the all-to-all and so computes first, in both.
    EXPECT_EQ(blocking.output, "1 [1, 5]\n0 [0, 4]\n");
    EXPECT_EQ(overlapped.output,
              "1 [1, 5] <rank 1's alltoall(layer 1), awaited>\n"
              "0 [0, 4] <rank 0's alltoall(layer 1), awaited>\n");
    // One event per rank on its communication stream, none among the compute's.
    ASSERT_EQ(overlapped.trace.overlapped.size(), 2U);
    for (const core::Event &event : overlapped.trace.events)
        EXPECT_NE(event.op, OpKind::AllToAll) << "rank " << event.rank;
    const int beside = lineOf(kOverlappedDispatch, "# beside-the-dispatch");
    for (const core::Event &dispatch : overlapped.trace.overlapped) {
        EXPECT_EQ(dispatch.op, OpKind::AllToAll);
        EXPECT_EQ(dispatch.layer, 1);
        // The dense forward of the rank's next tokens runs while its tokens travel.
        bool computedMeanwhile = false;
        for (const core::Event &event : overlapped.trace.events)
            computedMeanwhile |= event.rank == dispatch.rank && event.line == beside &&
                                 event.start < dispatch.end() && dispatch.start < event.end();
        EXPECT_TRUE(computedMeanwhile) << "rank " << dispatch.rank;
    }
    EXPECT_LT(overlapped.trace.figures.endTime, blocking.trace.figures.endTime);
}

TEST(PythonAllToAllStart, TracesKeepTheStartedAlltoallThroughJsonAndBinary)
{
    python::Runtime runtime;
    const core::Trace trace = runtime.run(overlapRequest(kOverlappedDispatch)).trace;
    ASSERT_EQ(trace.status, core::RunStatus::Ok);
    const std::string json = io::traceToJson(trace);
    const auto fromJson = io::traceFromJson(json);
    ASSERT_TRUE(fromJson) << fromJson.error().message;
    ASSERT_EQ(fromJson->overlapped.size(), 2U);
    EXPECT_EQ(fromJson->overlapped.front().op, OpKind::AllToAll);
    EXPECT_EQ(io::traceToJson(*fromJson), json);
    const auto fromBinary = io::traceFromBinary(io::traceToBinary(trace));
    ASSERT_TRUE(fromBinary) << fromBinary.error().message;
    EXPECT_EQ(io::traceToJson(*fromBinary), json);
}

TEST(PythonAllToAllStart, AHandleAwaitedTwiceIsRefusedWithTheStartFormsName)
{
    std::string source = kOverlappedDispatch;
    const std::string wait = "routed = await h\n";
    source.replace(source.find(wait), wait.size(),
                   "routed = await h\n    again = await h  # twice\n");
    python::Runtime runtime;
    const core::Trace trace = runtime.run(overlapRequest(source)).trace;
    ASSERT_TRUE(trace.error);
    EXPECT_EQ(trace.error->line, lineOf(source, "# twice"));
    EXPECT_NE(trace.error->message.find("alltoall_start(...) is awaited once"), std::string::npos)
        << trace.error->message;
}

TEST(PythonAllToAllStart, AsksForAListOfPiecesByItsOwnName)
{
    std::string source = kOverlappedDispatch;
    const std::string call = "model.alltoall_start(to_experts(a),";
    source.replace(source.find(call), call.size(), "model.alltoall_start(a,");
    python::Runtime runtime;
    const core::Trace trace = runtime.run(overlapRequest(source)).trace;
    ASSERT_TRUE(trace.error);
    EXPECT_NE(trace.error->message.find("alltoall_start(pieces, layer, group=None): pieces is a "
                                        "list with one activation (or None)"),
              std::string::npos)
        << trace.error->message;
}

} // namespace
} // namespace rankstep::pythontests
