// SPDX-License-Identifier: MIT
#pragma once

#include "childrun.h"
#include "core/layout.h"
#include "core/trace.h"
#include "tracefwd.h"

#include <QObject>
#include <QString>

namespace QCoro {
template <typename T>
class Task;
}

namespace rankstep::gui {

// What to run: the learner's saved file and the lesson's settings.
struct RunSpec {
    QString codePath; // the file the child process runs (saved before every run)
    QString function;
    int ranks = 1;
    int layers = 2;
    int batches = 4;
    double timeLimitSeconds = 30;
    QString cost;        // a cost model preset (docs/cost-models.md); empty: the notebook's
    core::Layout layout; // the lesson's (lesson.json "tensor", "expert", ...): core/layout.h
};

// The one object the GUI talks to about a run. Each run happens in a child process of
// rankstep-cli, so nothing the learner's code does (an endless loop, os._exit, a segfault) can
// take the window down; the trace comes back in a binary file and is decoded off the GUI thread.
class RunController : public QObject
{
    Q_OBJECT
public:
    static constexpr int kStopGraceMs = 2000;

    explicit RunController(QObject *parent = nullptr);
    ~RunController() override;

    // From start() until the trace is decoded (or the run failed or was stopped).
    bool isRunning() const;
    // rankstep-cli: $RANKSTEP_CLI, beside this program, ../cli/ of a build tree, or on PATH.
    static QString cliPath();

public Q_SLOTS:
    void start(const RunSpec &spec);
    // Ends the run at once for the window (emits runStopped): a trace being decoded is dropped;
    // the child gets SIGTERM, so that rankstep-cli ends every process of the run and removes its
    // folder, and SIGKILL if it is still there kStopGraceMs later.
    void stop();

Q_SIGNALS:
    void runningChanged(bool running);
    // The run finished, failed in the learner's code, hung or hit a limit: all in the trace.
    void traceAvailable(const rankstep::gui::TracePtr &trace, const QString &output);
    // The simulation itself could not run or crashed; message in plain words.
    void runFailed(const QString &message, const QString &output);
    void runStopped();
    // The runner finished; its trace is being read off the GUI thread (still isRunning()).
    void decodingStarted();

private:
    QCoro::Task<void> execute(RunSpec spec);
    void finish(const ChildRun &run);

    ChildRuns m_runs;
};

// Reads a trace written by rankstep-cli: the binary form (--trace-out) or JSON (--json), told
// apart by their first bytes.
core::Result<core::Trace> loadTraceFile(const QString &path);

} // namespace rankstep::gui
