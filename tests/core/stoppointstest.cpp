// SPDX-License-Identifier: MIT
// The stop points of a trace are what their definitions say, computed plainly here (a sort of
// every event, a scan of every start): the operation step's order, the time step's stops and
// times, and the boundaries. StopPoints builds them by merging the ranks' own orders, which must
// give the same lists, also when a rank's events are out of order (a damaged trace).
#include "core/replay/position.h"
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
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
    EXPECT_EQ(stops.operations(), plainOperations(stops));
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
        EXPECT_EQ(stops.rankEvents(rank), events) << "rank " << rank;
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
