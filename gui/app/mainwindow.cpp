// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "accessibility.h"
#include "appearance.h"
#include "applicationstyle.h"
#include "busyindicator.h"
#include "classactions.h"
#include "codeeditor.h"
#include "codekeeper.h"
#include "comparisonactions.h"
#include "costmodelactions.h"
#include "demoactions.h"
#include "demobar.h"
#include "editactions.h"
#include "experimentsview.h"
#include "explainview.h"
#include "exportactions.h"
#include "fileactions.h"
#include "gradecontroller.h"
#include "helpactions.h"
#include "lessonlistmodel.h"
#include "lessonpanel.h"
#include "lessonrunactions.h"
#include "lessontitle.h"
#include "losschart.h"
#include "memorychart.h"
#include "notebookimport.h"
#include "presentation.h"
#include "progressline.h"
#include "quizpanel.h"
#include "ranklinemarkers.h"
#include "realrunactions.h"
#include "realruncontroller.h"
#include "resultspanel.h"
#include "runsession.h"
#include "scripttarget.h"
#include "timeaxisaligner.h"
#include "timelineview.h"
#include "torchexportactions.h"
#include "traceloader.h"
#include "traceopenactions.h"
#include "viewcontrols.h"
#include "viewshares.h"
#include "whatifview.h"
#include "windowsettings.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QListView>
#include <QMenuBar>
#include <QMimeData>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace rankstep::gui {
namespace {

constexpr int kNarrowEditorColumns = 40; // beside a tab that wants the width

// A job's sentences for the learner go to the status bar.
template <typename Job>
void showMessages(Job *job, QStatusBar *bar)
{
    QObject::connect(job, &Job::message, bar,
                     [bar](const QString &text) { bar->showMessage(text); });
}

} // namespace

MainWindow::MainWindow(std::vector<lessons::Lesson> lessons, ProgressStore &progress,
                       QWidget *parent)
    : QMainWindow(parent)
    , m_progress(progress)
    , m_model(new LessonListModel(std::move(lessons), progress, this))
    , m_script(gui::scriptTarget(*this))
{
    setWindowTitle(tr("Rankstep"));
    setAcceptDrops(true); // a notebook dropped on the window is imported
    m_parts.session = new RunSession(this);
    m_parts.stepper = &m_parts.session->stepper();
    m_parts.appearance = new Appearance(this);
    new ApplicationStyle(*m_parts.appearance, this);
    buildLayout();
    buildFileMenu();
    m_parts.editActions = new EditActions(*m_parts.editor, menuBar(), this);
    m_parts.editorColumn->insertWidget(1, m_parts.editActions->findBar()); // over the code
    buildRunMenu();
    buildToolBar();
    connectViews();
    resize(kPreferredWindowSize); // fitted to the screen when the layout is restored
    buildViewMenu();
    new Accessibility(m_parts, this); // names, descriptions and text alternatives
    if (!openLesson(m_progress.lastLesson()) && m_model->rowCount() > 0)
        openLesson(m_model->data(m_model->index(0), LessonListModel::IdRole).toString());
}

MainWindow::~MainWindow()
{
    m_parts.viewControls->saveLayout();
}

const lessons::Lesson *MainWindow::currentLesson() const
{
    return m_parts.session->lesson();
}

void MainWindow::showTab(Tab tab)
{
    m_parts.tabs->setCurrentIndex(int(tab));
}

Tab MainWindow::currentTab() const
{
    return Tab(std::max(0, m_parts.tabs->currentIndex()));
}

bool MainWindow::openFile(const QString &path, bool inTurn)
{
    return m_parts.files->openFile(path, inTurn);
}

void MainWindow::runCode()
{
    m_parts.lessonRun->run();
}

void MainWindow::resetToStarter()
{
    m_parts.lessonRun->resetToStarter();
}

void MainWindow::stopRun()
{
    m_parts.classGrading->stop();
    m_parts.whatIfView->stop();
    m_parts.lessonRun->stop();
    m_parts.realRun->controller().stop();
}

void MainWindow::updateStopAction()
{
    m_stopAction->setEnabled(m_parts.lessonRun->isRunning() ||
                             m_parts.realRun->controller().isRunning() ||
                             m_parts.whatIfView->isRunning() || m_parts.classGrading->isRunning());
}

void MainWindow::showScriptCode(const QString &code, const QString &readOnlyWhy)
{
    const lessons::Lesson *lesson = currentLesson();
    m_parts.keeper->showScript(
        lesson ? QString::fromStdString(lesson->id) : QStringLiteral("script"), code, readOnlyWhy);
}

// File > Record a Demonstration and Replay a Demonstration (docs/demonstrations.md): they read
// from the window and put back what a script does (scripttarget.h).
void MainWindow::buildDemonstrations()
{
    WindowParts &p = m_parts;
    auto *demos = p.demonstrations =
        new DemoActions(demoStage(*m_script), *p.demoBar, *p.stepBar, m_fileMenu, this);
    // The bar and its caption, and the quiz, take height from the memory chart, not from the
    // timeline's rows.
    const auto rearrange = [this] {
        QTimer::singleShot(0, this, &MainWindow::arrangeViews);
    };
    connect(p.demoBar, &DemoBar::shownChanged, this, rearrange);
    connect(p.quizPanel, &QuizPanel::shownChanged, this, rearrange);
    showMessages(demos, statusBar());
    connect(this, &MainWindow::runStarted, demos, &DemoActions::onRunStarted);
    connect(this, &MainWindow::runFinished, demos, &DemoActions::onRunFinished);
    // A run that could not start ends the wait for it as a finished one would.
    connect(this, &MainWindow::runRefused, demos, [demos] { demos->onRunFinished(); });
    connect(this, &MainWindow::lessonOpened, demos, &DemoActions::onLessonOpened);
    connect(this, &MainWindow::tabChanged, demos,
            [demos] { demos->noteChange(QStringLiteral("tab")); });
}

// File: import a notebook (Ctrl+I), export the run, demonstrations, a class, recent files, quit.
void MainWindow::buildFileMenu()
{
    WindowParts &p = m_parts;
    m_fileMenu = menuBar()->addMenu(tr("&File"));
    m_fileMenu->setObjectName(QStringLiteral("fileMenu"));
    const auto lesson = [this] {
        return currentLesson();
    };
    const auto open = [this](const QString &id) {
        return openLesson(id);
    };
    p.notebookImport = new NotebookImport({*this, *p.keeper, *p.editor, lesson, open}, m_fileMenu,
                                          m_model->lessons(), m_progress);
    connect(p.notebookImport, &NotebookImport::importingChanged, this,
            [this](bool importing, const QString &fileName) {
                importing ? m_parts.busyIndicator->begin(QStringLiteral("import"),
                                                         tr("Importing %1").arg(fileName))
                          : m_parts.busyIndicator->end(QStringLiteral("import"));
            });
    p.exportActions =
        new ExportActions(*p.session, *p.appearance, *p.stateView, lesson, m_fileMenu, this);
    connect(p.exportActions, &ExportActions::exported, this, [this](const QString &path) {
        statusBar()->showMessage(tr("Saved %1.").arg(QDir::toNativeSeparators(path)));
    });
    // The lesson's code as a PyTorch program for torchrun (docs/export.md).
    auto *torchExport = new TorchExportActions(*p.session, *p.keeper, m_fileMenu, this);
    connect(torchExport, &TorchExportActions::message, statusBar(),
            [this](const QString &text) { statusBar()->showMessage(text); });
    buildDemonstrations();
    // A teacher's class: every learner's code graded at once (README "Grading a class").
    m_fileMenu->addSeparator();
    ClassWindow classWindow{
        open, [this](const QString &code, const QString &why) { showScriptCode(code, why); },
        [this] { runCode(); },
        [this] {
            showTab(Tab::Class);
        }};
    p.classActions =
        new ClassActions(*p.rosterView, classWindow, m_model->lessons(), m_fileMenu, this);
    p.classGrading = &p.classActions->grading();
    showMessages(p.classActions, statusBar());
    buildTraceOpen();
    p.files = new FileActions(*p.classActions, *p.notebookImport, *p.demonstrations, *p.traceOpen,
                              m_fileMenu, this);
    p.recentFiles = &p.files->recentFiles();
    showMessages(p.files, statusBar());
}

// File > Open Trace…: a run the command line wrote, shown read-only (traceopenactions.h).
void MainWindow::buildTraceOpen()
{
    WindowParts &p = m_parts;
    const auto lessonOf = [this](const QString &function) {
        if (currentLesson() && QString::fromStdString(currentLesson()->function) == function)
            return true; // open already: its tab and layout stay
        for (const lessons::Lesson &lesson : m_model->lessons())
            if (!lesson.isTorch() && QString::fromStdString(lesson.function) == function)
                return openLesson(QString::fromStdString(lesson.id));
        return false;
    };
    p.traceOpen = new TraceOpenActions(
        {*p.session, *p.editor, *p.keeper, *this, lessonOf,
         [this](const QString &code, const QString &why) { showScriptCode(code, why); },
         [this] { m_parts.lessonRun->stop(); },
         [this] {
             arrangeViews();
         }},
        m_fileMenu, this);
    m_fileMenu->insertAction(m_fileMenu->actions().value(1), p.traceOpen->action());
    showMessages(p.traceOpen, statusBar());
    // In the status bar only while a file opens: hidden there, its button would still make the
    // bar taller.
    connect(&p.traceOpen->loader(), &TraceLoader::busyChanged, this, [this](bool busy) {
        ProgressLine *line = m_parts.traceOpen->progressLine();
        if (!busy) {
            statusBar()->removeWidget(line); // and hidden
            return;
        }
        statusBar()->addPermanentWidget(line);
        line->show();
    });
}

// Run: What if (docs/sweeps.md), the same code at many settings; the cost model
// (docs/cost-models.md).
void MainWindow::buildRunMenu()
{
    QMenu *run = menuBar()->addMenu(tr("&Run"));
    QAction *whatIf = run->addAction(tr("&What If: Sweep the Settings…"), this, [this] {
        showTab(Tab::WhatIf);
        m_parts.whatIfView->focusFields();
    });
    whatIf->setObjectName(QStringLiteral("whatIfAction"));
    m_parts.costModel = new CostModelActions(run, this);
    showMessages(m_parts.costModel, statusBar());
}

// The toolbar: Run (F5), Stop (Esc), Run for real (Ctrl+F5), Reset to starter.
void MainWindow::buildToolBar()
{
    WindowParts &p = m_parts;
    p.lessonRun =
        new LessonRunActions({*p.session, *p.editor, *p.keeper, *p.results, *p.experimentsView,
                              m_progress, *m_model, *p.costModel, *this, *p.tabs, *p.views},
                             this);
    p.runController = &p.lessonRun->controller();
    p.torchRun = &p.lessonRun->torchRun();
    QToolBar *bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addAction(p.lessonRun->runAction());
    m_stopAction = bar->addAction(QString(), this, &MainWindow::stopRun);
    m_stopAction->setShortcuts(QKeySequence::keyBindings(QKeySequence::Cancel));
    m_stopAction->setText(
        tr("■ Stop (%1)").arg(m_stopAction->shortcut().toString(QKeySequence::NativeText)));
    m_stopAction->setEnabled(false);
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    bar->addAction(p.realRun->action());
    bar->addSeparator();
    bar->addAction(p.lessonRun->resetAction());
}

// View: ViewControls' appearance and saved layout, the memory chart by kind, the quiz; Help.
void MainWindow::buildViewMenu()
{
    WindowParts &p = m_parts;
    // Restores the saved layout and look.
    p.viewControls =
        new ViewControls({this, {p.panes, p.work, p.middle, p.views}}, menuBar(), *p.appearance,
                         {p.panes, p.lessonList, p.lessonPanel}, *p.stepper);
    p.presentation = p.viewControls->presentation();
    connect(p.presentation, &PresentationMode::activeChanged, this, &MainWindow::arrangeViews);
    p.helpActions = new HelpActions(menuBar(), this); // last, after View
    p.viewControls->addRunViewActions(*p.memoryChart, *p.quiz);
}

void MainWindow::buildLayout()
{
    WindowParts &p = m_parts;
    // Run for real runs the same code as Run; the lesson's run prepares it (buildToolBar).
    p.realRun = new RealRunActions(
        *p.session, [this] { return m_parts.lessonRun->prepareRun(); }, this);
    setupViews(p, *m_model, m_progress, this);
    setCentralWidget(p.panes);
    showMessages(p.comparison, statusBar());
    connect(p.comparison, &ComparisonActions::comparisonShown, this,
            [this] { showTab(Tab::Compare); });
    connect(p.tabs, &QTabWidget::currentChanged, this, &MainWindow::arrangeViews);
    connect(p.tabs, &QTabWidget::currentChanged, this, &MainWindow::tabChanged);
    statusBar()->showMessage(tr("Ready."));
    // The editor follows the cursor; stepping shows what every rank holds.
    auto *markers = new RankLineMarkers(*p.session, *p.editor, *p.waitForView, this);
    connect(markers, &RankLineMarkers::stepping, this, [this] { showTab(Tab::State); });
    connect(p.session, &RunSession::traceChanged, this, &MainWindow::showWaitFor);
    p.busyIndicator = new BusyIndicator; // long work, with its seconds
    statusBar()->addPermanentWidget(p.busyIndicator);
}

void MainWindow::connectViews()
{
    WindowParts &p = m_parts;
    const auto activated = [this](const QModelIndex &index) {
        const QString id = index.data(LessonListModel::IdRole).toString();
        if (!currentLesson() || id != QString::fromStdString(currentLesson()->id))
            openLesson(id);
    };
    connect(p.lessonList, &QListView::clicked, this, activated);
    connect(p.lessonList, &QListView::activated, this, activated);
    connect(p.editor, &CodeEditor::codeEdited, p.keeper, [this] { m_parts.keeper->save(); });
    connect(p.lessonPanel, &LessonPanel::solutionRequested, p.keeper, &CodeKeeper::resetTo);
    connect(p.lessonRun, &LessonRunActions::runStarted, this, &MainWindow::runStarted);
    connect(p.lessonRun, &LessonRunActions::runFinished, this, &MainWindow::runFinished);
    connect(p.lessonRun, &LessonRunActions::runRefused, this, &MainWindow::runRefused);
    connect(p.lessonRun, &LessonRunActions::traceShown, this, &MainWindow::arrangeViews);
    showMessages(p.lessonRun, statusBar());
    // Run for real: the simulation of the same code on screen, the real one in its tab.
    connect(p.realRun, &RealRunActions::simulationWanted, p.lessonRun, &LessonRunActions::simulate);
    connect(p.realRun, &RealRunActions::started, this, [this] { showTab(Tab::Real); });
    showMessages(p.realRun, statusBar());
    p.realRun->attach(*p.realRunView, *p.editor);
    addAction(p.realRun->showRealAction()); // its shortcut works wherever the focus is
    connect(p.lessonRun, &LessonRunActions::runningChanged, this, &MainWindow::updateStopAction);
    connect(&p.realRun->controller(), &RealRunController::runningChanged, this,
            &MainWindow::updateStopAction);
    connect(p.whatIfView, &WhatIfView::runningChanged, this, &MainWindow::updateStopAction);
    connect(p.classGrading, &GradeController::runningChanged, this, &MainWindow::updateStopAction);
    showBusy();
    connect(p.whatIfView, &WhatIfView::openRun, p.lessonRun, &LessonRunActions::showSweepRun);
    p.whatIfView->setCodeSource([this] { return m_parts.lessonRun->prepareSweep(); });
    connect(p.timeline, &TimelineView::lineActivated, p.editor, &CodeEditor::jumpToLine);
    connect(p.explainView, &ExplainView::lineActivated, p.editor, &CodeEditor::jumpToLine);
    connect(p.session, &RunSession::highlightChanged, this, [this] {
        if (!m_parts.session->highlightSentence().isEmpty())
            statusBar()->showMessage(m_parts.session->highlightSentence());
    });
    new TimeAxisAligner(p.timeline, p.memoryChart, this); // one time axis for both views
}

// Long work in the status bar, with its seconds.
void MainWindow::showBusy()
{
    const auto busy = [this](const QString &key, const QString &text) {
        return [this, key, text](bool running) {
            running ? m_parts.busyIndicator->begin(key, text) : m_parts.busyIndicator->end(key);
        };
    };
    WindowParts &p = m_parts;
    connect(p.runController, &RunController::runningChanged, this,
            busy(QStringLiteral("run"), tr("Running your code")));
    connect(&p.realRun->controller(), &RealRunController::runningChanged, this,
            busy(QStringLiteral("real"), tr("Running your code for real")));
    connect(p.torchRun, &RealRunController::runningChanged, this,
            busy(QStringLiteral("torch"), tr("Training for real with PyTorch")));
    connect(p.whatIfView, &WhatIfView::runningChanged, this,
            busy(QStringLiteral("sweep"), tr("Running the What if settings")));
    connect(p.classGrading, &GradeController::runningChanged, this,
            busy(QStringLiteral("grade"), tr("Grading the class")));
}

bool MainWindow::openLesson(const QString &lessonId)
{
    const int row = m_model->rowOf(lessonId);
    if (row < 0)
        return false;
    WindowParts &p = m_parts;
    if (p.runController->isRunning())
        p.runController->stop();
    if (p.editor->hasUnsavedEdits())
        p.keeper->save(); // the last second of typing in the lesson shown before
    const lessons::Lesson *lesson = m_model->lessonAt(row);
    p.session->setLesson(lesson); // the views follow it
    p.lessonList->setCurrentIndex(m_model->index(row));
    // A PyTorch lesson runs for real and draws a loss curve: no steps, timeline or memory.
    const bool torch = lesson->isTorch();
    p.lessonRun->stopForLesson();
    p.stepping->setVisible(!torch);
    p.lossChart->setVisible(torch);
    for (const Tab simulatedOnly :
         {Tab::State, Tab::Overview, Tab::Why, Tab::Compare, Tab::Real, Tab::WhatIf})
        p.tabs->setTabEnabled(int(simulatedOnly), !torch);
    p.realRun->action()->setEnabled(!torch && !p.realRun->controller().isRunning());
    p.tabs->setTabEnabled(int(Tab::Experiments), !lesson->experiments.empty());
    showTab(Tab::Lesson);
    if (isVisible())    // else the layout just restored (or the defaults) stays
        arrangeViews(); // no run yet: the views are placeholders
    else
        p.memoryChart->setVisible(false);
    p.keeper->open(lessonId, QString::fromStdString(lesson->starter));
    m_progress.setLastLesson(lessonId);
    setWindowTitle(tr("%1 — Rankstep").arg(lessonTitle(*lesson)));
    Q_EMIT lessonOpened(lessonId);
    statusBar()->showMessage(LessonRunActions::settingsText(*lesson));
    return true;
}

// After a hang, the picture of who waits on whom; otherwise its tab stays, disabled.
void MainWindow::showWaitFor()
{
    const TracePtr &trace = m_parts.session->trace();
    const bool hung = trace && trace->diagnosis;
    m_parts.tabs->setTabEnabled(int(Tab::Hang), hung);
    if (hung)
        showTab(Tab::Hang);
    else if (currentTab() == Tab::Hang)
        showTab(Tab::Lesson);
}

// The window feeds shareViews() (viewshares.h) what it shows and its sizes, and applies the
// shares it returns.
void MainWindow::arrangeViews()
{
    const WindowParts &p = m_parts;
    ViewSharesInput in;
    in.lessonTab = currentTab() == Tab::Lesson;
    // The Compare tab draws two runs' timelines and their memory: at 1500x940 its memory plot
    // was reached only by scrolling.
    in.wideTab =
        currentTab() == Tab::WhatIf || currentTab() == Tab::Class || currentTab() == Tab::Compare;
    // The Why tab's tables (what a rank holds, eight columns; each rank's times): at 1280x800 half
    // the width scrolled five of the eight columns out of sight and cut "Communication".
    in.tableTab = currentTab() == Tab::Why;
    in.torch = currentLesson() && currentLesson()->isTorch();
    const TracePtr &trace = p.session->trace();
    in.ran = in.torch ? p.session->lessonReport() != nullptr : trace != nullptr;
    in.presenting = p.presentation && p.presentation->isActive();
    in.events = trace && trace->figures.hasEvents;
    in.failed = !in.torch && trace && trace->error.has_value();
    in.quizShown = p.quizPanel->isVisibleTo(this);
    in.windowHeight = height();
    in.barsHeight = barsHeight();
    // Before a run the chart's placeholder would only take height.
    p.memoryChart->setVisible(in.ran && !in.torch && in.events);
    keepChartHeight();
    in.workWidth = p.work->width() - p.work->handleWidth();
    // The roster, the sweep and the comparison want the room, and so do the panels a quiz's
    // question is about (presenting): the code wraps in fewer columns beside them.
    const bool quizAsks = in.presenting && in.quizShown;
    p.editor->setMinimumColumns(
        in.wideTab || in.tableTab || quizAsks ? kNarrowEditorColumns : CodeEditor::kMinimumColumns);
    in.editorMinimum = p.editor->minimumSizeHint().width();
    in.middleHeight = p.middle->height() - p.middle->handleWidth();
    in.workMinimum = p.work->minimumSizeHint().height();
    in.viewsHandle = p.views->handleWidth();
    in.resultsHead = p.results->headHeight();
    in.steppingBars = p.stepping->sizeHint().height() - p.timeline->sizeHint().height();
    in.timelineEightRows = p.timeline->heightForRows(8);
    const ViewShares shares = shareViews(in);
    // Presenting, the chart may give part of its quarter to the timeline's rows.
    p.memoryChart->setMinimumHeight(shares.chartMinimumHeight);
    p.work->setSizes(shares.work);
    p.middle->setSizes(shares.middle);
    p.views->setSizes(shares.views);
}

// Presenting, the memory chart keeps a quarter of the window's height at any size (a projector's
// full screen arrives after the views were arranged).
void MainWindow::keepChartHeight()
{
    const WindowParts &p = m_parts;
    if (!p.memoryChart || !p.quizPanel)
        return;
    const bool presenting = p.presentation && p.presentation->isActive();
    p.memoryChart->setMinimumHeight(
        chartMinimumHeight(presenting, p.quizPanel->isVisibleTo(this), height(), barsHeight()));
}

int MainWindow::barsHeight() const
{
    int height = 0;
    for (const QWidget *bar : {static_cast<const QWidget *>(m_parts.demoBar),
                               static_cast<const QWidget *>(m_parts.quizPanel)})
        if (bar && bar->isVisibleTo(this))
            height += bar->sizeHint().height();
    return height;
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    keepChartHeight();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (FileActions::acceptsDrop(*event->mimeData()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    m_parts.files->openDropped(*event->mimeData());
    event->acceptProposedAction();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // A recording is never lost on the way out: save it, throw it away, or stay.
    if (!m_parts.demonstrations->confirmClose()) {
        event->ignore();
        return;
    }
    m_parts.keeper->save();
    m_parts.runController->stop();
    m_parts.viewControls->saveLayout();
    event->accept();
}

} // namespace rankstep::gui
