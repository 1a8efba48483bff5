// SPDX-License-Identifier: MIT
// Why a rank waits and what sets the end time, on the reference puzzles and on a hang.
#include "core/explain/explainjson.h"
#include "core/explain/memoryexplain.h"
#include "core/explain/waitexplain.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <set>
#include <string>

namespace rankstep::explain {
namespace {

using testing::referencePuzzles;

core::Trace run(const testing::PuzzleCase &puzzle)
{
    return testing::runReference(puzzle.name);
}

// A chain without gaps from t 0 to the end time: each event starts as the one before ends.
TEST(CriticalPath, RunsWithoutAGapFromZeroToTheEndTimeInEveryPuzzle)
{
    for (const auto &puzzle : referencePuzzles()) {
        const core::Trace trace = run(puzzle);
        const auto path = criticalPath(trace);
        ASSERT_FALSE(path.empty()) << puzzle.name;
        EXPECT_EQ(trace.events[path.front()].start, core::SimTime()) << puzzle.name;
        EXPECT_EQ(trace.events[path.back()].end(), trace.figures.endTime) << puzzle.name;
        for (std::size_t i = 1; i < path.size(); ++i)
            ASSERT_EQ(trace.events[path[i]].start, trace.events[path[i - 1]].end())
                << puzzle.name << " step " << i;
    }
}

TEST(CriticalPath, GpipesEndsAtThirtyThreePointEightAndCrossesRanks)
{
    for (const auto &puzzle : referencePuzzles()) {
        if (puzzle.name != "gpipe")
            continue;
        const core::Trace trace = run(puzzle);
        EXPECT_EQ(trace.figures.endTime.toString(), "33.8");
        for (const auto &rank : trace.figures.ranks)
            EXPECT_EQ((rank.compute + rank.idle + rank.communication).toString(), "33.8");
        const auto path = criticalPath(trace);
        std::set<int> ranks;
        for (const std::size_t event : path)
            ranks.insert(trace.events[event].rank);
        EXPECT_EQ(ranks.size(), 4U) << "the pipeline's path passes through every stage";
    }
}

// Every idle gap is explained by an event that ended exactly when it did.
TEST(Waits, EachWaitEndsWhenTheFirstEventOfItsChainEnds)
{
    for (const auto &puzzle : referencePuzzles()) {
        const core::Trace trace = run(puzzle);
        for (const Wait &wait : waits(trace)) {
            ASSERT_FALSE(wait.chain.empty()) << puzzle.name << ": " << describeWait(trace, wait);
            EXPECT_EQ(trace.events[wait.chain.front().event].end(), wait.to) << puzzle.name;
            EXPECT_NE(wait.chain.front().cause, Cause::SameRank) << puzzle.name;
            EXPECT_EQ(trace.events[wait.event].start, wait.to);
        }
    }
}

TEST(Waits, APipelineReceiveWaitsForTheSendersPassTo)
{
    for (const auto &puzzle : referencePuzzles()) {
        if (puzzle.name != "gpipe")
            continue;
        const core::Trace trace = run(puzzle);
        bool found = false;
        for (const Wait &wait : waits(trace)) {
            if (trace.events[wait.event].op != core::OpKind::Receive || wait.rank != 3)
                continue;
            const std::string sentence = describeWait(trace, wait);
            EXPECT_EQ(sentence.rfind("Rank 3 waited ", 0), 0U) << sentence;
            EXPECT_NE(sentence.find("in receive from rank 2 for rank 2's pass_to to rank 3"),
                      std::string::npos)
                << sentence;
            found = true;
            break;
        }
        EXPECT_TRUE(found);
    }
}

core::RankTask bothReceiveFirst(core::Model &m)
{
    m.forward(0, m.getActivation(core::IndexSet{0}), m.loadWeights(0).first);
    const core::Object got = co_await m.receive();
    co_await m.passTo(1 - m.rank, got);
}

// A hang is explained up to where it stopped.
// A run under a real-scale cost model (--cost llama3-405b) has ticks of a microseconds, its
// timeline's axis in ms: its explanation says its times in ms, as `explain` prints them. It said
// "waited 670.153 (t 0 to 670.153)", a number without a unit. The puzzle's steps stay bare.
TEST(Waits, ARealScaleRunSaysItsTimesInMilliseconds)
{
    const core::Trace steps = testing::runReference("gpipe");
    core::Trace real = steps;
    real.config.cost.network = core::Network{};
    const std::vector<Wait> found = waits(real);
    ASSERT_FALSE(found.empty());
    for (const Wait &wait : found) {
        const std::string rank = "Rank " + std::to_string(wait.rank) + " waited ";
        const std::string spanSteps = (wait.to - wait.from).toString() + " (t " +
                                      wait.from.toString() + " to " + wait.to.toString() + ")";
        const std::string spanMs = (wait.to - wait.from).toString() + " ms (t " +
                                   wait.from.toString() + " ms to " + wait.to.toString() + " ms)";
        EXPECT_EQ(describeWait(steps, wait).rfind(rank + spanSteps, 0), 0U)
            << describeWait(steps, wait);
        const std::string said = describeWait(real, wait);
        EXPECT_EQ(said.rfind(rank + spanMs, 0), 0U) << said;
    }
    const auto peak = peakMemory(real);
    ASSERT_TRUE(peak.has_value());
    EXPECT_NE(describeMoment(*peak).find(" at t " + peak->time.toString() + " ms: "),
              std::string::npos)
        << describeMoment(*peak);
    // The command line's text: the table's heading, the critical path's ends.
    const std::string text = explainText(real, {});
    const std::string end = real.figures.endTime.toString();
    EXPECT_NE(text.find("(in ms; each sums to the end time, " + end + " ms)"), std::string::npos)
        << text;
    EXPECT_NE(text.find("-" + end + " ms  rank "), std::string::npos) << text;
    EXPECT_EQ(explainText(steps, {}).find(" ms"), std::string::npos);
}

TEST(Waits, AHungRunIsExplainedUpToWhereItStopped)
{
    core::RunConfig config;
    config.ranks = 2;
    config.layers = 1;
    config.batches = 1;
    const core::Trace trace = testing::runProgram(config, bothReceiveFirst);
    ASSERT_EQ(trace.status, core::RunStatus::Deadlock);
    const auto path = criticalPath(trace);
    ASSERT_EQ(path.size(), 1U);
    EXPECT_EQ(trace.events[path.front()].op, core::OpKind::Forward);
}

// A rank of the overlapped ring waits in the await of its started receive, which runs on the
// communication stream: the wait names that await, not the forward that follows it.
TEST(Waits, AWaitEndedByTheAwaitOfAStartedReceiveNamesThatAwait)
{
    core::Trace trace;
    trace.config.ranks = 2;
    const auto event = [](int rank, core::OpKind op, double start, double steps, int peer) {
        core::Event e;
        e.rank = rank;
        e.op = op;
        e.layer = op == core::OpKind::Forward ? 0 : -1;
        e.setPeer(peer);
        e.start = core::SimTime::fromTicks(std::int64_t(start * core::SimTime::kTicksPerStep));
        e.duration = core::SimTime::fromTicks(std::int64_t(steps * core::SimTime::kTicksPerStep));
        return e;
    };
    trace.events.push_back(event(1, core::OpKind::Forward, 0, 0.125, -1));
    trace.events.push_back(event(1, core::OpKind::Forward, 0.4, 0.125, -1));
    trace.overlapped.push_back(event(1, core::OpKind::Receive, 0.2, 0.2, 0));
    const std::vector<Wait> found = waits(trace);
    ASSERT_EQ(found.size(), 1U);
    ASSERT_TRUE(found[0].awaited.has_value());
    EXPECT_EQ(*found[0].awaited, 0U);
    EXPECT_EQ(describeWait(trace, found[0]),
              "Rank 1 waited 0.275 (t 0.125 to 0.4) in the await of its receive from rank 0 "
              "(started on the communication stream).");
    const auto before = waitBefore(trace, 1);
    ASSERT_TRUE(before.has_value());
    EXPECT_EQ(before->awaited, found[0].awaited);

    // A gap that no started operation ended is the compute's, as before.
    trace.overlapped.clear();
    EXPECT_FALSE(waits(trace)[0].awaited.has_value());
    EXPECT_NE(describeWait(trace, waits(trace)[0]).find("in forward of layer 0"),
              std::string::npos);
}

// The chain of a wait that an await ended goes on past the await, as a blocking wait's does: to
// the sender's started pass (when it ran, and what its rank ran before it started it), through
// its stream when the stream was busy, and through an await that the sender came from.
TEST(Waits, TheChainOfAnAwaitedReceiveFollowsTheSendersStartedPass)
{
    core::Trace trace;
    trace.config.ranks = 3;
    const auto event = [](int rank, core::OpKind op, double start, double steps, int peer,
                          std::int32_t link) {
        core::Event e;
        e.rank = rank;
        e.op = op;
        e.layer = op == core::OpKind::Forward ? 0 : -1;
        e.setPeer(peer);
        e.link = link;
        e.start = core::SimTime::fromTicks(std::int64_t(start * core::SimTime::kTicksPerStep));
        e.duration = core::SimTime::fromTicks(std::int64_t(steps * core::SimTime::kTicksPerStep));
        return e;
    };
    using core::OpKind;
    // Rank 0 computes, then passes on its stream; rank 1 receives it on its stream and awaits it.
    trace.events.push_back(event(0, OpKind::Forward, 0, 0.1, -1, -1));
    trace.events.push_back(event(1, OpKind::Forward, 0, 0.125, -1, -1));
    trace.events.push_back(event(1, OpKind::Forward, 0.5, 0.125, -1, -1));
    trace.overlapped.push_back(event(0, OpKind::PassTo, 0.1, 0.2, 1, 7));
    trace.overlapped.push_back(event(1, OpKind::Receive, 0.3, 0.2, 0, 7));
    // Rank 0's second pass waits for its stream, busy with a receive that rank 2 started at t 0.
    trace.overlapped.push_back(event(2, OpKind::PassTo, 0, 0.3, 0, 8));
    trace.overlapped.push_back(event(0, OpKind::Receive, 0.3, 0.2, 2, 8));
    trace.overlapped.push_back(event(0, OpKind::PassTo, 0.5, 0.2, 1, 9));
    trace.overlapped.push_back(event(1, OpKind::Receive, 0.7, 0.2, 0, 9));
    trace.events.push_back(event(1, OpKind::Forward, 0.9, 0.1, -1, -1));
    // Rank 0 awaits that receive (its clock at 0.5), computes and passes to rank 2, blocking.
    trace.events.push_back(event(0, OpKind::Forward, 0.5, 0.1, -1, -1));
    trace.events.push_back(event(0, OpKind::PassTo, 0.6, 0.2, 2, 11));
    trace.events.push_back(event(2, OpKind::Receive, 0.8, 0.2, 0, 11));

    std::vector<std::string> said;
    for (const Wait &wait : waits(trace))
        if (wait.rank == 1)
            said.push_back(describeWait(trace, wait));
    ASSERT_EQ(said.size(), 2U);
    EXPECT_EQ(said[0],
              "Rank 1 waited 0.375 (t 0.125 to 0.5) in the await of its receive from rank 0 "
              "(started on the communication stream), which waited for rank 0's pass_to_start to "
              "rank 1 (t 0.1 to 0.3 on its communication stream), which rank 0 started at t 0.1 "
              "after its forward of layer 0.");
    EXPECT_EQ(said[1],
              "Rank 1 waited 0.275 (t 0.625 to 0.9) in the await of its receive from rank 0 "
              "(started on the communication stream), which waited for rank 0's pass_to_start to "
              "rank 1 (t 0.5 to 0.7 on its communication stream), which waited for rank 0's "
              "receive_start from rank 2 (t 0.3 to 0.5 on its communication stream) to free the "
              "stream.");
    // Rank 0's forward at 0.5 waited in the await of its receive; its chain goes back to rank 2.
    const auto zero = waitBefore(trace, 4);
    ASSERT_TRUE(zero.has_value());
    EXPECT_EQ(describeWait(trace, *zero),
              "Rank 0 waited 0.4 (t 0.1 to 0.5) in the await of its receive from rank 2 (started "
              "on the communication stream), which waited for rank 2's pass_to_start to rank 0 "
              "(t 0 to 0.3 on its communication stream), which rank 2 started right away at t 0.");
    // A blocking wait's chain goes through an await too.
    const auto two = waitBefore(trace, 6);
    ASSERT_TRUE(two.has_value());
    EXPECT_EQ(describeWait(trace, *two),
              "Rank 2 waited 0.8 (t 0 to 0.8) in receive from rank 0 for rank 0's pass_to to rank "
              "2, which came after rank 0's forward of layer 0, which came after the await of "
              "rank 0's receive_start from rank 2 (t 0.3 to 0.5), which waited for rank 2's "
              "pass_to_start to rank 0 (t 0 to 0.3 on its communication stream), which rank 2 "
              "started right away at t 0.");
    // The chain the timeline highlights keeps to the ranks' own events: rank 0's forward that
    // came before its pass, not the pass on the stream (an index in trace.overlapped).
    const std::vector<Wait> found = waits(trace);
    ASSERT_FALSE(found.empty());
    for (const Wait &wait : found)
        for (const Link &link : wait.chain)
            EXPECT_FALSE(link.started);
    const auto first =
        std::find_if(found.begin(), found.end(), [](const Wait &wait) { return wait.rank == 1; });
    ASSERT_EQ(first->chain.size(), 1U);
    EXPECT_EQ(first->chain[0].event, 0U);
    EXPECT_EQ(first->causes.size(), 2U);
    // The critical path keeps to the ranks' own events.
    for (const std::size_t e : criticalPath(trace))
        EXPECT_LT(e, trace.events.size());
}

// The gaps alone (no chains, what the timeline draws) are the waits found with their chains,
// less the chains: on every puzzle and on random hand-made traces (ranks out of the run's count,
// events out of their rank's order, started operations whose ends some gaps end at).
void expectGapsAreTheWaitsWithoutChains(const core::Trace &trace)
{
    const std::vector<Wait> gaps = waits(trace, false);
    const std::vector<Wait> full = waits(trace, true);
    ASSERT_EQ(gaps.size(), full.size());
    for (std::size_t i = 0; i < gaps.size(); ++i) {
        EXPECT_EQ(gaps[i].rank, full[i].rank) << i;
        EXPECT_EQ(gaps[i].from, full[i].from) << i;
        EXPECT_EQ(gaps[i].to, full[i].to) << i;
        EXPECT_EQ(gaps[i].event, full[i].event) << i;
        EXPECT_EQ(gaps[i].awaited, full[i].awaited) << i;
        EXPECT_TRUE(gaps[i].chain.empty()) << i;
    }
}

TEST(Waits, TheGapsAloneAreTheWaitsLessTheirChains)
{
    for (const auto &puzzle : referencePuzzles()) {
        SCOPED_TRACE(puzzle.name);
        expectGapsAreTheWaitsWithoutChains(run(puzzle));
    }
    std::mt19937 random(1129);
    for (int round = 0; round < 40; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        core::Trace trace;
        trace.config.ranks = 1 + round % 3;
        for (int i = 0; i < 4 + round; ++i) {
            core::Event e;
            e.rank = int(random() % 5) - 1; // -1 and ranks past the count too
            // No collectives nor messages: the chains of a hand-made trace's links could go
            // round in a circle (the puzzles have them).
            e.op = random() % 2 == 0 ? core::OpKind::Forward : core::OpKind::Backward;
            e.start = core::SimTime::fromTicks(std::int64_t(random() % 8) * 250);
            e.duration = core::SimTime::fromTicks(std::int64_t(random() % 3) * 250);
            trace.events.push_back(e);
            if (random() % 3 == 0) {
                core::Event started = e;
                started.op = core::OpKind::Receive;
                started.duration = core::SimTime::fromTicks(std::int64_t(random() % 4) * 250);
                trace.overlapped.push_back(started);
            }
        }
        expectGapsAreTheWaitsWithoutChains(trace);
    }
}

bool sameLinks(const std::vector<Link> &a, const std::vector<Link> &b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Link &x, const Link &y) {
        return x.event == y.event && x.cause == y.cause && x.started == y.started;
    });
}

// One rank's waits (what the Why tab lists, without every rank's chains) are every wait of that
// rank, chains and all, in the same order: on every puzzle, for each rank and one past the count.
TEST(Waits, OneRanksWaitsAreItsWaitsAmongEveryRanks)
{
    for (const auto &puzzle : referencePuzzles()) {
        SCOPED_TRACE(puzzle.name);
        const core::Trace trace = run(puzzle);
        const std::vector<Wait> all = waits(trace);
        std::size_t listed = 0;
        for (int rank = 0; rank <= trace.config.ranks; ++rank) {
            const std::vector<Wait> mine = waitsOf(trace, rank);
            std::vector<Wait> expected;
            std::copy_if(all.begin(), all.end(), std::back_inserter(expected),
                         [rank](const Wait &wait) { return wait.rank == rank; });
            ASSERT_EQ(mine.size(), expected.size()) << "rank " << rank;
            for (std::size_t i = 0; i < mine.size(); ++i) {
                EXPECT_EQ(mine[i].event, expected[i].event) << rank << " " << i;
                EXPECT_EQ(mine[i].from, expected[i].from) << rank << " " << i;
                EXPECT_EQ(mine[i].to, expected[i].to) << rank << " " << i;
                EXPECT_EQ(mine[i].awaited, expected[i].awaited) << rank << " " << i;
                EXPECT_TRUE(sameLinks(mine[i].causes, expected[i].causes)) << rank << " " << i;
                EXPECT_TRUE(sameLinks(mine[i].chain, expected[i].chain)) << rank << " " << i;
            }
            listed += mine.size();
        }
        EXPECT_EQ(listed, all.size());
    }
}

// A trace made by hand (a file opened in the app) may link its events in a circle, which no run
// does: two ranks each receive, at the same moment, what the other sent after its receive. Each
// wait's chain and the critical path end where a link comes round again, instead of growing until
// memory runs out (the app asks for a wait's chain when the pointer rests on a gap).
TEST(Waits, ATraceWhoseLinksGoRoundInACircleEndsEachChain)
{
    core::Trace trace;
    trace.config.ranks = 2;
    const auto add = [&](int rank, core::OpKind op, std::int32_t link, int peer) {
        core::Event e;
        e.rank = rank;
        e.op = op;
        e.link = link;
        e.setPeer(peer);
        e.start = core::SimTime::steps(1);
        trace.events.push_back(e);
    };
    add(0, core::OpKind::Receive, 1, 1); // from rank 1's pass below
    add(1, core::OpKind::Receive, 2, 0); // from rank 0's pass below
    add(1, core::OpKind::PassTo, 1, 0);
    add(0, core::OpKind::PassTo, 2, 1);
    const std::vector<Wait> found = waits(trace);
    ASSERT_EQ(found.size(), 2U);
    for (const Wait &wait : found) {
        EXPECT_LE(wait.causes.size(), trace.events.size());
        EXPECT_FALSE(describeWait(trace, wait).empty());
    }
    EXPECT_LE(criticalPath(trace).size(), trace.events.size());
    ASSERT_TRUE(waitBefore(trace, 1).has_value());
    EXPECT_LE(waitBefore(trace, 1)->chain.size(), trace.events.size());
}

// A chain longer than a reader follows is said to its kMostLinksSaid-th link, then summed up by how
// many more and where it began; one link more than that is said whole.
TEST(Waits, ALongChainIsSaidToItsLastReadableLinkThenSummedUp)
{
    // Rank 1 runs `forwards` forwards back to back from t 0, then passes to rank 0, whose receive
    // waited for it from t 0: the chain is the pass and every forward.
    const auto chainOf = [](int forwards) {
        core::Trace trace;
        trace.config.ranks = 2;
        const auto add = [&](int rank, core::OpKind op, int layer, int at) {
            core::Event e;
            e.rank = rank;
            e.op = op;
            e.layer = layer;
            e.start = core::SimTime::steps(at);
            e.duration = core::SimTime::steps(1);
            e.setPeer(op == core::OpKind::Forward ? -1 : 1 - rank);
            e.link = op == core::OpKind::Forward ? -1 : 7;
            trace.events.push_back(e);
        };
        for (int layer = 0; layer < forwards; ++layer)
            add(1, core::OpKind::Forward, layer, layer);
        add(1, core::OpKind::PassTo, -1, forwards);
        add(0, core::OpKind::Receive, -1, forwards + 1);
        return trace;
    };
    const int longest = int(kMostLinksSaid); // the pass and this many forwards: one link more
    const core::Trace whole = chainOf(longest);
    const std::vector<Wait> wholeWaits = waits(whole);
    ASSERT_EQ(wholeWaits.size(), 1U);
    ASSERT_EQ(wholeWaits[0].causes.size(), kMostLinksSaid + 1);
    const std::string said = describeWait(whole, wholeWaits[0]);
    EXPECT_EQ(said.find("after a chain"), std::string::npos) << said;
    EXPECT_NE(said.find("rank 1's forward of layer 0."), std::string::npos) << said;

    const core::Trace deep = chainOf(200);
    const std::vector<Wait> deepWaits = waits(deep);
    ASSERT_EQ(deepWaits.size(), 1U);
    ASSERT_EQ(deepWaits[0].causes.size(), 201U);
    const std::string summed = describeWait(deep, deepWaits[0]);
    EXPECT_EQ(summed,
              "Rank 0 waited 201 (t 0 to 201) in receive from rank 1 for rank 1's pass_to to "
              "rank 0, which came after rank 1's forward of layer 199, which came after "
              "rank 1's forward of layer 198, which came after rank 1's forward of layer "
              "197, which came after rank 1's forward of layer 196, which came after rank "
              "1's forward of layer 195, after a chain of 195 more events back to rank 1's "
              "forward of layer 0 at t 0.");
    EXPECT_EQ(deepWaits[0].chain.size(), 201U) << "the timeline still highlights every link";
}

} // namespace
} // namespace rankstep::explain
