// SPDX-License-Identifier: MIT
#include "memorychartview.h"

#include "timelinepainter.h"

#include <QApplication>
#include <QChart>
#include <QGraphicsScene>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QValueAxis>

namespace rankstep::gui {

namespace {

// The time after the cursor shows through a veil of the chart's background at this opacity.
constexpr float kGhostVeil = 0.6f;

} // namespace

MemoryChartView::MemoryChartView(QChart *chart, QWidget *parent) : QChartView(chart, parent)
{
    setRubberBand(QChartView::HorizontalRubberBand);
    setRenderHint(QPainter::Antialiasing);
    // Anything Qt Charts changes in the scene (series, axes, layout, hover) renders it again.
    connect(scene(), &QGraphicsScene::changed, this, [this] {
        m_sceneStale = true;
        viewport()->update();
    });
}

TimeAxis MemoryChartView::timeAxis() const
{
    TimeAxis axis;
    const auto *time = qobject_cast<QValueAxis *>(chart()->axes(Qt::Horizontal).value(0));
    const QRectF plot = chart()->plotArea();
    if (!time || plot.width() <= 0.0)
        return axis;
    const double ticks = double(core::SimTime::kTicksPerStep);
    axis.from = time->min() * ticks;
    axis.to = time->max() * ticks;
    axis.left = viewportTransform().map(chart()->mapToScene(plot.topLeft())).x();
    axis.width = plot.width();
    return axis;
}

void MemoryChartView::setCursorTime(std::optional<core::SimTime> time)
{
    if (time == m_cursorTime)
        return;
    m_cursorTime = time;
    viewport()->update();
}

void MemoryChartView::setKeptOverCursor(const QRectF &chartRect)
{
    if (chartRect == m_keptOverCursor)
        return;
    m_keptOverCursor = chartRect;
    viewport()->update();
}

void MemoryChartView::paintEvent(QPaintEvent *event)
{
    const qreal ratio = viewport()->devicePixelRatioF();
    if (m_sceneStale || m_scene.size() != viewport()->size() * ratio)
        renderScene();
    QPainter painter(viewport());
    const QRect dirty = event->rect();
    painter.drawPixmap(dirty, m_scene,
                       QRectF(QPointF(dirty.topLeft()) * ratio, QSizeF(dirty.size()) * ratio));
    paintCursor(painter);
}

void MemoryChartView::renderScene()
{
    const qreal ratio = viewport()->devicePixelRatioF();
    m_scene = QPixmap(viewport()->size() * ratio);
    m_scene.setDevicePixelRatio(ratio);
    m_scene.fill(backgroundBrush().style() == Qt::NoBrush ? palette().base().color()
                                                          : backgroundBrush().color());
    QPainter painter(&m_scene);
    painter.setRenderHints(renderHints());
    render(&painter, QRectF(QPointF(), viewport()->size()), viewport()->rect());
    painter.end();
    // The chart's own background (a theme may paint it with a gradient): the veil's color.
    m_veil = m_scene.copy(QRect(QPoint(1, 1), QSize(1, 1))).toImage().pixelColor(0, 0);
    m_sceneStale = false;
    ++m_sceneRenders;
}

void MemoryChartView::paintCursor(QPainter &painter) const
{
    if (!m_cursorTime)
        return;
    const TimeAxis axis = timeAxis();
    const QRectF plot(viewportTransform().map(chart()->mapToScene(chart()->plotArea().topLeft())),
                      chart()->plotArea().size());
    const double x = cursorLineX(axis, *m_cursorTime);
    if (x < plot.right()) { // the time not yet reached, faded as the timeline's ghosts
        QColor veil = m_veil;
        veil.setAlphaF(kGhostVeil);
        painter.fillRect(
            QRectF(QPointF(std::max(x + 1.0, plot.left()), plot.top()), plot.bottomRight()), veil);
    }
    if (x >= plot.left() && x <= plot.right())
        TimelinePainter::paintCursorLine(painter, x, plot.top(), plot.bottom());
    if (m_keptOverCursor.isEmpty())
        return;
    const QRect kept = mapFromScene(chart()->mapRectToScene(m_keptOverCursor)).boundingRect();
    const qreal ratio = m_scene.devicePixelRatio();
    painter.drawPixmap(QRectF(kept), m_scene,
                       QRectF(QPointF(kept.topLeft()) * ratio, QSizeF(kept.size()) * ratio));
}

void MemoryChartView::mousePressEvent(QMouseEvent *event)
{
    m_pressPosition = event->position().toPoint();
    m_leftPressed = event->button() == Qt::LeftButton;
    m_dragging = false;
    if (event->button() == Qt::RightButton || m_leftPressed)
        event->accept();
    else
        QChartView::mousePressEvent(event);
}

void MemoryChartView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint position = event->position().toPoint();
    if (m_leftPressed && !m_dragging &&
        (position - m_pressPosition).manhattanLength() >= QApplication::startDragDistance()) {
        m_dragging = true; // a drag: the press QChartView did not see, where it happened
        QMouseEvent press(QEvent::MouseButtonPress, QPointF(m_pressPosition),
                          mapToGlobal(QPointF(m_pressPosition)), Qt::LeftButton, Qt::LeftButton,
                          event->modifiers());
        QChartView::mousePressEvent(&press);
    }
    QChartView::mouseMoveEvent(event);
}

void MemoryChartView::mouseReleaseEvent(QMouseEvent *event)
{
    const QPoint position = event->position().toPoint();
    const bool click = event->button() == Qt::LeftButton && m_leftPressed && !m_dragging;
    if (event->button() == Qt::LeftButton)
        m_leftPressed = false;
    if (click) {
        Q_EMIT plotClicked(mapToScene(position));
        event->accept();
    } else if (event->button() == Qt::RightButton) {
        Q_EMIT zoomResetRequested();
        event->accept();
    } else {
        QChartView::mouseReleaseEvent(event);
    }
}

} // namespace rankstep::gui
