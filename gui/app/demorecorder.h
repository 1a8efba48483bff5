// SPDX-License-Identifier: MIT
#pragma once

#include "demostage.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <optional>

namespace rankstep::gui {

// Records a demonstration (docs/demonstrations.md) as the teacher gives it: every run of the
// code, and a step each time what is on screen changes (a step of the run, a tab, the time range,
// the zoom, a selection, the shown ranks). Changes that arrive together (a run moves the cursor,
// fits the range and switches the tab) make one step; dragging the time range or zooming in a row
// keeps changing the step it made. The caption typed while a step is on screen is that step's.
class DemoRecorder : public QObject
{
    Q_OBJECT
public:
    explicit DemoRecorder(DemoStage stage, QObject *parent = nullptr);

    bool isRecording() const { return m_recording; }
    const io::Demonstration &recording() const { return m_demo; }
    int stepCount() const { return int(m_demo.steps.size()); }

    // Starts with the window as it is: the first step is the open lesson, with the run on screen
    // when there is one (lastRunCode is the code of that run). False without a lesson.
    bool start(const QString &lastRunCode, const QString &lastRunCost);
    // Ends the recording and hands it over (pending changes taken first).
    io::Demonstration stop();

public Q_SLOTS:
    void setCaption(const QString &text);
    // MainWindow::runStarted and runFinished: a run that put a new trace on screen is recorded.
    void onRunStarted(const QString &code, const QString &cost);
    void onRunFinished();
    // Something on screen changed; a step is taken once the event loop is idle again.
    void noteChange(const QString &change);

Q_SIGNALS:
    // A step was added (the caption field starts empty) or the last one changed.
    void stepsChanged(int count, bool added);

private:
    void takeStep();

    DemoStage m_stage;
    bool m_recording = false;
    io::Demonstration m_demo;
    int m_run = -1;      // the recorded run on screen
    TracePtr m_runTrace; // its trace: another one on screen (a What if run) is not replayable
    struct PendingRun {
        QString code, cost;
        TracePtr before;
    };
    std::optional<PendingRun> m_pendingRun;
    QString m_pendingChange;
    QTimer m_idle;
    QElapsedTimer m_sinceStep;
};

} // namespace rankstep::gui
