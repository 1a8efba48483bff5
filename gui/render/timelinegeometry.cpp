// SPDX-License-Identifier: MIT
#include "timelinegeometry.h"

#include "tracescan.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rankstep::gui {

using core::SimTime;

namespace {

double minSpan(const TimeAxis &axis)
{
    return kMinTicksPerPixel * axis.width;
}

} // namespace

SimTime TimeAxis::timeAt(double x) const
{
    return SimTime::fromTicks(std::llround(ticksAt(x)));
}

double cursorLineX(const TimeAxis &axis, SimTime time)
{
    return std::round(axis.toX(time));
}

std::optional<double> timestepsMarkX(const core::Trace &trace, const TimeAxis &axis, double left,
                                     double right)
{
    if (trace.status != core::RunStatus::Ok || trace.events.empty())
        return std::nullopt;
    const double x = cursorLineX(axis, trace.figures.timesteps);
    if (x < left || x > right)
        return std::nullopt;
    return x;
}

PixelSpan sharedTimeSpan(const PixelSpan &a, const PixelSpan &b)
{
    return {std::max(a.left, b.left), std::min(a.right, b.right)};
}

std::pair<double, double> timeBounds(SimTime end)
{
    const double last = end.ticks() > 0 ? double(end.ticks()) : double(SimTime::kTicksPerStep);
    const double margin = std::max(last * kFitMargin, 5.0);
    return {-margin, last + margin};
}

TimeAxis clamped(TimeAxis axis, SimTime end)
{
    const auto [lo, hi] = timeBounds(end);
    const double span = std::clamp(axis.span(), std::min(minSpan(axis), hi - lo), hi - lo);
    if (span != axis.span()) {
        const double center = (axis.from + axis.to) / 2.0;
        axis.from = center - span / 2.0;
        axis.to = center + span / 2.0;
    }
    if (axis.from < lo) {
        axis.from = lo;
        axis.to = lo + span;
    } else if (axis.to > hi) {
        axis.to = hi;
        axis.from = hi - span;
    }
    return axis;
}

TimeAxis fitted(TimeAxis axis, SimTime end)
{
    std::tie(axis.from, axis.to) = timeBounds(end);
    return axis;
}

TimeAxis zoomed(const TimeAxis &axis, double factor, double x, SimTime end)
{
    const auto [lo, hi] = timeBounds(end);
    const double anchor = axis.ticksAt(x);
    const double span = std::clamp(axis.span() / factor, std::min(minSpan(axis), hi - lo), hi - lo);
    TimeAxis result = axis;
    result.from = anchor - (x - axis.left) * span / axis.width;
    result.to = result.from + span;
    return clamped(result, end);
}

TimeAxis panned(const TimeAxis &axis, double dx, SimTime end)
{
    TimeAxis result = axis;
    const double shift = dx * axis.ticksPerPixel();
    result.from -= shift;
    result.to -= shift;
    return clamped(result, end);
}

int RowLayout::rankOf(int row) const
{
    return ranks.empty() || row < 0 || row >= int(ranks.size()) ? row : ranks[std::size_t(row)];
}

std::optional<int> RowLayout::rowOf(int rank) const
{
    if (ranks.empty()) {
        return rank >= 0 && rank < rows ? std::optional<int>(rank) : std::nullopt;
    }
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), rank);
    if (it == ranks.end() || *it != rank || int(it - ranks.begin()) >= rows) {
        return std::nullopt;
    }
    return int(it - ranks.begin());
}

std::optional<int> RowLayout::rowAt(double y) const
{
    if (y < axisHeight || rowHeight <= 0.0) {
        return std::nullopt;
    }
    const int row = int(std::floor((y + scroll - axisHeight) / rowHeight));
    if (row >= rows) {
        return std::nullopt;
    }
    return row;
}

int firstRowInView(const RowLayout &layout)
{
    if (layout.rowHeight <= 0.0) {
        return 0;
    }
    return std::clamp(int(std::floor(layout.scroll / layout.rowHeight)), 0, layout.rows);
}

int rowsInView(const RowLayout &layout, double height)
{
    if (layout.rowHeight <= 0.0 || height <= layout.axisHeight) {
        return 0;
    }
    const double shown = std::ceil((height - layout.axisHeight + layout.scroll) / layout.rowHeight);
    return int(std::min(double(layout.rows), shown));
}

// In whole rows: the last scroll shows the last row whole, the rows' band below it left empty.
double maxScroll(const RowLayout &layout, double height)
{
    const double over = layout.contentHeight() - height;
    if (over <= 0.0)
        return 0.0;
    return layout.rowHeight > 0.0 ? std::ceil(over / layout.rowHeight - 1e-9) * layout.rowHeight
                                  : over;
}

double wholeRowScroll(const RowLayout &layout, double height, double pixels)
{
    const double rows = layout.rowHeight > 0.0 ? std::round(pixels / layout.rowHeight) : 0.0;
    return std::clamp(rows * layout.rowHeight, 0.0, maxScroll(layout, height));
}

double scrollShowingRow(const RowLayout &layout, double height, int row)
{
    if (row < 0 || row >= layout.rows)
        return layout.scroll;
    const double top = row * layout.rowHeight; // below the axis band, unscrolled
    const double bottom = top + layout.rowHeight;
    const double band = std::max(0.0, height - layout.axisHeight); // the rows' part of the view
    double scroll = layout.scroll;
    if (top < scroll) {
        scroll = top;
    } else if (bottom > scroll + band) {
        // The fewest whole rows up that bring it in; a row taller than the band shows its top.
        const double rows = std::ceil((bottom - band) / layout.rowHeight - 1e-9);
        scroll = std::min(top, rows * layout.rowHeight);
    }
    return std::clamp(scroll, 0.0, maxScroll(layout, height));
}

RowLayout fitRows(RowLayout layout, double availableHeight, double preferredRowHeight,
                  double minRowHeight)
{
    layout.rowHeight = preferredRowHeight;
    if (layout.rows > 0 && layout.contentHeight() > availableHeight) {
        const double share = std::floor((availableHeight - layout.axisHeight) / layout.rows);
        layout.rowHeight = std::max(std::min(minRowHeight, preferredRowHeight), share);
    }
    layout.blockPadding = layout.rowHeight >= 20.0 ? 4.0 : std::floor(layout.rowHeight / 6.0);
    return layout;
}

QRectF eventRect(const core::Event &event, const RowLayout &layout, const TimeAxis &axis)
{
    const std::optional<int> row = layout.rowOf(event.rank);
    if (!row) {
        return {}; // a rank not shown
    }
    const double top = layout.rowTop(*row) + layout.blockPadding;
    const double height = layout.rowHeight - 2.0 * layout.blockPadding;
    const double x1 = axis.toX(event.start);
    if (event.duration.ticks() == 0) {
        return QRectF(x1 - kMarkWidth / 2.0, top, kMarkWidth, height);
    }
    return QRectF(x1, top, axis.toX(event.end()) - x1, height);
}

RankEvents::RankEvents(const core::Trace &trace, std::vector<std::uint32_t> indices, bool inOrder)
    : m_trace(&trace), m_byIndex(std::move(indices))
{
    if (inOrder)
        return;
    const auto &events = trace.events;
    const auto earlier = [&](std::uint32_t a, std::uint32_t b) {
        return events[a].start < events[b].start;
    };
    // A rank's clock never goes back, so its events are in start order already: the sort
    // (a fifth of showing a million events) and the lists below are only for a trace that breaks
    // that.
    if (!std::is_sorted(m_byIndex.begin(), m_byIndex.end(), earlier)) {
        m_byStart = m_byIndex;
        std::stable_sort(m_byStart.begin(), m_byStart.end(), earlier);
        m_firstLater.resize(m_byIndex.size());
        for (std::size_t k = m_byIndex.size(); k-- > 0;) {
            const std::uint32_t i = m_byIndex[k];
            const bool later =
                k + 1 < m_byIndex.size() && events[m_firstLater[k + 1]].start <= events[i].start;
            m_firstLater[k] = later ? m_firstLater[k + 1] : i;
        }
    }
    const auto endsInOrder = [&] {
        for (std::size_t k = 1; k < size(); ++k)
            if (events[byStart(k)].end() < events[byStart(k - 1)].end())
                return false;
        return true;
    };
    if (endsInOrder())
        return;
    m_endSoFar.reserve(size());
    std::int64_t latest = std::numeric_limits<std::int64_t>::min();
    for (std::size_t k = 0; k < size(); ++k) {
        latest = std::max(latest, events[byStart(k)].end().ticks());
        m_endSoFar.push_back(latest);
    }
}

std::int64_t RankEvents::endSoFar(std::size_t k) const
{
    return m_endSoFar.empty() ? m_trace->events[byStart(k)].end().ticks() : m_endSoFar[k];
}

std::size_t RankEvents::firstLater(std::size_t k) const
{
    if (!m_firstLater.empty())
        return m_firstLater[k];
    // In start order: the last of the events from k on that start when byIndex(k) does.
    const auto &events = m_trace->events;
    const core::SimTime start = events[m_byIndex[k]].start;
    const auto after =
        std::upper_bound(m_byIndex.begin() + std::ptrdiff_t(k), m_byIndex.end(), start,
                         [&](core::SimTime t, std::uint32_t i) { return t < events[i].start; });
    return *std::prev(after);
}

std::vector<RankEvents> indexByRank(const core::Trace &trace)
{
    return indexByRank(trace, scanTrace(trace).eventsOfRank);
}

std::vector<RankEvents> indexByRank(const core::Trace &trace,
                                    const std::vector<std::uint32_t> &eventsOfRank)
{
    // Each rank's list made at its size (grown by doubling, 16,384 ranks' lists were copied about
    // twice and held twice their room at times). An index fits 32 bits: a trace holds at most
    // core::kMostTraceEvents events.
    std::vector<std::vector<std::uint32_t>> indices(eventsOfRank.size());
    for (std::size_t r = 0; r < indices.size(); ++r) {
        indices[r].reserve(eventsOfRank[r]);
    }
    // Whether each rank's events start, and end, in the trace's order (a simulated run's do),
    // found in this pass: read through each rank's list, the events of 16,384 ranks were a read
    // from far apart in memory for every event, twice.
    struct Order {
        core::SimTime start, end; // the rank's last event's
        bool kept = true;
    };
    std::vector<Order> order(indices.size());
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const core::Event &event = trace.events[i];
        const auto rank = std::size_t(event.rank);
        if (event.rank < 0 || rank >= indices.size()) {
            continue;
        }
        Order &last = order[rank];
        if (!indices[rank].empty() && (event.start < last.start || event.end() < last.end)) {
            last.kept = false;
        }
        last.start = event.start;
        last.end = event.end();
        indices[rank].push_back(std::uint32_t(i));
    }
    std::vector<RankEvents> ranks;
    ranks.reserve(indices.size());
    for (std::size_t r = 0; r < indices.size(); ++r) {
        ranks.emplace_back(trace, std::move(indices[r]), order[r].kept);
    }
    return ranks;
}

std::pair<std::size_t, std::size_t> eventsBetween(const core::Trace &trace, const RankEvents &rank,
                                                  double from, double to, double reach)
{
    // Binary searches over the positions by start.
    std::size_t lo = 0, hi = rank.size(); // the first whose latest end so far reaches from
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (double(rank.endSoFar(mid)) < from - reach)
            lo = mid + 1;
        else
            hi = mid;
    }
    const std::size_t first = lo;
    hi = rank.size(); // the first that starts after to
    lo = 0;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (to + reach < double(trace.events[rank.byStart(mid)].start.ticks()))
            hi = mid;
        else
            lo = mid + 1;
    }
    return {first, std::max(first, lo)};
}

std::optional<std::size_t> hitTest(const core::Trace &trace, const RowLayout &layout,
                                   const TimeAxis &axis, QPointF point,
                                   const std::vector<RankEvents> *ranks)
{
    const std::optional<int> row = layout.rowAt(point.y());
    if (!row) {
        return std::nullopt;
    }
    std::optional<std::size_t> best;
    double bestWidth = 0.0;
    const auto consider = [&](std::size_t i) {
        QRectF rect = eventRect(trace.events[i], layout, axis);
        const double grow = std::max(0.0, (kMinHitWidth - rect.width()) / 2.0);
        rect.adjust(-grow, 0.0, grow, 0.0);
        const bool inside = point.x() >= rect.left() && point.x() <= rect.right();
        const bool better =
            !best || rect.width() < bestWidth || (rect.width() == bestWidth && i < *best);
        if (inside && better) {
            best = i;
            bestWidth = rect.width();
        }
    };
    const int shown = layout.rankOf(*row);
    if (ranks && shown >= 0 && shown < int(ranks->size())) {
        const RankEvents &rank = (*ranks)[std::size_t(shown)];
        const double t = axis.ticksAt(point.x());
        const double reach = (kMinHitWidth + kMarkWidth) * axis.ticksPerPixel();
        const auto [first, last] = eventsBetween(trace, rank, t, t, reach);
        for (std::size_t k = first; k < last; ++k) {
            consider(rank.byStart(k));
        }
        return best;
    }
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        if (trace.events[i].rank == shown) {
            consider(i);
        }
    }
    return best;
}

namespace {

// The position of the rank's first event not among the first `applied` of the trace.
std::size_t firstUnapplied(const RankEvents &rank, std::size_t applied)
{
    std::size_t lo = 0, hi = rank.size();
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (rank.byIndex(mid) < applied)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

} // namespace

std::optional<std::size_t> firstGhost(const RankEvents &rank, std::size_t applied)
{
    const std::size_t k = firstUnapplied(rank, applied);
    if (k == rank.size()) {
        return std::nullopt;
    }
    return rank.firstLater(k);
}

std::optional<std::size_t> lastApplied(const RankEvents &rank, std::size_t applied)
{
    const std::size_t k = firstUnapplied(rank, applied);
    if (k == 0) {
        return std::nullopt;
    }
    return rank.byIndex(k - 1);
}

std::vector<std::pair<std::size_t, std::size_t>> messageLinks(const core::Trace &trace)
{
    // The sends by their link, in one list sorted once, given back whole: a hash map of a node
    // for each send left 20 MiB of small blocks freed in the heap at 16,384 ranks (491,520 sends,
    // docs/benchmarks.md). Of equal links the first send meets the receives.
    struct Send {
        std::int64_t link;
        std::size_t event;
        bool operator<(const Send &other) const
        {
            return link != other.link ? link < other.link : event < other.event;
        }
    };
    std::vector<Send> sent;
    std::size_t receives = 0;
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const core::Event &event = trace.events[i];
        // A message of a profile has no link (-1): no arrow rather than one to every receive.
        if (event.op == core::OpKind::PassTo && event.link >= 0) {
            sent.push_back({event.link, i});
        }
        receives += event.op == core::OpKind::Receive ? 1 : 0;
    }
    std::sort(sent.begin(), sent.end());
    std::vector<std::pair<std::size_t, std::size_t>> links;
    links.reserve(std::min(receives, sent.size()));
    for (std::size_t i = 0; i < trace.events.size() && !sent.empty(); ++i) {
        if (trace.events[i].op != core::OpKind::Receive) {
            continue;
        }
        const std::int64_t link = trace.events[i].link;
        const auto it = std::lower_bound(sent.begin(), sent.end(), Send{link, 0});
        if (it != sent.end() && it->link == link) {
            links.emplace_back(it->event, i);
        }
    }
    return links;
}

SimTime tickStep(const TimeAxis &axis, double minGap)
{
    const double wanted = minGap * axis.ticksPerPixel();
    if (!(wanted < 1e15)) { // a degenerate axis: one tick at most
        return SimTime::fromTicks(std::int64_t(1e15));
    }
    for (std::int64_t base = 1;; base *= 10) {
        for (std::int64_t multiple : {1, 2, 5}) {
            if (double(base * multiple) >= wanted) {
                return SimTime::fromTicks(base * multiple);
            }
        }
    }
}

std::vector<SimTime> ticks(const TimeAxis &axis, SimTime step)
{
    std::vector<SimTime> result;
    const double size = double(step.ticks());
    if (size <= 0.0) {
        return result;
    }
    const auto first = std::max<std::int64_t>(0, std::int64_t(std::ceil(axis.from / size)));
    const auto last = std::int64_t(std::floor(axis.to / size));
    for (std::int64_t k = first; k <= last; ++k) {
        result.push_back(step * k);
    }
    return result;
}

} // namespace rankstep::gui
