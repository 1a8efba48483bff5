// SPDX-License-Identifier: MIT
// Positions in a finished run: how far the scheduler's order of events and storage changes has
// been applied. Every view of a replayed run is a function of the trace and one such position.
#pragma once

#include "core/simtime.h"
#include "core/trace.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

namespace rankstep::replay {

// `events` events and `changes` storage changes applied, a prefix of the scheduler's order.
struct Position {
    std::size_t events = 0;
    std::size_t changes = 0;
    bool operator==(const Position &) const = default;
};

// How far one rank has come: its events below `events` and its changes below `changes` (indices
// into the trace, the rank's own items only) are applied; `running`: its last applied event has
// started but not finished.
struct RankCut {
    std::size_t events = 0;
    std::size_t changes = 0;
    bool running = false;
    bool operator==(const RankCut &) const = default;
};

// Where an event stands in the order of simulated start: by its start, ties by rank, then by
// the trace's order. Stepping by operation goes in this order, so a learner sees the ranks of a
// data-parallel run start their forwards together, not one rank's whole step after another's
// (the scheduler's order, which the slice step shows).
struct OrderKey {
    core::SimTime start;
    int rank = 0;
    std::size_t event = 0;
    // Before every event that starts after `time`, after every other one.
    static OrderKey after(core::SimTime time)
    {
        return OrderKey{time, std::numeric_limits<int>::max(),
                        std::numeric_limits<std::size_t>::max()};
    }
    bool operator<(const OrderKey &other) const
    {
        return std::tie(start, rank, event) < std::tie(other.start, other.rank, other.event);
    }
    bool operator==(const OrderKey &) const = default;
};

// The stop points of one trace, built once: the trace's events and changes merged in the order
// the scheduler made them (change c follows event e iff c.eventCount > e), and stop k is the
// prefix of its first k items. Stop 0 holds nothing, stop last() everything. Each step mode
// has its own sorted subset of stops. Keeps a reference: the trace must outlive it.
class StopPoints
{
public:
    explicit StopPoints(const core::Trace &trace);

    const core::Trace &trace() const { return *m_trace; }
    std::size_t count() const { return m_trace->events.size() + m_trace->changes.size() + 1; }
    std::size_t last() const { return count() - 1; }

    Position position(std::size_t stop) const;
    static std::size_t stopOf(Position position) { return position.events + position.changes; }
    // The stop whose last item is event `event` (resp. change `change`).
    std::size_t afterEvent(std::size_t event) const { return event + 1 + changesBefore(event); }
    std::size_t afterChange(std::size_t change) const;
    // The changes made before event `event` was recorded (those its stop holds).
    std::size_t changesBefore(std::size_t event) const { return m_changesBefore[event]; }

    // The distinct stops at which a slice ended (the slice step's stops), ascending.
    const std::vector<std::size_t> &sliceStops() const { return m_sliceStops; }
    // The time step's stops, ascending; the time of timeStops()[k] is stopTimes()[k].
    const std::vector<std::size_t> &timeStops() const { return m_timeStops; }
    const std::vector<core::SimTime> &stopTimes() const { return m_stopTimes; }
    // Every distinct start and end of an event, and 0, ascending: where the simulated-time step
    // stops (empty without events).
    const std::vector<core::SimTime> &boundaries() const { return m_boundaries; }
    // Rank `rank` at simulated time t: the events that ended by t applied with the changes
    // made before the first that did not, which is running when it started at or before t (its
    // result is not stored yet). Every rank of a run at t is at a different prefix of the trace.
    RankCut rankCut(int rank, core::SimTime time) const
    {
        return rankCut(rank, time, OrderKey::after(time));
    }
    // The same with only the events ordered before `bound` started (bound.start >= t; every
    // event ordered before it starts by t): the moment an operation step stands at, when some
    // events that start at t have started and the rest not yet.
    RankCut rankCut(int rank, core::SimTime time, const OrderKey &bound) const;
    // The shortest prefix holding what every rank has applied at simulated time t (before
    // `bound`).
    std::size_t cutStop(core::SimTime time) const { return cutStop(time, OrderKey::after(time)); }
    std::size_t cutStop(core::SimTime time, const OrderKey &bound) const;
    // The shortest prefix holding rank `rank`'s part of a cut.
    std::size_t stopHolding(int rank, const RankCut &cut) const;
    // Every event in the order of simulated start (OrderKey): the operation step's order. (An
    // event's index fits 32 bits: a trace holds at most core::kMostTraceEvents events.)
    const std::vector<std::uint32_t> &operations() const { return m_operations; }
    OrderKey key(std::size_t event) const
    {
        const core::Event &e = m_trace->events[event];
        return OrderKey{e.start, e.rank, event};
    }
    // How many operations are ordered before `bound`.
    std::size_t operationsBefore(const OrderKey &bound) const;
    // A rank's events (changes) in the scheduler's order.
    const std::vector<std::uint32_t> &rankEvents(int rank) const
    {
        return m_rankEvents[std::size_t(rank)];
    }
    // (A change's index fits 32 bits: a trace holds at most core::kMostTraceEvents changes.)
    const std::vector<std::uint32_t> &rankChanges(int rank) const
    {
        return m_rankChanges[std::size_t(rank)];
    }
    // The stop of each draw() mark, in the order they were taken (never decreasing): several
    // marks can share a stop when nothing happened between two draws.
    const std::vector<std::size_t> &markStops() const { return m_markStops; }
    // The moment of each draw() mark: the drawing rank's clock when it called draw(), with the
    // events ordered before that call applied (on every rank: the others stand at that same
    // time, not wherever the scheduler had taken them).
    struct MarkCut {
        core::SimTime time;
        OrderKey bound;
    };
    const std::vector<MarkCut> &markCuts() const { return m_markCuts; }

    // The slice that made the item last applied at `stop`; nullopt at stop 0.
    std::optional<std::size_t> sliceAt(std::size_t stop) const;
    // The largest start time t such that every event starting at or before t is applied at
    // `stop`; nullopt while some event of the earliest start time is not.
    std::optional<core::SimTime> completeTime(std::size_t stop) const;

private:
    void buildChanges();
    void buildSliceStops();
    void buildOperations(); // core/replay/stoporder.cpp
    // The operations, placed in buckets of start (bucket b's end at bucketEnds[b]) as events
    // (wide) or as a start's offset in its bucket and a rank (narrow, every rank's starts going
    // forward), sorted, and the time stops found; returns each distinct start.
    std::vector<core::SimTime> orderWide(const std::vector<std::uint32_t> &bucketEnds);
    template <typename TimeOf>
    std::vector<core::SimTime> orderNarrow(const std::vector<std::uint32_t> &bucketEnds,
                                           TimeOf timeOf);
    void addStart(core::SimTime start, std::size_t latestEvent, std::vector<core::SimTime> &starts);
    void buildMarkCuts();

    const core::Trace *m_trace;
    std::vector<std::uint32_t> m_changesBefore; // by event
    std::vector<std::size_t> m_sliceStops;
    std::vector<std::size_t> m_timeStops;
    std::vector<core::SimTime> m_stopTimes;
    std::vector<std::size_t> m_markStops;
    std::vector<MarkCut> m_markCuts;
    std::vector<core::SimTime> m_boundaries;
    std::vector<std::vector<std::uint32_t>> m_rankEvents;
    std::vector<std::vector<std::uint32_t>> m_rankChanges;
    std::vector<std::uint32_t> m_operations;
};

// The next stop of a sorted subset after `stop` (last when none), and the one before (0 when none).
std::size_t nextStop(const std::vector<std::size_t> &stops, std::size_t stop, std::size_t last);
std::size_t previousStop(const std::vector<std::size_t> &stops, std::size_t stop);

} // namespace rankstep::replay
