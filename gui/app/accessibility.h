// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QTimer>

namespace rankstep::gui {

struct WindowParts;
class RunSession;
class StateView;
class TimelineView;
class MemoryChart;
class WaitForView;
class StepBar;

// What a screen reader says of the window: every view has an accessible name and a
// description of what it shows, and the painted views (the state of every rank, the timeline,
// the memory chart, the wait-for picture, the step bar) keep a text alternative up to date with
// the run: what the selected rank (else rank 0) holds at the cursor, which block is selected,
// the peak, who waits on whom, where the cursor stands.
class Accessibility : public QObject
{
    Q_OBJECT
public:
    // Names every view of `parts`; keeps the painted ones' descriptions up to date.
    Accessibility(const WindowParts &parts, QObject *parent);

    // From the session now. Changes ask for it kUpdateMs later, once: holding End or a scripted
    // run of thousands of steps pays for one text, not one a step.
    void update();
    static constexpr int kUpdateMs = 60;

private:
    RunSession &m_session;
    StateView &m_state;
    TimelineView &m_timeline;
    MemoryChart &m_memory;
    WaitForView &m_waitFor;
    StepBar &m_stepBar;
    QTimer m_later;
};

} // namespace rankstep::gui
