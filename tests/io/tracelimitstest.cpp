// SPDX-License-Identifier: MIT
// Both trace readers refuse times, durations and memory no run of the trace's configuration can
// produce (a duration of 2^31 steps was read and then sized the views), naming the
// field; every trace a real run writes still reads.
#include "tests/core/referencepuzzles.h"
#include "testtraces.h"

#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"
#include "core/io/tracelimits.h"

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace rankstep::io {
namespace {

const core::SimTime kHuge = core::SimTime::steps(std::int64_t(1) << 31);

// The message both readers give for `trace` written out (each must refuse it).
void expectBothRefuse(const core::Trace &trace, const std::string &field)
{
    auto json = traceFromJson(traceToJson(trace, {"ddp.py", "ddp"}));
    ASSERT_FALSE(json.ok()) << field;
    EXPECT_NE(json.error().message.find(field), std::string::npos) << json.error().message;
    auto binary = traceFromBinary(traceToBinary(trace));
    ASSERT_FALSE(binary.ok()) << field;
    EXPECT_NE(binary.error().message.find(field), std::string::npos) << binary.error().message;
}

core::Trace ddpWith(const std::function<void(core::Trace &)> &change)
{
    core::Trace trace = testing::referenceTrace("ddp");
    change(trace);
    return trace;
}

TEST(TraceLimits, EveryTraceARunWritesIsWithinThem)
{
    for (const testing::PuzzleCase &puzzle : testing::referencePuzzles())
        EXPECT_EQ(checkTraceLimits(testing::referenceTrace(puzzle.name)), std::nullopt)
            << puzzle.name;
    for (const core::Trace &trace :
         {testing::deadlockTrace(), testing::mismatchTrace(), testing::checkErrorTrace()})
        EXPECT_EQ(checkTraceLimits(trace), std::nullopt);
}

TEST(TraceLimits, ADurationOfTwoToTheThirtyFirstStepsIsRefusedByBothReaders)
{
    expectBothRefuse(ddpWith([](core::Trace &t) { t.events.at(3).duration = kHuge; }),
                     "event 3 (rank 0): duration: 2147483648 steps is more than the longest "
                     "operation of this run's configuration");
}

TEST(TraceLimits, AStartOrEndTimeBeyondAllTheOperationsIsRefused)
{
    expectBothRefuse(ddpWith([](core::Trace &t) { t.events.back().start = kHuge; }), ": start: ");
    expectBothRefuse(ddpWith([](core::Trace &t) { t.figures.endTime = kHuge; }),
                     "figures.end_time: 2147483648 steps");
    expectBothRefuse(ddpWith([](core::Trace &t) { t.figures.ranks.at(1).idle = kHuge; }),
                     "figures.ranks[1].idle");
}

TEST(TraceLimits, AHugeCostOrMemoryIsRefused)
{
    expectBothRefuse(ddpWith([](core::Trace &t) { t.config.cost.forwardPerBatch = kHuge; }),
                     "config.cost.forward_per_batch");
    expectBothRefuse(ddpWith([](core::Trace &t) { t.figures.maxMemory = std::int64_t(1) << 60; }),
                     "figures.max_memory: 1152921504606846976 bytes");
    // An event's memory: the check names the event only once it fails.
    expectBothRefuse(ddpWith([](core::Trace &t) { t.events.at(5).memory = std::int64_t(1) << 60; }),
                     ": memory: 1152921504606846976 bytes is more memory than a run can use");
    const core::Trace trace =
        ddpWith([](core::Trace &t) { t.events.at(5).memory = std::int64_t(1) << 60; });
    EXPECT_EQ(checkTraceLimits(trace)->rfind(
                  "event 5 (rank " + std::to_string(trace.events[5].rank) + ")", 0),
              0U);
}

// A rank that awaits a started pass, receive or collective moves its clock to the end of that
// event on its communication stream: a run that stopped there ended after all its compute events
// together (the overlapped ring's "so_far left out" mistake was refused as a broken trace).
TEST(TraceLimits, TimesReachedByAwaitingTheCommunicationStreamAreWithinThem)
{
    const core::Trace trace = ddpWith([](core::Trace &t) {
        core::SimTime computed;
        core::Event longest = t.events.front();
        for (const core::Event &event : t.events) {
            computed = computed + event.duration;
            if (event.duration > longest.duration)
                longest = event;
        }
        longest.start = computed; // on the stream after everything else
        t.overlapped.push_back(longest);
        t.figures.endTime = computed + longest.duration;
    });
    EXPECT_EQ(checkTraceLimits(trace), std::nullopt);
    auto binary = traceFromBinary(traceToBinary(trace));
    ASSERT_TRUE(binary.ok()) << binary.error().message;
    EXPECT_EQ(binary->figures.endTime, trace.figures.endTime);
    auto json = traceFromJson(traceToJson(trace, {"ddp.py", "ddp"}));
    ASSERT_TRUE(json.ok()) << json.error().message;
    // The stream's own events are held to the same limits.
    core::Trace huge = trace;
    huge.overlapped.back().duration = kHuge;
    expectBothRefuse(huge, "overlapped event 0 (rank ");
}

// Found by fuzz_tracebinary (tests/fuzz/corpus/tracebinary/finding-negative-duration): a negative
// duration overflowed the sum of durations (undefined behaviour) instead of being refused.
TEST(TraceLimits, ANegativeDurationIsRefusedByTheBinaryReader)
{
    const core::Trace trace =
        ddpWith([](core::Trace &t) { t.events.at(2).duration = core::SimTime::fromTicks(-49536); });
    EXPECT_EQ(checkTraceLimits(trace),
              "event 2 (rank 0): duration: -49536 ticks is negative, "
              "which no run's clock can be");
    auto binary = traceFromBinary(traceToBinary(trace));
    ASSERT_FALSE(binary.ok());
    EXPECT_NE(binary.error().message.find("event 2 (rank 0): duration: -49536 ticks is negative"),
              std::string::npos)
        << binary.error().message;
}

RecordTally tallyOf(const core::Trace &trace)
{
    RecordTally tally;
    for (const core::Event &event : trace.events)
        tally.addEvent(event);
    for (const core::StorageChange &change : trace.changes)
        tally.addChange(change);
    return tally;
}

// A trace with the memory after its change `index` set to `bytes`.
core::Trace withChangeMemory(core::Trace trace, std::size_t index, std::int64_t bytes)
{
    core::ChangeLog changes;
    for (std::size_t i = 0; i < trace.changes.size(); ++i) {
        core::StorageChange change = trace.changes[i];
        std::optional<core::Object> object;
        if (change.isSet())
            object = trace.changes.objectAt(change.objectId);
        if (i == index)
            change.memoryAfter = bytes;
        changes.append(change, std::move(object));
    }
    trace.changes = std::move(changes);
    return trace;
}

// The binary reader tallies the events and changes as it decodes them, and the check then reads
// them again only to name the first outside: the answer is the same as reading them all.
TEST(TraceLimits, ATallyMadeWhileDecodingGivesTheAnswerOfReadingEveryEventAndChange)
{
    const core::SimTime negative = core::SimTime::fromTicks(-5);
    const std::int64_t tooMuch = std::int64_t(1) << 60;
    std::vector<core::Trace> traces = {
        testing::referenceTrace("ddp"),
        core::Trace{},
        ddpWith([](core::Trace &t) { t.events.at(3).duration = kHuge; }),
        ddpWith([&](core::Trace &t) { t.events.at(4).duration = negative; }),
        ddpWith([&](core::Trace &t) { t.events.at(6).start = negative; }),
        ddpWith([](core::Trace &t) { t.events.back().start = kHuge; }),
        ddpWith([&](core::Trace &t) { t.events.at(5).memory = tooMuch; }),
        ddpWith([](core::Trace &t) { t.figures.endTime = kHuge; }),
        withChangeMemory(testing::referenceTrace("ddp"), 7, tooMuch),
        ddpWith([](core::Trace &t) {
            t.overlapped.push_back(t.events.front());
            t.overlapped.back().duration = kHuge;
        }),
        ddpWith([](core::Trace &t) {
            t.overlapped.push_back(t.events.front());
            t.overlapped.back().start = kHuge;
        }),
    };
    std::size_t refused = 0;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        const auto whole = checkTraceLimits(traces[i]);
        refused += whole ? 1 : 0;
        EXPECT_EQ(checkTraceLimits(traces[i], tallyOf(traces[i])), whole) << "trace " << i;
    }
    EXPECT_EQ(refused, traces.size() - 2); // all but the first two
}

// A negative duration is refused by the check on its own; the tally's sum leaves it out, so that
// a hostile file's negative duration before the largest one cannot take the sum past the largest
// time (the sanitizers' signed overflow) nor below zero.
TEST(TraceLimits, ATallysSumLeavesOutNegativeDurationsAndStopsAtTheLargestTime)
{
    RecordTally tally;
    core::Event event;
    event.duration = core::SimTime::fromTicks(-3978);
    tally.addEvent(event);
    event.duration = core::SimTime::fromTicks(7);
    tally.addEvent(event);
    EXPECT_EQ(tally.total.ticks(), 7);
    EXPECT_EQ(tally.shortest.ticks(), -3978);
    event.duration = core::SimTime::fromTicks(std::numeric_limits<std::int64_t>::max());
    tally.addEvent(event);
    tally.addEvent(event);
    EXPECT_EQ(tally.total.ticks(), std::numeric_limits<std::int64_t>::max());
}

} // namespace
} // namespace rankstep::io
