// SPDX-License-Identifier: MIT
// What the views derive from a trace, made on an open's worker in fewer passes over the events
// (TraceDerived::prepare), is what each view's own function makes of the trace.
#include "legendpainter.h"
#include "patterntrace.h"
#include "statesummary.h"
#include "tracederived.h"
#include "tracescan.h"

#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace gui = rankstep::gui;
namespace core = rankstep::core;

namespace {

// Each rank's index as RankEvents finds it from the rank's events alone.
std::vector<gui::RankEvents> plainIndex(const core::Trace &trace)
{
    std::vector<std::vector<std::uint32_t>> indices(std::size_t(std::max(trace.config.ranks, 0)));
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const int rank = trace.events[i].rank;
        if (rank < 0)
            continue;
        if (std::size_t(rank) >= indices.size())
            indices.resize(std::size_t(rank) + 1);
        indices[std::size_t(rank)].push_back(std::uint32_t(i));
    }
    std::vector<gui::RankEvents> ranks;
    for (std::vector<std::uint32_t> &rank : indices)
        ranks.emplace_back(trace, std::move(rank));
    return ranks;
}

void expectSameIndex(const std::vector<gui::RankEvents> &made,
                     const std::vector<gui::RankEvents> &plain)
{
    ASSERT_EQ(made.size(), plain.size());
    for (std::size_t r = 0; r < plain.size(); ++r) {
        SCOPED_TRACE("rank " + std::to_string(r));
        ASSERT_EQ(made[r].size(), plain[r].size());
        EXPECT_EQ(made[r].compact(), plain[r].compact());
        for (std::size_t k = 0; k < plain[r].size(); ++k) {
            EXPECT_EQ(made[r].byIndex(k), plain[r].byIndex(k));
            EXPECT_EQ(made[r].byStart(k), plain[r].byStart(k));
            EXPECT_EQ(made[r].endSoFar(k), plain[r].endSoFar(k));
            EXPECT_EQ(made[r].firstLater(k), plain[r].firstLater(k));
        }
    }
}

// Each pass_to and the receive of its message by their definition: the first pass_to with the
// receive's link, searched over the whole trace.
gui::TraceDerived::Links plainLinks(const core::Trace &trace)
{
    gui::TraceDerived::Links links;
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        if (trace.events[i].op != core::OpKind::Receive)
            continue;
        for (std::size_t sent = 0; sent < trace.events.size(); ++sent) {
            const core::Event &pass = trace.events[sent];
            if (pass.op == core::OpKind::PassTo && pass.link >= 0 &&
                pass.link == trace.events[i].link) {
                links.emplace_back(sent, i);
                break;
            }
        }
    }
    return links;
}

// Each rank's memory line from its own samples alone.
void expectSameMemory(const gui::RankSeries &made, const core::Trace &trace)
{
    ASSERT_EQ(made.size(), std::size_t(std::max(trace.config.ranks, 0)));
    for (int rank = 0; rank < trace.config.ranks; ++rank)
        EXPECT_EQ(made[std::size_t(rank)],
                  gui::stepSeries(gui::memorySamples(trace, rank), trace.figures.endTime))
            << "rank " << rank;
    // The same lines shared as the memory series of the whole trace shares them.
    const gui::RankSeries whole = gui::memorySeries(trace);
    ASSERT_EQ(made.lineCount(), whole.lineCount());
    for (std::size_t rank = 0; rank < made.size(); ++rank)
        EXPECT_EQ(made.lineOf(rank), whole.lineOf(rank)) << "rank " << rank;
}

// What prepare makes walking the events `block` at a time is what each view's own function, or
// its plain definition, makes of the trace.
void expectPreparedAsEachViewMakesIt(const std::shared_ptr<const core::Trace> &trace,
                                     std::size_t block = gui::kWalkBlock)
{
    SCOPED_TRACE("blocks of " + std::to_string(block));
    gui::TraceDerived derived(trace);
    ASSERT_TRUE(derived.prepare({}, block));
    expectSameIndex(derived.ranks(), plainIndex(*trace));
    const gui::RankHeat heat = gui::rankHeat(*trace, gui::TraceDerived::kHeatBins);
    EXPECT_EQ(derived.heat().end, heat.end);
    EXPECT_EQ(derived.heat().ranks, heat.ranks);
    EXPECT_EQ(derived.heat().busy, heat.busy);
    EXPECT_EQ(derived.heat().comm, heat.comm);
    EXPECT_EQ(derived.splitBackward(), gui::hasSplitBackward(*trace));
    EXPECT_EQ(derived.allToAll(), gui::hasAllToAll(*trace));
    EXPECT_EQ(derived.keysValues(), gui::holdsKeysValues(*trace));
    EXPECT_EQ(derived.links(), plainLinks(*trace));
    EXPECT_EQ(gui::messageLinks(*trace), plainLinks(*trace));
    ASSERT_TRUE(derived.memoryLines());
    expectSameMemory(*derived.memoryLines(), *trace);
}

// Events of every kind at random times on random ranks (some past the configured ranks), a rank's
// clock now and then going back, as in a hand-made trace.
core::Trace randomTrace(std::mt19937 &random)
{
    core::Trace trace;
    trace.config.ranks = 1 + int(random() % 5);
    for (int i = 0, count = int(random() % 40); i < count; ++i) {
        core::Event event;
        event.rank = int(random() % unsigned(trace.config.ranks + 1));
        event.op = core::OpKind(int(random() % unsigned(core::kOpCount)));
        event.start = core::SimTime::fromTicks(std::int64_t(random() % 20) * 100);
        event.duration = core::SimTime::fromTicks(std::int64_t(random() % 4) * 100);
        event.memory = std::int64_t(random() % 3) * 100;
        event.link = std::int32_t(random() % 4);
        trace.events.push_back(event);
        trace.figures.endTime = std::max(trace.figures.endTime, event.end());
    }
    if (random() % 2 == 0) // the run's end after its last call's (a collective in flight)
        trace.figures.endTime = trace.figures.endTime + core::SimTime::fromTicks(100);
    if (random() % 4 == 0) { // an all-to-all only among the overlapped
        core::Event event;
        event.op = core::OpKind::AllToAll;
        trace.overlapped.push_back(event);
    }
    return trace;
}

} // namespace

TEST(TraceDerived, PreparedPartsAreWhatEachViewMakesOfRandomTraces)
{
    std::mt19937 random(291126);
    for (int round = 0; round < 200; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        expectPreparedAsEachViewMakesIt(std::make_shared<const core::Trace>(randomTrace(random)));
    }
}

TEST(TraceDerived, PreparedPartsAreTheSameWhateverBlocksTheEventsAreWalkedIn)
{
    std::mt19937 random(291129);
    for (int round = 0; round < 300; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const auto trace = std::make_shared<const core::Trace>(
            round % 2 == 0 ? gui::testing::patternTrace(random) : randomTrace(random));
        for (const std::size_t block : {std::size_t(1), std::size_t(2), std::size_t(3),
                                        std::size_t(1 + random() % 17), gui::kWalkBlock})
            expectPreparedAsEachViewMakesIt(trace, block);
    }
}

TEST(TraceDerived, PreparedPartsAreWhatEachViewMakesOfThePuzzleRuns)
{
    for (const auto &puzzle : rankstep::testing::referencePuzzles()) {
        SCOPED_TRACE(puzzle.name);
        const auto trace =
            std::make_shared<const core::Trace>(rankstep::testing::runReference(puzzle.name));
        expectPreparedAsEachViewMakesIt(trace);
        expectPreparedAsEachViewMakesIt(trace, 7);
    }
}

TEST(TraceDerived, PreparedSaysWhetherTheRunStoresKeysAndValues)
{
    const auto withKinds = [](std::initializer_list<core::ObjectKind> kinds) {
        core::Trace trace;
        trace.config.ranks = 1;
        for (const core::ObjectKind kind : kinds) {
            core::StorageChange change;
            core::Object object;
            object.kind = kind;
            trace.changes.append(change, object);
            trace.changes.append(change, std::nullopt); // a delete: no object
        }
        return std::make_shared<const core::Trace>(std::move(trace));
    };
    for (const bool keysValues : {false, true}) {
        SCOPED_TRACE(keysValues ? "keys and values" : "none");
        const auto trace =
            keysValues ? withKinds({core::ObjectKind::Weight, core::ObjectKind::KeysValues})
                       : withKinds({core::ObjectKind::Weight, core::ObjectKind::Activation});
        gui::TraceDerived prepared(trace);
        ASSERT_TRUE(prepared.prepare());
        EXPECT_EQ(prepared.keysValues(), keysValues);
        EXPECT_EQ(gui::TraceDerived(trace).keysValues(), keysValues); // made on first use
    }
}

TEST(TraceDerived, PrepareStopsWhenAskedAndCountsItsParts)
{
    const auto trace = std::make_shared<const core::Trace>(rankstep::testing::runReference("ddp"));
    int asked = 0;
    gui::TraceDerived whole(trace);
    EXPECT_TRUE(whole.prepare([&asked] {
        ++asked;
        return true;
    }));
    EXPECT_EQ(asked, gui::TraceDerived::kParts);
    asked = 0;
    gui::TraceDerived stopped(trace);
    EXPECT_FALSE(stopped.prepare([&asked] { return ++asked < 3; }));
    EXPECT_EQ(asked, 3);
    // What it did not make is made when asked.
    expectSameIndex(stopped.ranks(), plainIndex(*trace));
    EXPECT_TRUE(*stopped.memoryLines() == gui::memorySeries(*trace));
}

TEST(TraceDerived, ANullTraceDerivesNothing)
{
    gui::TraceDerived derived(nullptr);
    EXPECT_TRUE(derived.prepare());
    EXPECT_TRUE(derived.ranks().empty());
    EXPECT_EQ(derived.heat().ranks, 0);
    EXPECT_FALSE(derived.splitBackward());
    EXPECT_FALSE(derived.allToAll());
}
