// SPDX-License-Identifier: MIT
#include "memorychartview.h"

#include <QApplication>
#include <QMouseEvent>
#include <QRubberBand>

namespace rankstep::gui {

MemoryChartView::MemoryChartView(QChart *chart, QWidget *parent) : QChartView(chart, parent)
{
    setRubberBand(QChartView::HorizontalRubberBand);
    setRenderHint(QPainter::Antialiasing);
}

void MemoryChartView::mousePressEvent(QMouseEvent *event)
{
    m_pressPosition = event->position().toPoint();
    if (event->button() == Qt::RightButton)
        event->accept();
    else
        QChartView::mousePressEvent(event);
}

void MemoryChartView::mouseReleaseEvent(QMouseEvent *event)
{
    const QPoint position = event->position().toPoint();
    const bool click =
        (position - m_pressPosition).manhattanLength() < QApplication::startDragDistance();
    if (event->button() == Qt::LeftButton && click) {
        // The rubber band QChartView opened on the press would zoom into a sliver on release.
        if (auto *band = findChild<QRubberBand *>())
            band->hide();
        emit plotClicked(mapToScene(position));
        event->accept();
    } else if (event->button() == Qt::RightButton) {
        emit zoomResetRequested();
        event->accept();
    } else {
        QChartView::mouseReleaseEvent(event);
    }
}

} // namespace rankstep::gui
