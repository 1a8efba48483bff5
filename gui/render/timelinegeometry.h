// SPDX-License-Identifier: MIT
#pragma once

#include "core/simtime.h"
#include "core/trace.h"

#include <QPointF>
#include <QRectF>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace rankstep::gui {

// The visible stretch of simulated time over the timeline's drawing area. Times are kept in
// fractional ticks (thousandths of a step) so that zooming deep and back stays exact enough;
// what leaves the view (signals, labels) is rounded to whole ticks.
struct TimeAxis {
    double from = 0.0;     // ticks at x == left
    double to = 1000.0;    // ticks at x == left + width
    double left = 0.0;     // pixel x where the time area starts
    double width = 1000.0; // pixels, > 0

    double span() const { return to - from; }
    double ticksPerPixel() const { return span() / width; }
    double toX(double ticks) const { return left + (ticks - from) / ticksPerPixel(); }
    double toX(core::SimTime time) const { return toX(double(time.ticks())); }
    double ticksAt(double x) const { return from + (x - left) * ticksPerPixel(); }
    core::SimTime timeAt(double x) const; // rounded to the nearest tick
    bool operator==(const TimeAxis &) const = default;
};

// The x of the cursor line at `time`: the pixel boundary nearest to it, the line two pixel columns
// wide on either side; the same rule for the timeline and the memory chart, so that on one time
// axis their two lines are one.
double cursorLineX(const TimeAxis &axis, core::SimTime time);
// Where the axis marks the run's Timesteps figure (docs/simulation.md): x of figures.timesteps
// when the run finished and that time is in view between `left` and `right`; nullopt otherwise.
std::optional<double> timestepsMarkX(const core::Trace &trace, const TimeAxis &axis, double left,
                                     double right);

// A horizontal stretch of pixels, both edges in one coordinate system (e.g. the window's).
struct PixelSpan {
    double left = 0.0;
    double right = 0.0;
    bool operator==(const PixelSpan &) const = default;
};

// Where two views stacked in one column both draw time, given where each could: from the larger
// left edge to the smaller right edge, so that a time lands on the same x in both.
PixelSpan sharedTimeSpan(const PixelSpan &a, const PixelSpan &b);

// Never closer than 0.01 step per 1000 px; never further out than the run plus a margin.
inline constexpr double kMinTicksPerPixel = 0.01;
// The margin around a fitted run, as a share of its end time (at least a few ticks).
inline constexpr double kFitMargin = 0.02;

// The time range one may look at for a run ending at `end` (an empty run counts as one step).
std::pair<double, double> timeBounds(core::SimTime end);
// Keeps the span within the zoom limits and the range inside timeBounds(end).
TimeAxis clamped(TimeAxis axis, core::SimTime end);
// The whole run with its margin.
TimeAxis fitted(TimeAxis axis, core::SimTime end);
// Zooms in by factor (> 1) or out (< 1) keeping the time under pixel x where it is.
TimeAxis zoomed(const TimeAxis &axis, double factor, double x, core::SimTime end);
// Moves the view by dx pixels: positive dx shows earlier times (the content follows the mouse).
TimeAxis panned(const TimeAxis &axis, double dx, core::SimTime end);

// The vertical layout: an axis band on top, then one row per shown rank, scrolled up under the
// band by `scroll` pixels when they do not all fit.
struct RowLayout {
    int rows = 0;
    double axisHeight = 28.0;
    double rowHeight = 32.0;
    double labelWidth = 72.0;  // the rank-label column at the left of every row
    double blockPadding = 4.0; // space above and below a block inside its row
    double scroll = 0.0;       // pixels, >= 0
    std::vector<int> ranks{};  // the rank of each row, ascending; empty: row r is rank r

    double rowTop(int row) const { return axisHeight + row * rowHeight - scroll; }
    double height() const { return rowTop(rows); } // the bottom of the last row, as scrolled
    double contentHeight() const { return axisHeight + rows * rowHeight; } // unscrolled
    int rankOf(int row) const;
    std::optional<int> rowOf(int rank) const; // nullopt for a rank not shown
    std::optional<int> rowAt(double y) const; // nullopt over the axis band and below the rows
    bool operator==(const RowLayout &) const = default;
};

// The first row that shows at least partly below the axis band.
int firstRowInView(const RowLayout &layout);
// The row after the last that shows at least partly in a view `height` pixels tall.
int rowsInView(const RowLayout &layout, double height);
// How far the rows can scroll in a view `height` pixels tall (0 when they all fit), in whole rows:
// the rows scroll a row at a time, so that the top row below the axis band always shows whole.
double maxScroll(const RowLayout &layout, double height);
// `pixels` of scroll rounded to whole rows, within [0, maxScroll].
double wholeRowScroll(const RowLayout &layout, double height, double pixels);
// The scroll that shows `row` whole below the axis band in a view `height` pixels tall, moving
// the rows by as few whole rows as it can (as an editor keeps its cursor's line in view): the
// layout's own scroll when the row shows whole already or does not exist.
double scrollShowingRow(const RowLayout &layout, double height, int row);

// Rows never get thinner than this in a figure, however many ranks share its height.
inline constexpr double kMinFigureRowHeight = 4.0;
// Rows as tall as preferred, shrunk down to minRowHeight so that every rank fits in height;
// below that they keep minRowHeight and the view scrolls (maxScroll).
RowLayout fitRows(RowLayout layout, double availableHeight, double preferredRowHeight,
                  double minRowHeight = kMinFigureRowHeight);

// Zero-length events (the loss) are drawn this wide and can be hit this wide around their time.
inline constexpr double kMarkWidth = 3.0;
inline constexpr double kMinHitWidth = 7.0;

// The block of an event as drawn (zero-length events: a kMarkWidth mark centered on the time).
QRectF eventRect(const core::Event &event, const RowLayout &layout, const TimeAxis &axis);

// One rank's events, for finding by binary search the few a view or a step touches. A rank's
// clock never goes back, so a simulated run's events of a rank are in start order and each ends by
// the next one's end: such a rank keeps its events' indices only (4 bytes an event), and the
// rest is read from the events themselves. At 16,384 ranks the four lists of 8 bytes an event it
// kept for every rank held 0.6 GB. A rank that breaks that order (a hand-made trace) keeps the
// lists. Points into the trace it was made of, which must outlive it.
class RankEvents
{
public:
    RankEvents() = default;
    // `inOrder`: the caller found the events' starts and ends in order (the compact case) as it
    // listed them; false: found here.
    RankEvents(const core::Trace &trace, std::vector<std::uint32_t> indices, bool inOrder = false);

    std::size_t size() const { return m_byIndex.size(); }
    bool empty() const { return m_byIndex.empty(); }
    // The k-th event in the trace's order (ascending indices).
    std::size_t byIndex(std::size_t k) const { return m_byIndex[k]; }
    // The k-th event by start time (then index).
    std::size_t byStart(std::size_t k) const
    {
        return m_byStart.empty() ? m_byIndex[k] : m_byStart[k];
    }
    // Ticks: the latest end among the first k + 1 events by start.
    std::int64_t endSoFar(std::size_t k) const;
    // The earliest-starting event among byIndex(k) and those after it (of equal starts, the last).
    std::size_t firstLater(std::size_t k) const;
    // Whether the rank keeps only its indices (its events in start order, their ends too).
    bool compact() const { return m_byStart.empty() && m_endSoFar.empty(); }

private:
    const core::Trace *m_trace = nullptr;
    std::vector<std::uint32_t> m_byIndex;    // event indices, ascending
    std::vector<std::uint32_t> m_byStart;    // empty: as m_byIndex (in start order)
    std::vector<std::int64_t> m_endSoFar;    // empty: each event's own end (ends in start order)
    std::vector<std::uint32_t> m_firstLater; // empty: found by binary search (in start order)
};

// Per rank (config.ranks of them, or more if events say so), its events indexed.
std::vector<RankEvents> indexByRank(const core::Trace &trace);
// The same with each rank's count of events known (scanTrace's eventsOfRank, whose size is the
// ranks'): one pass over the events.
std::vector<RankEvents> indexByRank(const core::Trace &trace,
                                    const std::vector<std::uint32_t> &eventsOfRank);
// The positions [first, last) in rank.byStart() of the events that can show between the ticks
// from and to (a zero-length mark reaches `reach` ticks either side of its time).
std::pair<std::size_t, std::size_t> eventsBetween(const core::Trace &trace, const RankEvents &rank,
                                                  double from, double to, double reach);
// Where the rank's ghosted events begin once the first `applied` events of the trace are
// applied: its earliest-starting event not yet applied; nullopt when all are.
std::optional<std::size_t> firstGhost(const RankEvents &rank, std::size_t applied);
// The rank's last event (in trace order) among the first `applied`; nullopt before its first.
std::optional<std::size_t> lastApplied(const RankEvents &rank, std::size_t applied);

// The event under point; where blocks overlap (a loss mark on its neighbours) the narrowest wins,
// then the first in the trace. With ranks (indexByRank of trace), by binary search in its row.
std::optional<std::size_t> hitTest(const core::Trace &trace, const RowLayout &layout,
                                   const TimeAxis &axis, QPointF point,
                                   const std::vector<RankEvents> *ranks = nullptr);

// Each pass_to and the receive of the same message, as event indices (sender, receiver).
std::vector<std::pair<std::size_t, std::size_t>> messageLinks(const core::Trace &trace);

// A 1, 2 or 5 × 10^k step in whole ticks leaving at least minGap pixels between ticks.
core::SimTime tickStep(const TimeAxis &axis, double minGap);
// The multiples of step inside the axis's range, in order.
std::vector<core::SimTime> ticks(const TimeAxis &axis, core::SimTime step);

} // namespace rankstep::gui
