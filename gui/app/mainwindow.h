// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"
#include "progressstore.h"
#include "runcontroller.h"

#include <QMainWindow>

#include <memory>
#include <vector>

class QAction;
class QTabWidget;
class QListView;
class QTemporaryDir;

namespace rankstep::gui {

class CodeEditor;
class LessonListModel;
class LessonPanel;
class MemoryChart;
class NotebookImport;
class ResultsPanel;
class StepBar;
class StateView;
class StepController;
class TimelineView;
class ViewControls;
class WaitForView;

// The window a learner opens: lessons at the left, the lesson and the editor in the middle, the
// timeline and memory chart below, results at the right. Talks to runs only via RunController.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(std::vector<lessons::Lesson> lessons, ProgressStore &progress,
               QWidget *parent = nullptr);
    ~MainWindow() override;

    bool openLesson(const QString &lessonId);
    // Shows code without saving it as the learner's (scripted screenshots).
    void showScriptCode(const QString &code);
    // The wall-clock limit of each run, in seconds (30 unless set; tests shorten it).
    void setRunTimeLimit(double seconds) { m_runTimeLimit = seconds; }
    const lessons::Lesson *currentLesson() const { return m_lesson; }
    TracePtr lastTrace() const { return m_trace; }

    CodeEditor *editor() const { return m_editor; }
    ResultsPanel *results() const { return m_results; }
    LessonPanel *lessonPanel() const { return m_lessonPanel; }
    TimelineView *timeline() const { return m_timeline; }
    MemoryChart *memoryChart() const { return m_memory; }
    QListView *lessonList() const { return m_lessonList; }
    RunController *runController() const { return m_run; }
    StepController *stepController() const { return m_step; }
    StepBar *stepBar() const { return m_stepBar; }
    StateView *stateView() const { return m_stateView; }
    WaitForView *waitForView() const { return m_waitForView; }
    NotebookImport *notebookImport() const { return m_import; }
    ViewControls *viewControls() const { return m_viewControls; }

public Q_SLOTS:
    void runCode();
    void stopRun();
    void resetToStarter();

Q_SIGNALS:
    // A run's outcome (trace, failure or stop) has been shown.
    void runFinished();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildActions();
    void buildLayout();
    void connectViews();
    void onLessonActivated(const QModelIndex &index);
    void onTraceAvailable(const TracePtr &trace, const QString &output);
    void onRunFailed(const QString &message, const QString &output);
    void onRunningChanged(bool running);
    void onCursorChanged();
    void showWaitFor(const TracePtr &trace);
    bool saveCode(QString *error = nullptr);
    QString runFilePath() const;

    ProgressStore &m_progress;
    LessonListModel *m_model;
    RunController *m_run;
    StepController *m_step;
    const lessons::Lesson *m_lesson = nullptr;
    TracePtr m_trace;
    bool m_persist = true;
    double m_runTimeLimit = RunSpec().timeLimitSeconds;
    std::unique_ptr<QTemporaryDir> m_scratch;

    QListView *m_lessonList = nullptr;
    LessonPanel *m_lessonPanel = nullptr;
    CodeEditor *m_editor = nullptr;
    ResultsPanel *m_results = nullptr;
    TimelineView *m_timeline = nullptr;
    MemoryChart *m_memory = nullptr;
    StepBar *m_stepBar = nullptr;
    StateView *m_stateView = nullptr;
    WaitForView *m_waitForView = nullptr;
    NotebookImport *m_import = nullptr;
    ViewControls *m_viewControls = nullptr; // the View menu, appearance and saved layout
    QTabWidget *m_leftTabs = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_resetAction = nullptr;
};

} // namespace rankstep::gui
