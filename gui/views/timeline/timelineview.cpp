// SPDX-License-Identifier: MIT
#include "timelineview.h"

#include "appearance.h"
#include "enginetext.h"
#include "runsession.h"
#include "timelinepainter.h"
#include "timelinetext.h"
#include "tooltips.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {

using core::SimTime;

namespace {

constexpr double kAxisHeight = 28.0;
constexpr double kPreferredRowHeight = 32.0;
constexpr double kRightMargin = 12.0;
constexpr double kKeyZoom = 1.5;
constexpr double kWheelZoomPerNotch = 1.25;
constexpr double kWheelNotch = 120.0; // angleDelta of one wheel notch
constexpr double kLabelPoints = 10.0; // the rank labels' font

} // namespace

TimelineView::TimelineView(RunSession &session, Appearance &appearance, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_appearance(appearance)
    , m_look(appearance.look())
    , m_derived(session.derivedShared())
    , m_scrollBar(new QScrollBar(Qt::Vertical, this))
{
    m_scrollBar->hide();
    connect(m_scrollBar, &QScrollBar::valueChanged, this,
            [this](int value) { scrollRowsTo(double(value)); });
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Timeline"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    updateLayout();
    connect(&session, &RunSession::traceChanged, this, &TimelineView::onTraceChanged);
    connect(&session, &RunSession::highlightChanged, this, qOverload<>(&QWidget::update));
    connect(&session.stepper(), &StepController::cursorChanged, this,
            &TimelineView::onCursorChanged);
    connect(&session, &RunSession::visibleRangeChanged, this, &TimelineView::onVisibleRangeChanged);
    connect(&session, &RunSession::shownRanksChanged, this, [this] {
        m_scroll = 0.0;
        m_hovered.reset();
        updateLayout();
        fillRowCuts();
        updateGeometry();
        update();
    });
    // A clicked block selects its event and moves the session's cursor there.
    connect(this, &TimelineView::eventClicked, &session, [this](int index) {
        if (m_trace != m_session.trace())
            return;
        m_session.setSelectedEvent(std::size_t(index));
        m_session.stepper().toEvent(index);
    });
    connect(&appearance, &Appearance::lookChanged, this, [this] {
        m_look = m_appearance.look();
        updateLayout(); // labels and the axis take more or less room
        update();
    });
}

void TimelineView::onCursorChanged()
{
    const StepController &step = m_session.stepper();
    m_rankGhostAfter.clear();
    m_running.clear();
    if (!step.cursor()) {
        m_cursor.reset();
        m_ghostAfter.reset();
    } else {
        m_cursor = step.cursorTime();
        m_ghostAfter =
            step.atEnd() ? std::nullopt : std::optional<std::size_t>(step.appliedEvents());
        fillRowCuts();
        followSteppingRank();
    }
    update();
}

// Where each rank with a row stands at the cursor, asked rank by rank: a run of 16,384 ranks
// shows the few the learner picked, and a step asks for no other rank's.
void TimelineView::fillRowCuts()
{
    const StepController &step = m_session.stepper();
    m_rankGhostAfter.clear();
    m_running.clear();
    if (!step.cursor() || !m_trace || m_trace != step.trace())
        return;
    const bool cut = step.cursor()->cut().has_value();
    if (cut)
        m_rankGhostAfter.assign(std::size_t(std::max(m_trace->config.ranks, 0)), 0);
    for (int row = 0; row < m_layout.rows; ++row) {
        const int rank = m_layout.rankOf(row);
        if (rank < 0 || rank >= m_trace->config.ranks)
            continue;
        if (cut)
            m_rankGhostAfter[std::size_t(rank)] = step.rankCut(rank).events;
        if (!step.atEnd())
            if (const auto running = step.runningEvent(rank))
                m_running.push_back(*running);
    }
}

// A step that one rank made (an operation, a draw, a scheduler turn) brings that rank's row into
// view when the rows scroll (16 ranks in presentation mode show four at a time): the step bar
// names the rank, and its row showed nothing of the step while the timeline stayed on ranks 0-3.
// A step of every rank at once (a time step) and the end of the run (where a new run opens)
// leave the rows where they are.
void TimelineView::followSteppingRank()
{
    const StepController &step = m_session.stepper();
    const std::optional<replay::Cursor> cursor = step.cursor();
    if (!cursor || cursor->atEnd() || !m_trace || m_trace != step.trace())
        return;
    const std::optional<int> rank = cursor->movedRank();
    if (!rank)
        return;
    if (const std::optional<int> row = m_layout.rowOf(*rank))
        scrollRowsTo(scrollShowingRow(m_layout, height(), *row));
}

void TimelineView::onVisibleRangeChanged()
{
    const TimeRange range = m_session.visibleRange();
    if (range.from == m_axis.from && range.to == m_axis.to)
        return;
    TimeAxis axis = m_axis;
    axis.from = range.from;
    axis.to = range.to;
    setAxis(clamped(axis, m_end));
}

void TimelineView::onTraceChanged()
{
    m_trace = m_session.trace();
    m_end = m_trace && m_trace->figures.hasEvents ? m_trace->figures.endTime : SimTime();
    m_derived = m_session.derivedShared();
    m_hovered.reset();
    m_scroll = 0.0;
    updateLayout();
    updateGeometry();
    fitToWindow();
    update();
}

SimTime TimelineView::visibleFrom() const
{
    return SimTime::fromTicks(std::llround(m_axis.from));
}

SimTime TimelineView::visibleTo() const
{
    return SimTime::fromTicks(std::llround(m_axis.to));
}

std::optional<std::size_t> TimelineView::eventAt(QPointF position) const
{
    if (!hasEvents() || position.x() < m_layout.labelWidth) {
        return std::nullopt;
    }
    return hitTest(*m_trace, m_layout, m_axis, position, &ranks());
}

QStringList TimelineView::elidedTexts() const
{
    QStringList cut;
    if (!hasEvents())
        return cut;
    QFont labelFont = font(); // as TimelinePainter::paintLabels writes them
    labelFont.setPointSizeF(10.0 * m_look.zoom);
    const QFontMetricsF metrics(labelFont);
    const double bottom = height();
    const int rows = rowsInView(m_layout, height());
    for (int row = firstRowInView(m_layout); row < rows; ++row) {
        const double top = m_layout.rowTop(row);
        const QString label = rankLabel(m_layout.rankOf(row));
        const bool partly =
            top < m_layout.axisHeight - 0.5 || top + m_layout.rowHeight > bottom + 0.5;
        if (partly || metrics.horizontalAdvance(label) > m_layout.labelWidth - 16.0)
            cut.append(label);
    }
    return cut;
}

QString TimelineView::toolTipAt(QPointF position) const
{
    if (hasEvents() && position.y() < m_layout.axisHeight) {
        const auto mark = timestepsMarkX(*m_trace, m_axis, m_layout.labelWidth, width());
        if (mark && std::abs(position.x() - *mark) <= 6.0 * m_look.zoom)
            return timestepsToolTip(*m_trace);
    }
    const std::optional<std::size_t> index = eventAt(position);
    if (index)
        return eventToolTip(m_trace->events[*index], timeUnitName(m_session.units()));
    if (const auto gap = gapAt(position)) {
        const explain::Wait &w = gaps()[*gap];
        return tr("Rank %1 waits from t %2 to t %3: click to see what it waits for")
            .arg(w.rank)
            .arg(QString::fromStdString(w.from.toString()),
                 QString::fromStdString(w.to.toString()));
    }
    return {};
}

std::optional<std::size_t> TimelineView::gapAt(QPointF position) const
{
    if (!hasEvents() || position.x() < m_layout.labelWidth)
        return std::nullopt;
    const std::optional<int> row = m_layout.rowAt(position.y());
    if (!row)
        return std::nullopt;
    const int rank = m_layout.rankOf(*row);
    const double ticks = m_axis.ticksAt(position.x());
    const std::vector<explain::Wait> &all = gaps();
    for (std::size_t i = 0; i < all.size(); ++i) // a click, not a paint: a scan will do
        if (all[i].rank == rank && double(all[i].from.ticks()) <= ticks &&
            ticks < double(all[i].to.ticks()))
            return i;
    return std::nullopt;
}

QSize TimelineView::sizeHint() const
{
    const int rows = std::max(m_layout.rows, 2);
    return QSize(900, int(std::ceil(kAxisHeight + rows * kPreferredRowHeight)) + 2);
}

QSize TimelineView::minimumSizeHint() const
{
    return QSize(320, int(kAxisHeight) + 4 * 16);
}

void TimelineView::fitToWindow()
{
    setAxis(fitted(m_axis, m_end));
}

void TimelineView::zoomIn()
{
    setAxis(zoomed(m_axis, kKeyZoom, m_axis.left + m_axis.width / 2.0, m_end));
}

void TimelineView::zoomOut()
{
    setAxis(zoomed(m_axis, 1.0 / kKeyZoom, m_axis.left + m_axis.width / 2.0, m_end));
}

void TimelineView::setVisibleRange(SimTime from, SimTime to)
{
    if (to <= from) {
        return;
    }
    TimeAxis axis = m_axis;
    axis.from = double(from.ticks());
    axis.to = double(to.ticks());
    setAxis(clamped(axis, m_end));
}

void TimelineView::setCursorTime(SimTime time)
{
    m_cursor = time;
    update();
}

void TimelineView::clearCursorTime()
{
    m_cursor.reset();
    update();
}

void TimelineView::setGhostAfter(std::optional<std::size_t> eventCount)
{
    m_ghostAfter = eventCount;
    update();
}

bool TimelineView::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip) {
        return QWidget::event(event);
    }
    auto *help = static_cast<QHelpEvent *>(event);
    const std::optional<std::size_t> index = eventAt(help->pos());
    // Kept while the pointer stays on the block.
    const QRect area =
        index ? eventRect(m_trace->events[*index], m_layout, m_axis).toAlignedRect() : QRect();
    answerToolTip(*this, *help, toolTipAt(help->pos()), area);
    return true;
}

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    if (!hasEvents()) {
        // A run without operations is not a run still to be made.
        const bool failed = m_trace && m_trace->status != core::RunStatus::Ok;
        const QString text = failed    ? tr("The run stopped before any rank did timed work")
                             : m_trace ? tr("The run made no operations: each rank's row fills "
                                            "once your code calls forward, backward, update or "
                                            "a collective")
                                       : tr("Run your code to see each rank's timeline");
        TimelinePainter::paintPlaceholder(painter, rect(), palette(), font(), text, m_look.zoom);
        return;
    }
    const TimelineScene scene{m_trace.get(),
                              m_layout,
                              m_axis,
                              rect(),
                              palette(),
                              font(),
                              m_look,
                              m_cursor,
                              m_ghostAfter,
                              m_hovered,
                              &ranks(),
                              &m_derived->links(),
                              m_rankGhostAfter,
                              m_running,
                              &gaps(),
                              &m_session.highlight(),
                              timeUnitName(m_session.units())};
    m_frame.paint(painter, scene, devicePixelRatioF());
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateLayout();
}

void TimelineView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) // a zoom: labels and the axis take more room
        updateLayout();
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    if (event->position().x() < m_layout.labelWidth && m_scrollBar->isVisible()) {
        // Three rows a notch; a touchpad's fractions of a notch add up to whole rows.
        m_wheelRows += delta.y() / kWheelNotch * 3.0;
        const double rows = std::trunc(m_wheelRows);
        m_wheelRows -= rows;
        scrollRowsTo(m_scroll - rows * m_layout.rowHeight);
        event->accept();
        return;
    }
    const bool pan =
        event->modifiers().testFlag(Qt::ShiftModifier) || std::abs(delta.x()) > std::abs(delta.y());
    if (pan) {
        const double notches = (delta.x() != 0 ? delta.x() : delta.y()) / kWheelNotch;
        setAxis(panned(m_axis, notches * m_axis.width / 10.0, m_end));
    } else {
        const double factor = std::pow(kWheelZoomPerNotch, delta.y() / kWheelNotch);
        setAxis(zoomed(m_axis, factor, event->position().x(), m_end));
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        return QWidget::mousePressEvent(event);
    }
    m_pressPosition = event->position();
    m_lastDragPosition = event->position();
    m_dragging = false;
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    if (!m_pressPosition || !event->buttons().testFlag(Qt::LeftButton)) {
        setHovered(eventAt(event->position()));
        return;
    }
    const QPointF moved = event->position() - *m_pressPosition;
    if (!m_dragging && moved.manhattanLength() >= QApplication::startDragDistance()) {
        m_dragging = true;
        setCursor(Qt::ClosedHandCursor);
    }
    if (m_dragging) {
        setAxis(panned(m_axis, event->position().x() - m_lastDragPosition.x(), m_end));
        m_lastDragPosition = event->position();
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_pressPosition) {
        return QWidget::mouseReleaseEvent(event);
    }
    if (!m_dragging) {
        onClicked(event->position());
    }
    m_pressPosition.reset();
    m_dragging = false;
    setCursor(m_hovered ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    const double step = m_axis.width / 8.0;
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            zoomIn();
            break;
        case Qt::Key_Minus:
        case Qt::Key_Underscore:
            zoomOut();
            break;
        case Qt::Key_Left:
            setAxis(panned(m_axis, step, m_end));
            break;
        case Qt::Key_Right:
            setAxis(panned(m_axis, -step, m_end));
            break;
        case Qt::Key_Home:
            setAxis(panned(m_axis, m_axis.width * 1e6, m_end));
            break;
        case Qt::Key_End:
            setAxis(panned(m_axis, -m_axis.width * 1e6, m_end));
            break;
        case Qt::Key_0:
        case Qt::Key_F:
            fitToWindow();
            break;
        default:
            QWidget::keyPressEvent(event);
            return;
    }
    event->accept();
}

void TimelineView::leaveEvent(QEvent *event)
{
    QWidget::leaveEvent(event);
    setHovered(std::nullopt);
}

bool TimelineView::hasEvents() const
{
    return m_trace && !m_trace->events.empty();
}

double TimelineView::minRowHeight() const
{
    QFont labelFont = font();
    labelFont.setPointSizeF(m_look.scaled(kLabelPoints));
    return std::ceil(QFontMetricsF(labelFont).height() + 4.0);
}

int TimelineView::heightForRows(int mostRows) const
{
    const int ranks = m_trace ? m_trace->config.ranks : 0;
    const auto shown =
        m_session.shownRanks().empty() ? std::size_t(ranks) : m_session.shownRanks().size();
    const int rows = std::min(int(shown), mostRows);
    return int(std::ceil(m_look.scaled(kAxisHeight) + rows * minRowHeight())) + 2;
}

void TimelineView::updateLayout()
{
    QFont labelFont = font();
    labelFont.setPointSizeF(m_look.scaled(kLabelPoints));
    const QFontMetricsF metrics(labelFont);
    RowLayout layout;
    const int ranks = m_trace ? m_trace->config.ranks : 0;
    for (int rank : m_session.shownRanks())
        if (rank < ranks && m_trace == m_session.trace())
            layout.ranks.push_back(rank);
    layout.rows = layout.ranks.empty() ? ranks : int(layout.ranks.size());
    layout.axisHeight = m_look.scaled(kAxisHeight);
    const double label = metrics.horizontalAdvance(rankLabel(std::max(ranks - 1, 0)));
    layout.labelWidth = std::ceil(
        std::max(label, metrics.horizontalAdvance(timeUnitName(m_session.units()))) + 22.0);
    layout = fitRows(layout, height(), kPreferredRowHeight, minRowHeight());
    m_scroll = wholeRowScroll(layout, height(), m_scroll);
    layout.scroll = m_scroll;
    m_layout = layout;
    placeScrollBar();
    const PixelSpan natural = naturalTimeSpan();
    const PixelSpan span = m_timeSpan ? PixelSpan{std::max(natural.left, m_timeSpan->left),
                                                  std::min(natural.right, m_timeSpan->right)}
                                      : natural;
    TimeAxis axis = m_axis;
    axis.left = span.left;
    axis.width = std::max(1.0, span.right - span.left);
    setAxis(clamped(axis, m_end));
}

void TimelineView::placeScrollBar()
{
    const double most = maxScroll(m_layout, height());
    const int top = int(std::ceil(m_layout.axisHeight));
    const int width = m_scrollBar->sizeHint().width();
    m_scrollBar->setGeometry(this->width() - width, top, width, std::max(0, height() - top));
    const QSignalBlocker quiet(m_scrollBar);
    m_scrollBar->setRange(0, int(std::ceil(most)));
    m_scrollBar->setPageStep(std::max(1, height() - top));
    m_scrollBar->setSingleStep(std::max(1, int(m_layout.rowHeight)));
    m_scrollBar->setValue(int(std::lround(m_scroll)));
    m_scrollBar->setVisible(most > 0.0);
}

void TimelineView::scrollRowsTo(double pixels)
{
    const double scroll = wholeRowScroll(m_layout, height(), pixels); // never a half row at the top
    if (scroll == m_scroll)
        return;
    m_scroll = scroll;
    m_layout.scroll = scroll;
    const QSignalBlocker quiet(m_scrollBar);
    m_scrollBar->setValue(int(std::lround(scroll)));
    update();
}

PixelSpan TimelineView::naturalTimeSpan() const
{
    const double scrollBar = m_scrollBar->isVisibleTo(this) ? m_scrollBar->width() : 0.0;
    return {m_layout.labelWidth,
            std::max(m_layout.labelWidth + 1.0, width() - std::max(kRightMargin, scrollBar + 4.0))};
}

void TimelineView::setTimeSpan(std::optional<PixelSpan> span)
{
    if (span == m_timeSpan) {
        return;
    }
    m_timeSpan = span;
    updateLayout();
}

void TimelineView::setAxis(const TimeAxis &axis)
{
    if (axis != m_axis) {
        m_axis = axis;
        update();
    }
    if (m_trace) // the memory chart follows the session's range
        m_session.setVisibleRange(m_axis.from, m_axis.to);
}

void TimelineView::setHovered(std::optional<std::size_t> index)
{
    if (index == m_hovered) {
        return;
    }
    m_hovered = index;
    setCursor(index ? Qt::PointingHandCursor : Qt::ArrowCursor);
    update();
}

void TimelineView::onClicked(QPointF position)
{
    const std::optional<std::size_t> index = eventAt(position);
    if (!index) {
        // A click on an idle gap shows why the rank waited; anywhere else clears that.
        if (const auto gap = gapAt(position)) {
            const auto wait = explain::waitBefore(*m_trace, gaps()[*gap].event);
            if (!wait)
                return;
            std::vector<std::size_t> events{wait->event};
            for (const explain::Link &link : wait->chain)
                events.push_back(link.event);
            std::sort(events.begin(), events.end(), [this](std::size_t a, std::size_t b) {
                return m_trace->events[a].start < m_trace->events[b].start;
            });
            m_session.setHighlight(std::move(events), QString::fromStdString(explain::describeWait(
                                                          *m_trace, *wait, engineWords())));
        } else {
            m_session.clearHighlight();
        }
        return;
    }
    Q_EMIT eventClicked(int(*index));
    if (const int line = m_trace->events[*index].line; line > 0) {
        Q_EMIT lineActivated(line);
    }
}

} // namespace rankstep::gui
