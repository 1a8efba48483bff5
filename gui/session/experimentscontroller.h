// SPDX-License-Identifier: MIT
#pragma once

#include "runcontroller.h"
#include "tracefwd.h"

#include <QObject>
#include <QString>

#include <vector>

namespace rankstep::gui {

// Runs a lesson's experiments (the pipeline bubble's m = 1, 2, 4, 8): the learner's code again
// at each setting, one run after another, each in a child process of its own (RunController), so
// the window never waits. One series at a time: a new one, or stop(), ends the one before.
class ExperimentsController : public QObject
{
    Q_OBJECT
public:
    explicit ExperimentsController(QObject *parent = nullptr);

    bool isRunning() const { return m_next >= 0; }
    // The experiment running now; -1 when none.
    int current() const { return m_next; }

public Q_SLOTS:
    void start(const std::vector<rankstep::gui::RunSpec> &specs);
    // Ends the experiment running and those after it; reports nothing more (emits stopped).
    void stop();

Q_SIGNALS:
    void runningChanged(bool running);
    void experimentStarted(int index);
    // The run of specs[index] ended with a trace (whatever its status).
    void experimentAvailable(int index, const rankstep::gui::TracePtr &trace);
    // The run of specs[index] left no trace; message in plain words.
    void experimentFailed(int index, const QString &message);
    // Every experiment ran (or failed).
    void finished();
    // stop() ended the series while specs[index] ran.
    void stopped(int index);

private:
    void startNext();
    void onEnded();

    RunController *m_runner;
    std::vector<RunSpec> m_specs;
    int m_next = -1;
};

} // namespace rankstep::gui
