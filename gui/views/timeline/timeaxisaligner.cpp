// SPDX-License-Identifier: MIT
#include "timeaxisaligner.h"

#include "memorychart.h"
#include "timelineview.h"

#include <QChartView>
#include <QEvent>
#include <QScrollBar>
#include <QTimer>

namespace rankstep::gui {

namespace {

PixelSpan shifted(const PixelSpan &span, double dx)
{
    return {span.left + dx, span.right + dx};
}

} // namespace

TimeAxisAligner::TimeAxisAligner(TimelineView *timeline, MemoryChart *chart, QObject *parent)
    : QObject(parent), m_timeline(timeline), m_chart(chart)
{
    timeline->installEventFilter(this);
    timeline->rowScrollBar()->installEventFilter(this); // shown or hidden: the time area moves
    chart->chartView()->installEventFilter(this);
    connect(chart, &MemoryChart::labelsChanged, this, &TimeAxisAligner::scheduleAlign);
}

void TimeAxisAligner::align()
{
    m_scheduled = false;
    if (!m_timeline || !m_chart)
        return;
    if (m_chart->showsPlaceholder() || m_timeline->window() != m_chart->window()) {
        m_timeline->setTimeSpan(std::nullopt);
        m_chart->setTimeSpan(std::nullopt);
        return;
    }
    QWidget *window = m_timeline->window();
    const double timelineX = m_timeline->mapTo(window, QPoint(0, 0)).x();
    const double chartX = m_chart->mapTo(window, QPoint(0, 0)).x();
    const PixelSpan shared = sharedTimeSpan(shifted(m_timeline->naturalTimeSpan(), timelineX),
                                            shifted(m_chart->naturalTimeSpan(), chartX));
    m_timeline->setTimeSpan(shifted(shared, -timelineX));
    m_chart->setTimeSpan(shifted(shared, -chartX));
    m_chart->followTimeAxis(m_timeline->timeAxis());
}

bool TimeAxisAligner::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Resize || event->type() == QEvent::Show ||
        event->type() == QEvent::Hide)
        scheduleAlign(); // after the chart view passed its new size on to the chart
    return QObject::eventFilter(watched, event);
}

void TimeAxisAligner::scheduleAlign()
{
    if (m_scheduled)
        return;
    m_scheduled = true;
    QTimer::singleShot(0, this, &TimeAxisAligner::align);
}

} // namespace rankstep::gui
