// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>

namespace rankstep::gui {

class MemoryChart;
class TimelineView;

// Keeps the timeline and the memory chart below it on one time axis: both draw time between the
// same two window x (sharedTimeSpan of where each could) over the timeline's exact range, so a
// time is at the same x in both and the two cursor lines are one vertical line.
class TimeAxisAligner : public QObject
{
    Q_OBJECT

public:
    TimeAxisAligner(TimelineView *timeline, MemoryChart *chart, QObject *parent = nullptr);

    void align(); // now; otherwise after any resize or relabelling, once the layouts settled

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void scheduleAlign();

    QPointer<TimelineView> m_timeline;
    QPointer<MemoryChart> m_chart;
    bool m_scheduled = false;
};

} // namespace rankstep::gui
