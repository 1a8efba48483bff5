// SPDX-License-Identifier: MIT
#pragma once

class QListView;
class QObject;
class QSplitter;
class QTabWidget;
class QVBoxLayout;
class QWidget;

namespace rankstep::gui {

class Appearance;
class BusyIndicator;
class ClassActions;
class CodeEditor;
class CodeKeeper;
class ComparisonActions;
class ComparisonView;
class CostModelActions;
class DemoActions;
class DemoBar;
class EditActions;
class ExperimentsView;
class ExplainView;
class ExportActions;
class FileActions;
class GradeController;
class HelpActions;
class LegendBar;
class LessonListModel;
class LessonPanel;
class LessonRunActions;
class LossChart;
class MemoryChart;
class NotebookImport;
class PresentationMode;
class ProgressStore;
class QuizController;
class QuizPanel;
class RankOverview;
class RealRunActions;
class RealRunController;
class RealRunView;
class RecentFiles;
class ResultsPanel;
class RosterView;
class RunController;
class RunSession;
class StateView;
class StepBar;
class StepController;
class TimelineView;
class TraceOpenActions;
class ViewControls;
class WaitForView;
class WhatIfView;

// The window's parts, as Qt Designer's generated Ui classes hold a form's widgets: built once by
// the window, which lays the views out and hands each job only the parts it needs. Tests and
// scripted screenshots reach a part through here; nothing in the app does.
struct WindowParts {
    RunSession *session = nullptr; // the run on screen
    StepController *stepper = nullptr;
    Appearance *appearance = nullptr;
    PresentationMode *presentation = nullptr;

    // The views.
    QListView *lessonList = nullptr;
    LessonPanel *lessonPanel = nullptr;
    CodeEditor *editor = nullptr;
    ResultsPanel *results = nullptr;
    TimelineView *timeline = nullptr;
    MemoryChart *memoryChart = nullptr;
    StepBar *stepBar = nullptr;
    LegendBar *legendBar = nullptr;
    StateView *stateView = nullptr;
    RankOverview *rankOverview = nullptr; // every rank at a glance
    WaitForView *waitForView = nullptr;
    ExplainView *explainView = nullptr;
    ComparisonView *comparisonView = nullptr;
    ExperimentsView *experimentsView = nullptr; // enabled for lessons with experiments
    WhatIfView *whatIfView = nullptr;           // sweeps of the learner's code (docs/sweeps.md)
    RealRunView *realRunView = nullptr;
    RosterView *rosterView = nullptr; // the Class tab
    LossChart *lossChart = nullptr;   // in place of the timeline for a PyTorch lesson
    DemoBar *demoBar = nullptr;
    QuizPanel *quizPanel = nullptr;         // presentation mode's predict-the-next-step
    BusyIndicator *busyIndicator = nullptr; // the status bar's sign of long work

    // How they are laid out.
    QTabWidget *tabs = nullptr;          // left of the editor, in gui/app/tabs.h's order
    QWidget *tabsPane = nullptr;         // the tabs under their strip of titles (TabStrip)
    QVBoxLayout *editorColumn = nullptr; // notice, find bar, editor
    QWidget *stepping = nullptr;         // the step bar, legend and timeline
    QSplitter *panes = nullptr;          // lessons | work | results
    QSplitter *work = nullptr;           // left tabs | editor
    QSplitter *middle = nullptr;         // work over the views
    QSplitter *views = nullptr;          // stepping and timeline over the memory chart

    // The jobs.
    CodeKeeper *keeper = nullptr;
    LessonRunActions *lessonRun = nullptr;
    RunController *runController = nullptr;
    RealRunController *torchRun = nullptr; // a PyTorch lesson's run
    CostModelActions *costModel = nullptr;
    RealRunActions *realRun = nullptr;
    ComparisonActions *comparison = nullptr;
    ClassActions *classActions = nullptr;
    GradeController *classGrading = nullptr;
    FileActions *files = nullptr;
    TraceOpenActions *traceOpen = nullptr; // File > Open Trace…, --open, drops
    RecentFiles *recentFiles = nullptr;
    NotebookImport *notebookImport = nullptr;
    ExportActions *exportActions = nullptr;
    EditActions *editActions = nullptr;
    HelpActions *helpActions = nullptr;
    DemoActions *demonstrations = nullptr;
    QuizController *quiz = nullptr;
    ViewControls *viewControls = nullptr; // the View menu, appearance and saved layout
};

// Builds the views and lays them out (Qt Designer's setupUi): the lesson list, the tabs left of the
// editor (gui/app/tabs.h), the editor over the results, the step bar, timeline and memory chart,
// in the splitters `panes`, `work`, `middle` and `views`. The session and the appearance must be
// set; `owner` owns the non-widget parts (the code keeper, the quiz, the comparison).
void setupViews(WindowParts &parts, LessonListModel &model, ProgressStore &progress,
                QObject *owner);

} // namespace rankstep::gui
