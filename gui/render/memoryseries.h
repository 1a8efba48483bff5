// SPDX-License-Identifier: MIT
#pragma once

#include "core/simtime.h"
#include "core/trace.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

// The pure maths behind the memory chart: each rank's memory over simulated time, the value
// axis ticks and labels, and the time a click lands on. No widgets, so it is tested exactly.
//
// Why events and not each storage change: the notebook measures a rank's memory when an operation
// is called (docs/simulation.md, "the event's memory"), and so do Figures.maxMemory and its rank
// and time. The changes between two calls all happen at one time, the end of the first (the
// rank's clock only moves in operations), so the memory then is the next call's: drawing each
// change would show peaks the printed "Maximum memory" never counted. So a rank's series holds its
// events' memories, each from the end of the call before it (a rank waiting for a message
// already holds what it stored), and after its last call what it holds at the end: the figure
// the state view shows at every time.
namespace rankstep::gui {

struct MemoryPoint {
    core::SimTime time;
    std::int64_t memory = 0; // bytes
    bool operator==(const MemoryPoint &) const = default;
};

// The memory of each event of `rank` from when the rank reached it (its start, or the end of the
// call before when the rank waited in between), in the rank's clock order, then the memory after
// the rank's last change at the end of its last call. Empty when the rank made no timed call
// (or is outside the run).
std::vector<MemoryPoint> memorySamples(const core::Trace &trace, int rank);

// A step line through samples: the memory holds until the next sample, where the line jumps
// vertically (the previous value is repeated at the new time), then holds until `end`.
// Samples that do not change the memory add no point. Empty samples give an empty series.
std::vector<MemoryPoint> stepSeries(const std::vector<MemoryPoint> &samples, core::SimTime end);

// Every rank's step series (index = rank), each distinct line held once: ranks with equal series
// refer to one line. In the Llama 3 layout at 16,384 ranks the ranks of one pipeline stage and
// tensor slot have the same memory in every data-parallel lane: 27 million points (0.5 GB) were
// 128 lines' worth.
class RankSeries
{
public:
    RankSeries() = default;
    // A line per rank, none shared (a plain list of series converts).
    RankSeries(std::vector<std::vector<MemoryPoint>> eachRank);
    // `lines` and, for each rank, the index of its line (each below lines.size()).
    RankSeries(std::vector<std::vector<MemoryPoint>> lines, std::vector<std::uint32_t> lineOf);

    std::size_t size() const { return m_lineOf.size(); } // ranks
    bool empty() const { return m_lineOf.empty(); }
    const std::vector<MemoryPoint> &operator[](std::size_t rank) const
    {
        return m_lines[m_lineOf[rank]];
    }
    // The distinct lines: ranks with equal series may still hold a line each (equal lines are
    // only found where memorySeries looks for them), never ranks with different series one.
    std::size_t lineCount() const { return m_lines.size(); }
    std::size_t lineOf(std::size_t rank) const { return m_lineOf[rank]; }
    const std::vector<MemoryPoint> &line(std::size_t index) const { return m_lines[index]; }
    std::size_t pointCount() const; // held, over the distinct lines

    // Rank by rank, whichever lines they share.
    bool operator==(const RankSeries &other) const;

private:
    std::vector<std::vector<MemoryPoint>> m_lines;
    std::vector<std::uint32_t> m_lineOf;
};

// How memorySeries finds the ranks whose lines may be equal before it compares them point by
// point: by a hash of their points, or by their size alone (for tests of that comparison, which
// then decides for most ranks).
enum class LineMatch { Hash, Size };

// Every rank's step series (index = rank), each extended to the run's end time: each the
// stepSeries of its memorySamples. Ranks with equal series share a line when their samples are in
// time order (every rank of a simulated run).
RankSeries memorySeries(const core::Trace &trace, LineMatch match = LineMatch::Hash);

// memorySeries in its two walks over the events, each handed the events a range at a time (in
// order, each event once), so that a caller walks them beside other work that reads the same
// events: firstWalk over every event, then secondWalk over every event, then finish.
class MemorySeriesMaker
{
public:
    explicit MemorySeriesMaker(const core::Trace &trace, LineMatch match = LineMatch::Hash);
    ~MemorySeriesMaker();
    MemorySeriesMaker(const MemorySeriesMaker &) = delete;
    MemorySeriesMaker &operator=(const MemorySeriesMaker &) = delete;

    void firstWalk(std::size_t from, std::size_t to);  // events [from, to)
    void secondWalk(std::size_t from, std::size_t to); // the same
    RankSeries finish();

private:
    struct Walks;
    std::unique_ptr<Walks> m_walks;
};
// The same, made once for a trace while anyone holds what it gave: the memory chart and the Ranks
// tab's chart of one run share it, and a chart's redraw (shown ranks changed) does not make it
// again. GUI thread only.
std::shared_ptr<const RankSeries> sharedMemorySeries(
    const std::shared_ptr<const core::Trace> &trace);

// How a rank's line shares its path: ranks with identical series (every rank of DDP) draw one
// path together, each rank as every count-th dash starting at index, so every color shows.
struct LineShare {
    int index = 0; // among the ranks with this series, in rank order
    int count = 1; // ranks with this series
    bool operator==(const LineShare &) const = default;
};
std::vector<LineShare> sharedLines(const RankSeries &series);
// The same among the ranks `included` only (the rank picker's choice); the others get {0, 1}.
std::vector<LineShare> sharedLines(const RankSeries &series, const std::vector<bool> &included);

// The event start time of any rank nearest to `steps` (ties: the earlier time); none when the
// trace has no events. What a click on the chart steps to.
std::optional<core::SimTime> nearestSampleTime(const core::Trace &trace, double steps);

// A tick spacing of 1, 2 or 5 times a power of ten, so that `span` holds at most `maxTicks`
// intervals. Used for both axes; a non-positive span gives 1.
double niceStep(double span, int maxTicks);

// Value axis ticks from 0 up to the first tick at or above `top`, spaced by niceStep.
std::vector<std::int64_t> memoryTicks(std::int64_t top, int maxTicks);

// Bytes as a short decimal label: "0 B", "900 B", "512 kB", "1.5 MB", "2 GB" (core::formatMemory).
QString formatMemory(std::int64_t bytes);

} // namespace rankstep::gui
