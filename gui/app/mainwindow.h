// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/sweeprow.h"
#include "core/lessons/lesson.h"
#include "progressstore.h"
#include "runcontroller.h"

#include <QMainWindow>

#include <optional>

#include <memory>
#include <vector>

class QAction;
class QMenu;
class QTabWidget;
class QListView;
class QSplitter;
class QVBoxLayout;

namespace rankstep::gui {

class Appearance;
class ApplicationStyle;
class CodeEditor;
class CodeKeeper;
class ComparisonActions;
class BusyIndicator;
class ComparisonView;
class EditActions;
class HelpActions;
class DemoActions;
class DemoBar;
class GradeController;
class QuizController;
class RecentFiles;
class RosterView;
class QuizPanel;
class LossChart;
class RealRunActions;
class RealRunController;
struct RealRunOutcome;
class RealRunView;
class WhatIfView;
class ExplainView;
class ExportActions;
class LessonListModel;
class LegendBar;
class ExperimentsView;
class LessonPanel;
class MemoryChart;
class NotebookImport;
class PresentationMode;
class ResultsPanel;
class RunSession;
class StepBar;
class StateView;
class StepController;
class TimelineView;
class ViewControls;
class WaitForView;

// The window a learner opens: lessons at the left, the lesson and the editor in the middle, the
// timeline and memory chart below, results at the right. It lays the views out and builds the
// menus; the views follow the one RunSession (the run on screen) and the Appearance they are
// built with. Runs go through RunController, whose trace becomes the session's.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(std::vector<lessons::Lesson> lessons, ProgressStore &progress,
               QWidget *parent = nullptr);
    ~MainWindow() override;

    bool openLesson(const QString &lessonId);
    // Shows code without saving it as the learner's (scripted screenshots); read-only with a
    // reason shown above it.
    void showScriptCode(const QString &code, const QString &readOnlyWhy = {});
    // The wall-clock limit of each run, in seconds (30 unless set; tests shorten it).
    void setRunTimeLimit(double seconds) { m_runTimeLimit = seconds; }
    const lessons::Lesson *currentLesson() const { return m_lesson; }
    TracePtr lastTrace() const;

    RunSession &session() const { return *m_session; }
    Appearance &appearance() const { return *m_appearance; }
    PresentationMode &presentation() const;

    // The tabs left of the editor.
    enum class Pane { Lesson, State, Hang, Why, Compare, Experiments, WhatIf, Real, Class };
    void showPane(Pane pane);
    Pane currentPane() const;
    // The tab's name in scripts and recorded demonstrations: lesson, state, hang, why, compare,
    // experiments, whatif, real, class.
    static QString paneName(Pane pane);
    static std::optional<Pane> paneFromName(const QString &name);
    // Shares the window out for what it shows now: a fresh lesson, a run, the state tab, a
    // presentation (called as those change; public for a scripted size).
    void arrangeViews();

    // The window's parts, for tests and scripted screenshots; nothing in the app reaches through
    // them (each part is handed what it needs).
    CodeEditor *editor() const { return m_editor; }
    ResultsPanel *results() const { return m_results; }
    LessonPanel *lessonPanel() const { return m_lessonPanel; }
    TimelineView *timeline() const { return m_timeline; }
    MemoryChart *memoryChart() const { return m_memory; }
    QListView *lessonList() const { return m_lessonList; }
    RunController *runController() const { return m_run; }
    StepController *stepController() const;
    StepBar *stepBar() const { return m_stepBar; }
    LegendBar *legendBar() const { return m_legend; }
    StateView *stateView() const { return m_stateView; }
    WaitForView *waitForView() const { return m_waitForView; }
    ExplainView *explainView() const { return m_explainView; }
    ComparisonView *comparisonView() const { return m_comparisonView; }
    ComparisonActions &comparison() const { return *m_comparison; }
    ExperimentsView *experimentsView() const { return m_experiments; }
    WhatIfView *whatIfView() const { return m_whatIf; }
    RealRunView *realRunView() const { return m_realRunView; }
    RealRunActions &realRun() const { return *m_realRun; }
    // A PyTorch lesson's run (lessons/100-torch_loop and on) and its loss curve.
    RealRunController &torchLessonRun() const { return *m_torchRun; }
    LossChart *lossChart() const { return m_loss; }
    // The PyTorch lessons' steps and model width (0: the lesson's; the tests take small ones).
    void setTorchLessonSizes(int steps, int embd)
    {
        m_torchSteps = steps;
        m_torchEmbd = embd;
    }
    // Saves the open lesson's code (the last second of typing); false when it cannot.
    bool saveCode(QString *error = nullptr);
    NotebookImport *notebookImport() const { return m_import; }
    EditActions *editActions() const { return m_edit; }
    HelpActions *helpActions() const { return m_help; }
    DemoActions *demonstrations() const { return m_demos; }
    DemoBar *demoBar() const { return m_demoBar; }
    QuizController *quiz() const { return m_quiz; }
    RosterView *rosterView() const { return m_roster; }
    GradeController *classGrading() const { return m_grading; }
    // File > Open Class Folder: grades every learner's code in `folder` into the Class tab.
    void openClassFolder(const QString &folder);
    // A roster cell: that learner's code for the lesson, read-only, run (never graded as the
    // teacher's own). False with why in the status bar when the file no longer holds it.
    bool openClassSubmission(const QString &learner, const QString &lesson, const QString &file);
    // A file or folder handed to the app (its command line, "Open with", a drop, Open Recent): a
    // folder is graded as a class folder, a notebook or .py imported, a recorded demonstration
    // replayed. False, with why in the status bar and a message box, for anything else.
    bool openFile(const QString &path);
    RecentFiles *recentFiles() const { return m_recent; }
    BusyIndicator *busyIndicator() const { return m_busy; }
    QuizPanel *quizPanel() const { return m_quizPanel; }
    ViewControls *viewControls() const { return m_viewControls; }

public Q_SLOTS:
    void runCode();
    void stopRun();
    void resetToStarter();

Q_SIGNALS:
    // A run of this code under this cost model started (RunController has it).
    void runStarted(const QString &code, const QString &cost);
    // A run's outcome (trace, failure or stop) has been shown.
    void runFinished();
    void lessonOpened(const QString &lessonId);
    void paneChanged(); // the tab left of the editor
    // A run was not started because the code could not be saved (why, in a sentence).
    void runRefused(const QString &why);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void keepChartHeight();
    // The height of the demonstration bar and the quiz above the step bar, 0 while neither shows.
    int barsHeight() const;
    int chartFloor() const; // the memory chart's least height, presenting or not
    void buildActions();
    void buildLayout();
    void buildMenus();
    void buildDemonstrations();
    void connectViews();
    void onLessonActivated(const QModelIndex &index);
    void onTraceAvailable(const TracePtr &trace, const QString &output);
    void onRunFailed(const QString &message, const QString &output);
    void onRunningChanged(bool running);
    void runTorchLesson();
    void onTorchLessonFinished(const RealRunOutcome &outcome);
    void onCursorChanged();
    void showWaitFor();
    // Esc stops whatever runs: a run, a real run, a PyTorch lesson, a sweep.
    void updateStopAction();
    // A run's trace in every view and the results (no verdict recorded).
    void showTrace(const TracePtr &trace, const QString &output);
    // A what-if sweep's run, from its trace file, in every view (checked, not graded).
    void openSweepRun(const io::SweepRow &row);
    // Saves the code and says how to run it (the lesson's settings); nothing when it cannot.
    std::optional<RunSpec> prepareRun();

    ProgressStore &m_progress;
    LessonListModel *m_model;
    RunSession *m_session;
    Appearance *m_appearance;
    ApplicationStyle *m_style;
    RunController *m_run;
    const lessons::Lesson *m_lesson = nullptr;
    double m_runTimeLimit = RunSpec().timeLimitSeconds;
    CodeKeeper *m_keeper = nullptr;

    QListView *m_lessonList = nullptr;
    LessonPanel *m_lessonPanel = nullptr;
    CodeEditor *m_editor = nullptr;
    ResultsPanel *m_results = nullptr;
    TimelineView *m_timeline = nullptr;
    MemoryChart *m_memory = nullptr;
    StepBar *m_stepBar = nullptr;
    LegendBar *m_legend = nullptr;
    StateView *m_stateView = nullptr;
    WaitForView *m_waitForView = nullptr;
    ExplainView *m_explainView = nullptr;
    ComparisonView *m_comparisonView = nullptr;
    ComparisonActions *m_comparison = nullptr;
    RealRunView *m_realRunView = nullptr;
    RealRunActions *m_realRun = nullptr;
    RealRunController *m_torchRun = nullptr;
    LossChart *m_loss = nullptr;   // in place of the timeline for a PyTorch lesson
    QWidget *m_stepping = nullptr; // the step bar, legend and timeline
    int m_torchSteps = 0, m_torchEmbd = 0;
    QString m_costPreset = QStringLiteral("notebook"); // Run > Cost Model
    ExperimentsView *m_experiments = nullptr; // a tab, enabled for lessons with experiments
    WhatIfView *m_whatIf = nullptr;           // sweeps of the learner's code (docs/sweeps.md)
    RunSpec m_lastSpec;                       // the experiments run the same code again
    NotebookImport *m_import = nullptr;
    EditActions *m_edit = nullptr;
    RecentFiles *m_recent = nullptr;
    BusyIndicator *m_busy = nullptr; // the status bar's sign of long work
    HelpActions *m_help = nullptr;
    DemoActions *m_demos = nullptr;
    DemoBar *m_demoBar = nullptr;
    QuizPanel *m_quizPanel = nullptr; // presentation mode's predict-the-next-step
    QuizController *m_quiz = nullptr;
    RosterView *m_roster = nullptr;         // the Class tab
    GradeController *m_grading = nullptr;   // grades a class folder for it
    ViewControls *m_viewControls = nullptr; // the View menu, appearance and saved layout
    ExportActions *m_export = nullptr;
    QTabWidget *m_leftTabs = nullptr;
    QVBoxLayout *m_editorColumn = nullptr; // notice, find bar, editor
    QSplitter *m_panes = nullptr;          // lessons | work | results
    QSplitter *m_work = nullptr;           // left tabs | editor
    QSplitter *m_middle = nullptr;         // work over the views
    QSplitter *m_views = nullptr;          // stepping and timeline over the memory chart
    QMenu *m_fileMenu = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_resetAction = nullptr;
};

} // namespace rankstep::gui
