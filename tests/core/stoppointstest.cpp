// SPDX-License-Identifier: MIT
// The stop points of a trace are what their definitions say, computed plainly here (a sort of
// every event, a scan of every start): the operation step's order, the time step's stops and
// times, and the boundaries. StopPoints builds them by merging the ranks' own orders, which must
// give the same lists, also when a rank's events are out of order (a damaged trace), and on
// traces made at random.
#include "core/replay/position.h"
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <vector>

namespace rankstep::testing {
namespace {

using core::SimTime;
using replay::OrderKey;
using replay::StopPoints;

std::vector<std::size_t> plainOperations(const StopPoints &stops)
{
    std::vector<std::size_t> order(stops.trace().events.size());
    for (std::size_t e = 0; e < order.size(); ++e)
        order[e] = e;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return stops.key(a) < stops.key(b); });
    return order;
}

std::vector<SimTime> plainBoundaries(const core::Trace &trace)
{
    if (trace.events.empty())
        return {};
    std::vector<SimTime> times{SimTime()};
    for (const core::Event &event : trace.events) {
        times.push_back(event.start);
        times.push_back(event.end());
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    return times;
}

// For each distinct start time t, ascending: the shortest prefix holding every event that starts
// by t; start times needing the same prefix share one stop, which keeps the latest of them.
void plainTimeStops(const StopPoints &stops, std::vector<std::size_t> &stopsOut,
                    std::vector<SimTime> &timesOut)
{
    const core::Trace &trace = stops.trace();
    std::vector<SimTime> starts;
    for (const core::Event &event : trace.events)
        starts.push_back(event.start);
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    for (const SimTime t : starts) {
        std::size_t reach = 0;
        for (std::size_t e = 0; e < trace.events.size(); ++e)
            if (trace.events[e].start <= t)
                reach = std::max(reach, stops.afterEvent(e));
        if (!stopsOut.empty() && stopsOut.back() == reach) {
            timesOut.back() = t;
        } else {
            stopsOut.push_back(reach);
            timesOut.push_back(t);
        }
    }
}

void expectPlain(const core::Trace &trace)
{
    const StopPoints stops(trace);
    const auto &operations = stops.operations();
    EXPECT_EQ(std::vector<std::size_t>(operations.begin(), operations.end()),
              plainOperations(stops));
    EXPECT_EQ(stops.boundaries(), plainBoundaries(trace));
    std::vector<std::size_t> timeStops;
    std::vector<SimTime> stopTimes;
    plainTimeStops(stops, timeStops, stopTimes);
    EXPECT_EQ(stops.timeStops(), timeStops);
    EXPECT_EQ(stops.stopTimes(), stopTimes);
    for (int rank = 0; rank < trace.config.ranks; ++rank) {
        std::vector<std::size_t> events, changes;
        for (std::size_t e = 0; e < trace.events.size(); ++e)
            if (trace.events[e].rank == rank)
                events.push_back(e);
        for (std::size_t c = 0; c < trace.changes.size(); ++c)
            if (trace.changes[c].rank == rank)
                changes.push_back(c);
        const auto &mine = stops.rankEvents(rank);
        EXPECT_EQ(std::vector<std::size_t>(mine.begin(), mine.end()), events) << "rank " << rank;
        const auto &own = stops.rankChanges(rank);
        EXPECT_EQ(std::vector<std::size_t>(own.begin(), own.end()), changes) << "rank " << rank;
    }
    // The slice of every stop: the first that ends at or after it; the slice stops their
    // distinct ends.
    std::vector<std::size_t> ends;
    for (const core::Slice &slice : trace.slices)
        if (ends.empty() || ends.back() != std::size_t(slice.eventEnd) + slice.changeEnd)
            ends.push_back(std::size_t(slice.eventEnd) + slice.changeEnd);
    EXPECT_EQ(stops.sliceStops(), ends);
    EXPECT_EQ(stops.sliceAt(0), std::nullopt);
    for (std::size_t stop = 1, slice = 0; stop <= stops.last(); ++stop) {
        while (slice < trace.slices.size() &&
               std::size_t(trace.slices[slice].eventEnd) + trace.slices[slice].changeEnd < stop)
            ++slice;
        const auto expected = slice < trace.slices.size() ? std::optional(slice) : std::nullopt;
        ASSERT_EQ(stops.sliceAt(stop), expected) << "stop " << stop;
    }
}

TEST(StopPoints, TheReferencePuzzlesStopWhereThePlainDefinitionsSay)
{
    for (const PuzzleCase &puzzle : referencePuzzles()) {
        SCOPED_TRACE(puzzle.name);
        expectPlain(runReference(puzzle.name));
    }
}

TEST(StopPoints, FiveRanksOfManyRunsMergeAsOneSort)
{
    // An odd number of ranks (a run left over in a round of merges), several rounds.
    expectPlain(runProgram(makeConfig(5, 6, 5), ddp));
    expectPlain(runProgram(makeConfig(7, 8, 7), fsdp));
}

TEST(StopPoints, RanksWhoseEventsAreOutOfOrderAreSortedAll)
{
    // A damaged trace: starts at random, many equal (ties ordered by rank, then index), some
    // ranks' clocks going back; ends before their ranks' next starts or not.
    core::Trace trace = runProgram(makeConfig(6, 4, 6), fsdp);
    std::mt19937 random(7);
    for (std::size_t e = 0; e < trace.events.size(); ++e) {
        core::Event &event = trace.events[e];
        event.start = SimTime::fromTicks(std::int64_t(random() % 40) * 1000);
        event.duration = SimTime::fromTicks(std::int64_t(random() % 3) * 500);
    }
    expectPlain(trace);
}

// The stop after each event and the position of each stop, counted plainly: the changes recorded
// before an event come before it.
void expectPlainPositions(const core::Trace &trace)
{
    const StopPoints stops(trace);
    std::size_t stop = 0;
    for (std::size_t e = 0; e < trace.events.size(); ++e) {
        std::size_t before = 0;
        while (before < trace.changes.size() && trace.changes[before].eventCount <= e)
            ++before;
        ASSERT_EQ(stops.afterEvent(e), e + 1 + before) << "event " << e;
        ASSERT_EQ(stops.changesBefore(e), before) << "event " << e;
        for (; stop <= stops.afterEvent(e); ++stop) {
            const replay::Position at = stops.position(stop);
            ASSERT_EQ(at.events, stop == stops.afterEvent(e) ? e + 1 : e) << "stop " << stop;
            ASSERT_EQ(at.events + at.changes, stop);
        }
    }
    for (; stop <= stops.last(); ++stop)
        ASSERT_EQ(stops.position(stop).events, trace.events.size()) << "stop " << stop;
}

// A trace made at random: `ranks` ranks whose events the scheduler recorded in any order, at
// starts from `earliest` within `span` ticks (few distinct ones when the span is small, many
// sharing a bucket when it is wide), lasting up to `longest` ticks, with changes between them;
// with `forward`, each rank's starts go forward as a simulated rank's clock does; with
// `firstEarliest`, the first event starts at `earliest`, as a run's first does.
core::Trace randomTrace(std::mt19937_64 &random, int ranks, std::size_t events,
                        std::int64_t earliest, std::uint64_t span, std::int64_t longest,
                        bool forward, bool firstEarliest)
{
    core::Trace trace;
    trace.config.ranks = ranks;
    for (std::size_t e = 0; e < events; ++e) {
        core::Event event;
        event.rank = int(random() % std::uint64_t(ranks));
        event.start = SimTime::fromTicks(earliest + std::int64_t(random() % span));
        event.duration = SimTime::fromTicks(std::int64_t(random() % std::uint64_t(longest + 1)));
        trace.events.push_back(event);
        while (random() % 3 == 0) {
            core::StorageChange change;
            change.rank = int(random() % std::uint64_t(ranks));
            change.eventCount = std::uint32_t(e + random() % 2);
            trace.changes.append(change, std::nullopt);
        }
    }
    if (firstEarliest)
        trace.events[0].start = SimTime::fromTicks(earliest);
    if (forward) {
        std::vector<std::vector<SimTime>> starts(std::size_t(ranks), std::vector<SimTime>{});
        for (const core::Event &event : trace.events)
            starts[std::size_t(event.rank)].push_back(event.start);
        for (auto &own : starts)
            std::sort(own.begin(), own.end(), std::greater<>());
        for (core::Event &event : trace.events) {
            event.start = starts[std::size_t(event.rank)].back();
            starts[std::size_t(event.rank)].pop_back();
        }
    }
    return trace;
}

TEST(StopPoints, RandomTracesStopWhereThePlainDefinitionsSay)
{
    // Times in one bucket, in buckets of one tick, of wide ones, negative and far apart; one
    // rank, many, and more than a narrow key holds; each rank's events in the order of their
    // starts (as a run records them) or not; the first event the earliest (as a run's is: the
    // buckets are counted in the pass that finds their range) or not.
    std::mt19937_64 random(11);
    const struct {
        int ranks;
        std::size_t events;
        std::int64_t earliest;
        std::uint64_t span;
        std::int64_t longest;
    } shapes[] = {{1, 1, 0, 1, 0},
                  {3, 60, 0, 1, 0},
                  {4, 200, 0, 8, 3},
                  {7, 400, -50, 100, 20},
                  {13, 900, 1000, 1U << 20, 5000},
                  {5, 700, -(std::int64_t(1) << 61), std::uint64_t(1) << 62, std::int64_t(1) << 40},
                  {33, 1500, 0, 3000, 200},
                  {16385, 1000, 0, 500, 50}};
    for (const auto &shape : shapes) {
        for (int round = 0; round < 6; ++round) {
            const bool forward = round % 2 == 1;
            const bool firstEarliest = round >= 4;
            SCOPED_TRACE(::testing::Message()
                         << shape.ranks << " ranks, " << shape.events << " events, span "
                         << shape.span << (forward ? ", forward" : "")
                         << (firstEarliest ? ", first earliest" : ""));
            const core::Trace trace =
                randomTrace(random, shape.ranks, shape.events, shape.earliest, shape.span,
                            shape.longest, forward, firstEarliest);
            expectPlain(trace);
            expectPlainPositions(trace);
        }
    }
}

TEST(StopPoints, TheReferencePuzzlesPlaceTheirStopsWherePlainCountsSay)
{
    for (const PuzzleCase &puzzle : referencePuzzles()) {
        SCOPED_TRACE(puzzle.name);
        expectPlainPositions(runReference(puzzle.name));
    }
}

TEST(StopPoints, ATraceWithoutEventsHasNoStopsButItsEnds)
{
    core::Trace trace;
    trace.config.ranks = 3;
    const StopPoints stops(trace);
    EXPECT_TRUE(stops.operations().empty());
    EXPECT_TRUE(stops.boundaries().empty());
    EXPECT_TRUE(stops.timeStops().empty());
    EXPECT_EQ(stops.count(), 1U);
}

} // namespace
} // namespace rankstep::testing
