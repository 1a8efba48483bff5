// SPDX-License-Identifier: MIT
#include "timelinepainter.h"

#include "legendpainter.h"
#include "palette.h"
#include "timelinetext.h"

#include <QFontMetricsF>
#include <QLineF>
#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rankstep::gui {

namespace {

constexpr double kGhostOpacity = 0.18;
constexpr double kMinTickGap = 90.0; // pixels between labeled ticks
constexpr double kArrowHead = 6.0;
// No label fits a narrower block: 6 pixels of margin plus at least one glyph.
constexpr double kMinLabelWidth = 11.0;
const QColor kCursorColor(0x1f, 0x5f, 0xd0);
const QColor kTimestepsColor(0xa8, 0x4b, 0x00); // apart from the cursor's blue

QFont sized(QFont font, double points, double zoom)
{
    font.setPointSizeF(points * zoom);
    return font;
}

} // namespace

TimelinePainter::TimelinePainter(QPainter &painter, const TimelineScene &scene)
    : m_painter(painter)
    , m_scene(scene)
    , m_trace(*scene.trace)
    , m_tickStep(tickStep(scene.axis, kMinTickGap))
    , m_ranks(scene.ranks)
{
    if (!m_ranks) {
        m_ownRanks = indexByRank(m_trace);
        m_ranks = &m_ownRanks;
    }
}

void TimelinePainter::paint()
{
    paintBase(Ghosting::ByEvent);
    paintOverlay();
}

void TimelinePainter::paintBase(Ghosting ghosting)
{
    m_painter.fillRect(m_scene.bounds, m_scene.palette.base());
    paintRows();
    m_painter.save();
    m_painter.setClipRect(timeArea());
    paintGrid();
    paintGaps();
    paintBlocks(ghosting);
    paintStreams();
    m_painter.restore();
    paintLabels();
    paintAxis();
}

void TimelinePainter::paintOverlay()
{
    m_painter.save();
    m_painter.setClipRect(timeArea());
    paintArrows();
    paintRunning();
    paintHighlight();
    paintHovered();
    m_painter.restore();
    paintCursor();
}

void TimelinePainter::paintPlaceholder(QPainter &painter, const QRect &bounds,
                                       const QPalette &palette, const QFont &font,
                                       const QString &text, double zoom)
{
    painter.fillRect(bounds, palette.base());
    painter.setFont(sized(font, 11, zoom));
    painter.setPen(palette.color(QPalette::PlaceholderText));
    painter.drawText(bounds, Qt::AlignCenter | Qt::TextWordWrap, text);
}

QRectF TimelinePainter::timeArea() const
{
    const RowLayout &l = m_scene.layout;
    // Below the axis band, which scrolled rows pass under.
    return QRectF(l.labelWidth, l.axisHeight, m_scene.bounds.width() - l.labelWidth,
                  std::max(0.0, l.height() - l.axisHeight));
}

bool TimelinePainter::isGhost(std::size_t index) const
{
    if (!m_scene.ghostAfter)
        return false;
    const auto rank = std::size_t(m_trace.events[index].rank);
    if (rank < m_scene.rankGhostAfter.size())
        return index >= m_scene.rankGhostAfter[rank];
    return index >= *m_scene.ghostAfter;
}

void TimelinePainter::paintRows()
{
    const RowLayout &l = m_scene.layout;
    const int rows = rowsInView(l, m_scene.bounds.height());
    for (int row = firstRowInView(l) | 1; row < rows; row += 2) {
        const QRectF band(0.0, l.rowTop(row), m_scene.bounds.width(), l.rowHeight);
        m_painter.fillRect(band, m_scene.palette.alternateBase());
    }
}

void TimelinePainter::paintGrid()
{
    QColor line = m_scene.palette.color(QPalette::Mid);
    line.setAlpha(70);
    m_painter.setPen(QPen(line, m_scene.look.scaled(1.0)));
    const double bottom = m_scene.layout.height();
    for (core::SimTime tick : ticks(m_scene.axis, m_tickStep)) {
        const double x = std::round(m_scene.axis.toX(tick)) + 0.5;
        m_painter.drawLine(QPointF(x, m_scene.layout.axisHeight), QPointF(x, bottom));
    }
}

void TimelinePainter::paintBlocks(Ghosting ghosting)
{
    const QRectF area = timeArea();
    const TimeAxis &axis = m_scene.axis;
    const double reach = 3.0 * axis.ticksPerPixel(); // a loss mark and its halo
    m_drawnBlocks = 0;
    const int rows = rowsInView(m_scene.layout, m_scene.bounds.height()); // the rest is cut off
    for (int row = firstRowInView(m_scene.layout); row < rows; ++row) {
        const int shown = m_scene.layout.rankOf(row);
        if (shown < 0 || shown >= int(m_ranks->size())) {
            continue;
        }
        const RankEvents &rank = (*m_ranks)[std::size_t(shown)];
        const auto [first, last] = eventsBetween(m_trace, rank, axis.ticksAt(area.left()),
                                                 axis.ticksAt(area.right()), reach);
        paintRow(rank, first, last, ghosting);
    }
    m_painter.setOpacity(1.0);
}

// Level of detail, as profilers draw dense tracks: an event at least kMinBlockPixels wide is its
// own block; narrower ones merge into runs of whole pixel columns in the fill of the first, so
// every column where the rank worked shows, however many events share it. Each block or run
// paints at least one column not painted before: at most about one fill per pixel column.
void TimelinePainter::paintRow(const RankEvents &rank, std::size_t first, std::size_t last,
                               Ghosting ghosting)
{
    const QRectF area = timeArea();
    // Far outside the view, x only needs to stay outside it (and inside an int).
    const double lo = area.left() - 4.0, hi = area.right() + 4.0;
    std::optional<ColumnRun> run;
    int coveredTo = std::numeric_limits<int>::min(); // columns left of it are painted
    for (std::size_t k = first; k < last; ++k) {
        const std::size_t i = rank.byStart(k);
        const core::Event &event = m_trace.events[i];
        QRectF rect = eventRect(event, m_scene.layout, m_scene.axis);
        rect.setLeft(std::clamp(rect.left(), lo, hi));
        rect.setRight(std::clamp(rect.right(), lo, hi));
        const int left = int(std::floor(rect.left()));
        const int right = std::max(left + 1, int(std::ceil(rect.right())));
        if (right <= coveredTo)
            continue; // every column it touches is painted already
        const bool ghost =
            ghosting == Ghosting::All || (ghosting == Ghosting::ByEvent && isGhost(i));
        const bool block = event.duration.ticks() == 0 ||
                           std::round(rect.right()) - std::round(rect.left()) >= kMinBlockPixels;
        if (block) {
            paintRun(run);
            m_painter.setOpacity(ghost ? kGhostOpacity : 1.0);
            paintBlock(i, rect);
            ++m_drawnBlocks;
            coveredTo = std::max(coveredTo, int(std::round(rect.right())));
            continue;
        }
        const int from = std::max(left, coveredTo);
        if (run && run->ghost == ghost && from <= run->right &&
            fillOf(m_trace.events[run->event]) == fillOf(event)) {
            run->right = std::max(run->right, right);
        } else {
            paintRun(run);
            run = ColumnRun{i, from, right, ghost};
        }
        coveredTo = std::max(coveredTo, right);
    }
    paintRun(run);
}

void TimelinePainter::paintRun(std::optional<ColumnRun> &run)
{
    if (!run)
        return;
    const core::Event &event = m_trace.events[run->event];
    const RowLayout &l = m_scene.layout;
    const std::optional<int> row = l.rowOf(event.rank); // the rank's row among those shown
    if (!row) {
        run.reset();
        return;
    }
    const double top = std::round(l.rowTop(*row) + l.blockPadding);
    const double bottom = std::round(l.rowTop(*row) + l.rowHeight - l.blockPadding);
    m_painter.setOpacity(run->ghost ? kGhostOpacity : 1.0);
    m_painter.fillRect(QRect(run->left, int(top), run->right - run->left, int(bottom - top)),
                       fillOf(event));
    ++m_drawnBlocks;
    run.reset();
}

void TimelinePainter::paintHovered()
{
    if (!m_scene.hovered || *m_scene.hovered >= m_trace.events.size()) {
        return;
    }
    const core::Event &event = m_trace.events[*m_scene.hovered];
    const std::optional<int> row = m_scene.layout.rowOf(event.rank);
    if (!row || *row < firstRowInView(m_scene.layout) ||
        *row >= rowsInView(m_scene.layout, m_scene.bounds.height())) {
        return;
    }
    QRectF rect = eventRect(event, m_scene.layout, m_scene.axis);
    const QRectF area = timeArea(); // a block far wider than the view: its edges just outside
    rect.setLeft(std::clamp(rect.left(), area.left() - 4.0, area.right() + 4.0));
    rect.setRight(std::clamp(rect.right(), area.left() - 4.0, area.right() + 4.0));
    if (!isGhost(*m_scene.hovered)) { // a ghost keeps its faint fill under the outline
        paintBlock(*m_scene.hovered, rect);
    }
    const QRect pixels(
        QPoint(int(std::round(rect.left())), int(std::round(rect.top()))),
        QPoint(int(std::round(rect.right())) - 1, int(std::round(rect.bottom())) - 1));
    m_painter.setPen(QPen(m_scene.palette.color(QPalette::Text), m_scene.look.scaled(2.0)));
    m_painter.drawRect(QRectF(pixels).adjusted(0.0, 0.0, -1.0, -1.0));
}

void TimelinePainter::paintRunning()
{
    const int rows = rowsInView(m_scene.layout, m_scene.bounds.height());
    for (const std::size_t index : m_scene.running) {
        if (index >= m_trace.events.size())
            continue;
        const core::Event &event = m_trace.events[index];
        const std::optional<int> row = m_scene.layout.rowOf(event.rank); // shown ranks only
        if (!row || *row < firstRowInView(m_scene.layout) || *row >= rows ||
            event.duration.ticks() == 0)
            continue;
        const QRectF rect = eventRect(event, m_scene.layout, m_scene.axis);
        const QRect pixels(
            QPoint(int(std::round(rect.left())), int(std::round(rect.top()))),
            QPoint(int(std::round(rect.right())) - 1, int(std::round(rect.bottom())) - 1));
        const QColor fill = fillOf(event);
        // Faint with stripes where it has still to run, solid up to the cursor.
        m_painter.fillRect(pixels, m_scene.palette.base());
        m_painter.setOpacity(kGhostOpacity);
        m_painter.fillRect(pixels, fill);
        m_painter.setOpacity(1.0);
        m_painter.fillRect(pixels, QBrush(fill.darker(115), Qt::BDiagPattern));
        if (m_scene.cursor) {
            const double x =
                std::clamp(m_scene.axis.toX(*m_scene.cursor), rect.left(), rect.right());
            m_painter.fillRect(QRectF(QPointF(pixels.left(), pixels.top()),
                                      QPointF(std::round(x), pixels.bottom() + 1.0)),
                               fill);
        }
        m_painter.setPen(fill.darker(135));
        m_painter.drawRect(pixels.adjusted(0, 0, -1, -1));
    }
}

// A rank waiting: a dotted band between its operations, unlike communication's blocks
// and compute's fills. One fill per gap in view (never per unit of time).
void TimelinePainter::paintGaps()
{
    if (!m_scene.gaps)
        return;
    const RowLayout &l = m_scene.layout;
    const QRectF area = timeArea();
    const int rows = rowsInView(l, m_scene.bounds.height());
    QColor dots = m_scene.palette.color(QPalette::Text);
    dots.setAlpha(90);
    const QBrush brush(dots, Qt::Dense6Pattern);
    for (const explain::Wait &gap : *m_scene.gaps) {
        const std::optional<int> row = l.rowOf(gap.rank);
        if (!row || *row < firstRowInView(l) || *row >= rows)
            continue;
        const double left = std::max(m_scene.axis.toX(gap.from), area.left() - 1.0);
        const double right = std::min(m_scene.axis.toX(gap.to), area.right() + 1.0);
        if (right - left < 1.0)
            continue;
        const double top = l.rowTop(*row) + l.rowHeight * 0.35;
        m_painter.fillRect(QRectF(left, top, right - left, l.rowHeight * 0.3), brush);
    }
}

// The highlighted events outlined in the highlight color, each linked to the next one by a line
// from where one ends to where the next starts (across ranks: the chain of causes).
void TimelinePainter::paintHighlight()
{
    if (!m_scene.highlight || m_scene.highlight->empty())
        return;
    const QColor color = m_scene.palette.color(QPalette::Highlight);
    m_painter.setPen(QPen(color, m_scene.look.scaled(2.5)));
    m_painter.setBrush(Qt::NoBrush);
    QRectF previous; // empty: no linked block before
    for (const std::size_t index : *m_scene.highlight) {
        if (index >= m_trace.events.size())
            continue;
        const QRectF rect = eventRect(m_trace.events[index], m_scene.layout, m_scene.axis);
        if (rect.height() <= 0.0) { // a rank not shown
            previous = QRectF();
            continue;
        }
        m_painter.drawRect(rect.adjusted(-1.0, -1.0, 1.0, 1.0));
        if (previous.height() > 0.0)
            m_painter.drawLine(QPointF(previous.right(), previous.center().y()),
                               QPointF(rect.left(), rect.center().y()));
        previous = rect;
    }
}

void TimelinePainter::paintBlock(std::size_t index, const QRectF &rect)
{
    const core::Event &event = m_trace.events[index];
    const QColor fill = fillOf(event);
    // Whole pixels, so that neighbouring blocks meet without a seam and fills stay exact.
    const QRect pixels(
        QPoint(int(std::round(rect.left())), int(std::round(rect.top()))),
        QPoint(int(std::round(rect.right())) - 1, int(std::round(rect.bottom())) - 1));
    if (event.duration.ticks() == 0) {
        // The loss: a thin mark across the row, haloed so that it reads on a red block too.
        const QRect mark = pixels.adjusted(0, 2 - int(m_scene.layout.blockPadding), 0,
                                           int(m_scene.layout.blockPadding) - 2);
        m_painter.fillRect(mark.adjusted(-1, 0, 1, 0), m_scene.palette.base());
        m_painter.fillRect(mark, fill);
    } else if (core::isCommunication(event.op) && pixels.width() >= 4 &&
               m_scene.look.colors().hatchesCommunication()) {
        paintCommunication(event, pixels, fill);
    } else {
        m_painter.fillRect(pixels, fill);
        const QColor hatch = weightHatch(m_scene.look.colors(), event, m_trace.config.layers);
        if (hatch.isValid() && pixels.width() >= 4) // the weight gradient: striped, edged
            m_painter.fillRect(pixels, QBrush(hatch, Qt::FDiagPattern));
        if (pixels.width() >= 4) {
            m_painter.setPen(hatch.isValid() ? hatch : fill.darker(135));
            m_painter.drawRect(pixels.adjusted(0, 0, -1, -1));
        }
        // Centered on the part in view, so that a block wider than the view keeps its label.
        paintBlockLabel(event, QRectF(pixels).intersected(timeArea()), fill);
    }
}

// The communication streams (non-blocking collectives, Trace::overlapped): a lane along
// the bottom of each rank's row, over the compute it overlaps, so that compute and
// communication read as two streams of one rank.
void TimelinePainter::paintStreams()
{
    if (m_trace.overlapped.empty())
        return;
    const RowLayout &l = m_scene.layout;
    const QRectF area = timeArea();
    const int rows = rowsInView(l, m_scene.bounds.height());
    const double lane = std::max(4.0, std::round(l.rowHeight * 0.34));
    for (const core::Event &event : m_trace.overlapped) {
        const std::optional<int> row = l.rowOf(event.rank);
        if (!row || *row < firstRowInView(l) || *row >= rows)
            continue;
        const double left = std::max(m_scene.axis.toX(event.start), area.left() - 1.0);
        const double right = std::min(m_scene.axis.toX(event.end()), area.right() + 1.0);
        if (right - left < 1.0)
            continue;
        const double bottom = std::round(l.rowTop(*row) + l.rowHeight - 1.0);
        const QRect pixels(QPoint(int(std::round(left)), int(bottom - lane)),
                           QPoint(int(std::round(right)) - 1, int(bottom) - 1));
        paintCommunication(event, pixels, fillOf(event));
    }
}

// Communication is waiting and moving data, labelled with what it is ("AR L1", "→ 2"), never
// with batches: filled in its color as the notebook draws it, or in the color-blind-safe scheme an
// outlined, hatched block on the row's background, which no layer's compute looks like.
void TimelinePainter::paintCommunication(const core::Event &event, const QRect &pixels,
                                         const QColor &ink)
{
    if (!m_scene.look.colors().hatchesCommunication()) {
        m_painter.fillRect(pixels, ink);
        m_painter.setPen(ink.darker(135));
        m_painter.drawRect(pixels.adjusted(0, 0, -1, -1));
        paintBlockLabel(event, QRectF(pixels).intersected(timeArea()), ink);
        return;
    }
    const QColor background = m_scene.palette.base().color();
    m_painter.fillRect(pixels, background);
    m_painter.fillRect(pixels, QBrush(ink, Qt::BDiagPattern));
    m_painter.setPen(ink.darker(150));
    m_painter.drawRect(pixels.adjusted(0, 0, -1, -1));
    paintBlockLabel(event, QRectF(pixels).intersected(timeArea()), background);
}

QColor TimelinePainter::fillOf(const core::Event &event)
{
    // The palette mixes colors in floating point: once per op and layer, not once per block.
    const int layers = std::max(0, m_trace.config.layers);
    if (event.layer < -1 || event.layer > layers) {
        return m_scene.look.colors().event(event, m_trace.config.layers);
    }
    const std::size_t slot =
        std::size_t(event.op) * std::size_t(layers + 2) + std::size_t(event.layer + 1);
    if (m_fills.size() <= slot) {
        m_fills.resize(slot + 1);
    }
    if (!m_fills[slot].isValid()) {
        m_fills[slot] = m_scene.look.colors().event(event, m_trace.config.layers);
    }
    return m_fills[slot];
}

void TimelinePainter::paintBlockLabel(const core::Event &event, const QRectF &rect,
                                      const QColor &fill)
{
    if (rect.width() < kMinLabelWidth || rect.height() < 12.0) {
        return; // before building the text: most blocks of a long run are this narrow
    }
    const QString text = blockLabel(event);
    if (text.isEmpty()) {
        return;
    }
    for (double points : {10.0, 8.5}) { // smaller rather than none on a narrow block
        const QFont font = sized(m_scene.font, points, m_scene.look.zoom);
        if (QFontMetricsF(font).horizontalAdvance(text) + 6.0 > rect.width()) {
            continue;
        }
        m_painter.setFont(font);
        m_painter.setPen(Palette::textOn(fill));
        m_painter.drawText(rect, Qt::AlignCenter, text);
        return;
    }
}

std::vector<std::pair<std::size_t, std::size_t>> TimelinePainter::visibleLinks() const
{
    const QRectF area = timeArea();
    std::vector<std::pair<std::size_t, std::size_t>> visible;
    const auto own = m_scene.links ? decltype(messageLinks(m_trace))() : messageLinks(m_trace);
    for (const auto &link : m_scene.links ? *m_scene.links : own) {
        const core::Event &from = m_trace.events[link.first];
        const core::Event &to = m_trace.events[link.second];
        if (!m_scene.layout.rowOf(from.rank) || !m_scene.layout.rowOf(to.rank)) {
            continue;
        }
        const QRectF a = eventRect(from, m_scene.layout, m_scene.axis);
        const QRectF b = eventRect(to, m_scene.layout, m_scene.axis);
        if (std::max(a.right(), b.left()) < area.left() ||
            std::min(a.right(), b.left()) > area.right()) {
            continue;
        }
        if (a.width() < 1.0 && b.width() < 1.0) {
            continue; // both ends sub-pixel: a hair across blocks nobody can tell apart
        }
        visible.push_back(link);
    }
    return visible;
}

void TimelinePainter::paintArrows()
{
    m_drawnArrows = 0;
    std::vector<std::pair<std::size_t, std::size_t>> own;
    if (!m_scene.visibleLinks)
        own = visibleLinks();
    const auto &links = m_scene.visibleLinks ? *m_scene.visibleLinks : own;
    if (links.size() > kMaxArrows) {
        return;
    }
    m_painter.setRenderHint(QPainter::Antialiasing, true);
    for (const auto &[sent, received] : links) {
        const core::Event &from = m_trace.events[sent];
        const core::Event &to = m_trace.events[received];
        const QRectF a = eventRect(from, m_scene.layout, m_scene.axis);
        const QRectF b = eventRect(to, m_scene.layout, m_scene.axis);
        const bool down = to.rank > from.rank;
        m_painter.setOpacity(isGhost(sent) || isGhost(received) ? kGhostOpacity : 1.0);
        paintArrow(QPointF(a.right(), down ? a.bottom() : a.top()),
                   QPointF(b.left(), down ? b.top() : b.bottom()));
        ++m_drawnArrows;
    }
    m_painter.setOpacity(1.0);
    m_painter.setRenderHint(QPainter::Antialiasing, false);
}

void TimelinePainter::paintArrow(const QPointF &from, const QPointF &to)
{
    QColor ink = m_scene.palette.color(QPalette::Text);
    ink.setAlpha(170);
    m_painter.setPen(QPen(ink, m_scene.look.scaled(1.3)));
    m_painter.drawLine(from, to);
    const QLineF line(to, from);
    if (line.length() < 1.0) {
        return;
    }
    const QLineF unit = line.unitVector();
    const QPointF back = (unit.p2() - unit.p1()) * kArrowHead;
    const QPointF side(-back.y() * 0.5, back.x() * 0.5);
    m_painter.setBrush(ink);
    m_painter.drawPolygon(QPolygonF({to, to + back + side, to + back - side}));
    m_painter.setBrush(Qt::NoBrush);
}

void TimelinePainter::paintLabels()
{
    const RowLayout &l = m_scene.layout;
    m_painter.fillRect(QRectF(0.0, 0.0, l.labelWidth, l.height()), m_scene.palette.window());
    // Every row is labelled: in a smaller font where rows are thin (a figure of many ranks).
    QFont font = sized(m_scene.font, 10, m_scene.look.zoom);
    while (font.pointSizeF() > 5.0 && QFontMetricsF(font).height() > l.rowHeight + 2.0) {
        font.setPointSizeF(font.pointSizeF() - 0.5);
    }
    m_painter.setFont(font);
    // Only a figure squeezes rows below a label's height (a view scrolls): then every few rows.
    const int step =
        std::max(1, int(std::ceil(QFontMetricsF(font).height() / (l.rowHeight + 2.0))));
    m_painter.save();
    m_painter.setClipRect(QRectF(0.0, l.axisHeight, l.labelWidth, l.height() - l.axisHeight));
    const int rows = rowsInView(l, m_scene.bounds.height());
    for (int row = firstRowInView(l); row < rows; ++row) {
        const QRectF band(0.0, l.rowTop(row), l.labelWidth, l.rowHeight);
        m_painter.fillRect(QRectF(0.0, band.top() + 1.0, 4.0, band.height() - 2.0),
                           m_scene.look.colors().rank(l.rankOf(row)));
        if (row % step != 0) {
            continue;
        }
        m_painter.setPen(m_scene.palette.color(QPalette::WindowText));
        m_painter.drawText(band.adjusted(10.0, -20.0, -6.0, 20.0), Qt::AlignVCenter,
                           rankLabel(l.rankOf(row)));
    }
    m_painter.restore();
    m_painter.setPen(m_scene.palette.color(QPalette::Mid));
    m_painter.drawLine(QPointF(l.labelWidth - 0.5, 0.0), QPointF(l.labelWidth - 0.5, l.height()));
}

void TimelinePainter::paintAxis()
{
    const RowLayout &l = m_scene.layout;
    const QRectF band(0.0, 0.0, m_scene.bounds.width(), l.axisHeight);
    m_painter.fillRect(band.adjusted(l.labelWidth, 0.0, 0.0, 0.0), m_scene.palette.window());
    const QFont font = sized(m_scene.font, 10, m_scene.look.zoom);
    const QFontMetricsF metrics(font);
    m_painter.setFont(font);
    m_painter.setPen(m_scene.palette.color(QPalette::PlaceholderText));
    m_painter.drawText(QRectF(10.0, 0.0, l.labelWidth - 12.0, l.axisHeight), Qt::AlignVCenter,
                       m_scene.timeUnit);
    m_painter.setPen(m_scene.palette.color(QPalette::WindowText));
    for (core::SimTime tick : ticks(m_scene.axis, m_tickStep)) {
        const double x = std::round(m_scene.axis.toX(tick)) + 0.5;
        const QString text = QString::fromStdString(tick.toString());
        const double half = metrics.horizontalAdvance(text) / 2.0;
        m_painter.drawLine(QPointF(x, l.axisHeight - 5.0), QPointF(x, l.axisHeight));
        if (x - half < l.labelWidth + 2.0 || x + half > band.right() - 2.0) {
            continue;
        }
        m_painter.drawText(QRectF(x - half - 2.0, 0.0, 2.0 * half + 4.0, l.axisHeight - 5.0),
                           Qt::AlignCenter, text);
    }
    paintTimestepsMark();
    m_painter.setPen(m_scene.palette.color(QPalette::Mid));
    m_painter.drawLine(QPointF(0.0, l.axisHeight - 0.5), QPointF(band.right(), l.axisHeight - 0.5));
}

// The figure the results call Timesteps (docs/simulation.md) is the start of the last event of
// the rank that finished last, not the end of the run: a mark on the axis shows where it is, so
// that "Timesteps 5.1" beside a timeline running to 5.6 is not read as a mistake.
void TimelinePainter::paintTimestepsMark()
{
    const std::optional<double> x = timestepsMarkX(
        *m_scene.trace, m_scene.axis, m_scene.layout.labelWidth, m_scene.bounds.width());
    if (!x)
        return;
    const double size = 5.0 * m_scene.look.zoom;
    const double bottom = m_scene.layout.axisHeight - 1.0;
    const QPointF corners[] = {QPointF(*x - size, bottom - 1.6 * size),
                               QPointF(*x + size, bottom - 1.6 * size), QPointF(*x, bottom)};
    m_painter.save();
    m_painter.setRenderHint(QPainter::Antialiasing);
    m_painter.setPen(Qt::NoPen);
    m_painter.setBrush(kTimestepsColor);
    m_painter.drawPolygon(corners, 3);
    m_painter.restore();
}

void TimelinePainter::paintCursor()
{
    if (!m_scene.cursor) {
        return;
    }
    const double x = cursorLineX(m_scene.axis, *m_scene.cursor);
    if (x < m_scene.layout.labelWidth || x > m_scene.bounds.width()) {
        return;
    }
    paintCursorLine(m_painter, x, m_scene.layout.axisHeight - 6.0, m_scene.layout.height(),
                    m_scene.look.zoom);
}

void TimelinePainter::paintCursorLine(QPainter &painter, double x, double top, double bottom,
                                      double zoom)
{
    painter.fillRect(QRectF(x - zoom, top, 2.0 * zoom, bottom - top), kCursorColor);
}

} // namespace rankstep::gui
