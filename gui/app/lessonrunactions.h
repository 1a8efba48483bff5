// SPDX-License-Identifier: MIT
#pragma once

#include "runcontroller.h"

#include "core/io/sweeprow.h"
#include "core/lessons/lesson.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <optional>

class QAction;
class QWidget;

namespace rankstep::gui {

class CodeEditor;
class CodeKeeper;
class CostModelActions;
class ExperimentsView;
class LessonListModel;
class ProgressStore;
class RealRunController;
struct RealRunOutcome;
class ResultsPanel;
class RunSession;
struct SweepSpec;

// What a lesson's run touches: the run on screen (a PyTorch lesson's report too: its loss curve
// follows the session), the code, where the verdict shows, and where a solved lesson is recorded.
struct LessonRunParts {
    RunSession &session; // its lesson is the one open
    CodeEditor &editor;
    CodeKeeper &keeper;
    ResultsPanel &results;
    ExperimentsView &experiments;
    ProgressStore &progress;
    LessonListModel &model;
    const CostModelActions &costModel;
    QWidget &window;   // the dialogs' parent
    QWidget &leftTabs; // an error's dialog keeps clear of every rank's state
    QWidget &views;    // and of the results, the timeline and the memory chart below the code
};

// Run (F5), Stop (Esc) and Reset to starter: the open lesson's code saved and run in the
// simulator, the trace judged against the lesson's targets, the solved lessons recorded; a
// PyTorch lesson (lessons/100-torch_loop and on) trains for real and draws its loss curve.
class LessonRunActions : public QObject
{
    Q_OBJECT
public:
    LessonRunActions(LessonRunParts parts, QObject *parent = nullptr);

    QAction *runAction() const { return m_runAction; }
    QAction *resetAction() const { return m_resetAction; }
    RunController &controller() const { return *m_run; }
    RealRunController &torchRun() const { return *m_torchRun; }
    bool isRunning() const;
    // The wall-clock limit of each run, in seconds (30 unless set; tests shorten it).
    void setRunTimeLimit(double seconds) { m_runTimeLimit = seconds; }
    // The PyTorch lessons' steps and model width (0: the lesson's; the tests take small ones).
    void setTorchLessonSizes(int steps, int embd)
    {
        m_torchSteps = steps;
        m_torchEmbd = embd;
    }
    // Saves the code and says how to run it (the lesson's settings); nothing when it cannot.
    std::optional<RunSpec> prepareRun();
    // The same for a What if sweep of the code.
    std::optional<SweepSpec> prepareSweep();
    // The simulation of a spec prepared elsewhere (Run for real runs its code in both).
    void simulate(const RunSpec &spec);
    // A run's trace in every view and the results (no verdict recorded).
    void showTrace(const TracePtr &trace, const QString &output);
    // A run kept from before (a demonstration's), with its error marked in the editor.
    void showKeptRun(const TracePtr &trace);
    // A what-if sweep's run, from its trace file, in every view (checked, not graded).
    void showSweepRun(const io::SweepRow &row);
    // What F5 does with the lesson, in a sentence for the status bar.
    static QString settingsText(const lessons::Lesson &lesson);
    // Another lesson is open: the last one's PyTorch training stops, its loss curve goes.
    void stopForLesson();

public Q_SLOTS:
    void run();
    void stop();
    void resetToStarter();

Q_SIGNALS:
    // A run of this code under this cost model started (RunController has it).
    void runStarted(const QString &code, const QString &cost);
    // A run's outcome (trace, failure or stop) has been shown.
    void runFinished();
    // A run was not started because the code could not be saved (why, in a sentence).
    void runRefused(const QString &why);
    void runningChanged();
    void traceShown(); // the views have a new run: the window shares its room out again
    void message(const QString &text); // for the status bar

private:
    void runTorchLesson();
    void onTraceAvailable(const TracePtr &trace, const QString &output);
    void onRunFailed(const QString &message, const QString &output);
    void onTorchLessonFinished(const RealRunOutcome &outcome);
    void recordRun(bool solved);
    void onStillRunning();

    LessonRunParts m_parts;
    RunController *m_run;
    RealRunController *m_torchRun;
    QAction *m_runAction;
    QAction *m_resetAction;
    RunSpec m_lastSpec; // the experiments run the same code again
    double m_runTimeLimit = RunSpec().timeLimitSeconds;
    // A simulation that runs on: after a few seconds the panel asks whether a loop runs forever
    // and says how to stop it, instead of "Running…" until the time limit.
    QTimer *m_stillRunning;
    QElapsedTimer m_runClock;
    int m_torchSteps = 0, m_torchEmbd = 0;
};

} // namespace rankstep::gui
