// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "accessibility.h"
#include "appearance.h"
#include "applicationstyle.h"
#include "busyindicator.h"
#include "codeeditor.h"
#include "codekeeper.h"
#include "comparisonactions.h"
#include "comparisonview.h"
#include "core/explain/formulas.h"
#include "demoactions.h"
#include "demobar.h"
#include "editactions.h"
#include "errordialog.h"
#include "experimentsview.h"
#include "explainview.h"
#include "exportactions.h"
#include "helpactions.h"
#include "legendbar.h"
#include "lessonlistmodel.h"
#include "lessonpanel.h"
#include "losschart.h"
#include "memorychart.h"
#include "notebookimport.h"
#include "noticebanner.h"
#include "presentation.h"
#include "quizcontroller.h"
#include "quizpanel.h"
#include "realrunactions.h"
#include "realruncontroller.h"
#include "realrunview.h"
#include "recentfiles.h"
#include "resultspanel.h"
#include "rosterview.h"
#include "runsession.h"
#include "stateview.h"
#include "stepbar.h"
#include "stepcontroller.h"
#include "timeaxisaligner.h"
#include "timelineview.h"
#include "viewcontrols.h"
#include "waitforview.h"
#include "whatifview.h"

#include "core/io/costfile.h"
#include "core/lessons/puzzleimport.h"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace rankstep::gui {
namespace {

constexpr int kMemoryMinimumHeight = 110; // the chart's legend, plot and axes, unzoomed

// Each rank's line at the cursor; at the end of a hung run, the call each rank waits in, and no
// marker for a rank that finished (its last operation's line would look like where it hangs).
std::vector<std::pair<int, int>> rankLines(RunSession &session)
{
    StepController &step = session.stepper();
    const replay::RunState &state = step.state();
    std::vector<std::pair<int, int>> lines;
    for (std::size_t rank = 0; rank < state.ranks.size(); ++rank)
        lines.emplace_back(int(rank), state.ranks[rank].line);
    const auto &diagnosis = session.trace()->diagnosis;
    if (diagnosis && step.atEnd()) {
        for (const core::RankWait &wait : diagnosis->ranks)
            if (std::size_t(wait.rank) < lines.size() && (wait.finished || wait.line > 0))
                lines[std::size_t(wait.rank)].second = wait.finished ? 0 : wait.line;
    }
    // A rank that failed stands on the line of its error, not its last recorded operation.
    const auto &error = session.trace()->error;
    if (error && !diagnosis && step.atEnd() && error->rank >= 0 && error->line > 0 &&
        std::size_t(error->rank) < lines.size())
        lines[std::size_t(error->rank)].second = error->line;
    return lines;
}

} // namespace

MainWindow::MainWindow(std::vector<lessons::Lesson> lessons, ProgressStore &progress,
                       QWidget *parent)
    : QMainWindow(parent)
    , m_progress(progress)
    , m_model(new LessonListModel(std::move(lessons), progress, this))
    , m_session(new RunSession(this))
    , m_appearance(new Appearance(this))
    , m_style(new ApplicationStyle(*m_appearance, this))
    , m_run(new RunController(this))
{
    setWindowTitle(tr("Rankstep"));
    setAcceptDrops(true); // a notebook dropped on the window is imported
    buildActions();
    buildLayout();
    connectViews();
    buildMenus();
    resize(1500, 940);
    // Restores the saved layout and look.
    m_viewControls =
        new ViewControls({this, {m_panes, m_work, m_middle, m_views}}, menuBar(), *m_appearance,
                         {m_panes, m_lessonList, m_lessonPanel}, m_session->stepper());
    connect(&presentation(), &PresentationMode::activeChanged, this, &MainWindow::arrangeViews);
    // The memory chart's "By kind" button, in the View menu too (with a key for the clicker).
    m_help = new HelpActions(menuBar(), this); // last, after View
    m_viewControls->menu()->addSeparator();
    QAction *byKind = m_viewControls->menu()->addAction(tr("Memory by &Kind"));
    byKind->setObjectName(QStringLiteral("memoryByKindAction"));
    byKind->setCheckable(true);
    byKind->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    connect(byKind, &QAction::toggled, m_memory, &MemoryChart::setByKind);
    // Presenting: a question for the room before each step (docs/quiz.md).
    QAction *quiz = m_viewControls->menu()->addAction(tr("&Predict the Next Step (Quiz)"));
    quiz->setObjectName(QStringLiteral("quizAction"));
    quiz->setCheckable(true);
    quiz->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Q));
    quiz->setToolTip(
        tr("While presenting, each step forward first asks the room a question "
           "about it; the next press shows the answer with the step."));
    connect(quiz, &QAction::toggled, m_quiz, &QuizController::setEnabled);
    connect(m_quiz, &QuizController::enabledChanged, quiz, &QAction::setChecked);
    connect(m_memory, &MemoryChart::byKindChanged, byKind, &QAction::setChecked);
    new Accessibility(*this); // names, descriptions and text alternatives for screen readers
    const QString last = m_progress.lastLesson();
    if (!openLesson(last) && m_model->rowCount() > 0)
        openLesson(m_model->data(m_model->index(0), LessonListModel::IdRole).toString());
}

MainWindow::~MainWindow()
{
    m_viewControls->saveLayout();
}

TracePtr MainWindow::lastTrace() const
{
    return m_session->trace();
}

StepController *MainWindow::stepController() const
{
    return &m_session->stepper();
}

PresentationMode &MainWindow::presentation() const
{
    return *m_viewControls->presentation();
}

void MainWindow::showPane(Pane pane)
{
    switch (pane) {
        case Pane::Lesson:
            m_leftTabs->setCurrentWidget(m_lessonPanel);
            break;
        case Pane::State:
            m_leftTabs->setCurrentWidget(m_stateView);
            break;
        case Pane::Hang:
            m_leftTabs->setCurrentWidget(m_waitForView);
            break;
        case Pane::Why:
            m_leftTabs->setCurrentWidget(m_explainView);
            break;
        case Pane::Compare:
            m_leftTabs->setCurrentWidget(m_comparisonView);
            break;
        case Pane::Experiments:
            m_leftTabs->setCurrentWidget(m_experiments);
            break;
        case Pane::WhatIf:
            m_leftTabs->setCurrentWidget(m_whatIf);
            break;
        case Pane::Real:
            m_leftTabs->setCurrentWidget(m_realRunView);
            break;
        case Pane::Class:
            m_leftTabs->setCurrentWidget(m_roster);
            break;
    }
}

MainWindow::Pane MainWindow::currentPane() const
{
    const QWidget *current = m_leftTabs->currentWidget();
    const std::pair<const QWidget *, Pane> panes[] = {
        {m_stateView, Pane::State},         {m_waitForView, Pane::Hang},
        {m_explainView, Pane::Why},         {m_comparisonView, Pane::Compare},
        {m_experiments, Pane::Experiments}, {m_whatIf, Pane::WhatIf},
        {m_realRunView, Pane::Real},        {m_roster, Pane::Class}};
    for (const auto &[widget, pane] : panes)
        if (widget == current)
            return pane;
    return Pane::Lesson;
}

namespace {

constexpr std::pair<MainWindow::Pane, const char *> kPaneNames[] = {
    {MainWindow::Pane::Lesson, "lesson"},   {MainWindow::Pane::State, "state"},
    {MainWindow::Pane::Hang, "hang"},       {MainWindow::Pane::Why, "why"},
    {MainWindow::Pane::Compare, "compare"}, {MainWindow::Pane::Experiments, "experiments"},
    {MainWindow::Pane::WhatIf, "whatif"},   {MainWindow::Pane::Real, "real"},
    {MainWindow::Pane::Class, "class"}};

} // namespace

QString MainWindow::paneName(Pane pane)
{
    for (const auto &[each, name] : kPaneNames)
        if (each == pane)
            return QLatin1String(name);
    return QStringLiteral("lesson");
}

std::optional<MainWindow::Pane> MainWindow::paneFromName(const QString &name)
{
    for (const auto &[pane, each] : kPaneNames)
        if (name == QLatin1String(each))
            return pane;
    return std::nullopt;
}

// File > Record a Demonstration and Replay a Demonstration (docs/demonstrations.md): what they
// read from the window and put back, and every change on screen a recording keeps.
void MainWindow::buildDemonstrations()
{
    DemoStage stage;
    stage.session = m_session;
    stage.appearance = m_appearance;
    stage.lessonId = [this] {
        return m_lesson ? QString::fromStdString(m_lesson->id) : QString();
    };
    stage.tab = [this] {
        return paneName(currentPane());
    };
    stage.showTab = [this](const QString &name) {
        if (const auto pane = paneFromName(name))
            showPane(*pane);
    };
    stage.openLesson = [this](const QString &id) {
        return openLesson(id);
    };
    stage.showCode = [this](const QString &code, const QString &cost, const QString &why) {
        auto *preset = findChild<QAction *>(QStringLiteral("cost:") + cost);
        if (!preset)
            return false;
        if (!preset->isChecked())
            preset->trigger();
        showScriptCode(code, why);
        return true;
    };
    stage.runCode = [this] {
        runCode();
    };
    stage.cost = [this] {
        return m_costPreset;
    };
    stage.setCost = [this](const QString &cost) {
        auto *preset = findChild<QAction *>(QStringLiteral("cost:") + cost);
        if (preset && !preset->isChecked())
            preset->trigger();
    };
    stage.showTrace = [this](const TracePtr &trace) {
        showTrace(trace, QString());
        m_editor->clearMarkers();
        if (trace->error)
            m_editor->markError(trace->error->line);
    };
    m_demos = new DemoActions(stage, *m_demoBar, *m_stepBar, m_fileMenu, this);
    // The bar and its caption, and the quiz, take height from the memory chart, not from the
    // timeline's rows.
    const auto rearrange = [this] {
        QTimer::singleShot(0, this, &MainWindow::arrangeViews);
    };
    connect(m_demoBar, &DemoBar::shownChanged, this, rearrange);
    connect(m_quizPanel, &QuizPanel::shownChanged, this, rearrange);
    connect(m_demos, &DemoActions::message, this,
            [this](const QString &text) { statusBar()->showMessage(text); });
    connect(this, &MainWindow::runStarted, m_demos, &DemoActions::onRunStarted);
    connect(this, &MainWindow::runFinished, m_demos, &DemoActions::onRunFinished);
    // A run that could not start ends the wait for it as a finished one would.
    connect(this, &MainWindow::runRefused, m_demos, [this] { m_demos->onRunFinished(); });
    connect(this, &MainWindow::lessonOpened, m_demos, &DemoActions::onLessonOpened);
    const auto note = [this](const char *change) {
        return [this, change] {
            m_demos->noteChange(QLatin1String(change));
        };
    };
    connect(this, &MainWindow::paneChanged, m_demos, note("tab"));
    connect(&m_session->stepper(), &StepController::cursorChanged, m_demos, note("step"));
    connect(m_session, &RunSession::visibleRangeChanged, m_demos, note("view"));
    connect(m_session, &RunSession::selectedRankChanged, m_demos, note("select"));
    connect(m_session, &RunSession::selectedEventChanged, m_demos, note("select"));
    connect(m_session, &RunSession::shownRanksChanged, m_demos, note("ranks"));
    connect(m_appearance, &Appearance::zoomChanged, m_demos, note("zoom"));
}

// File: import a notebook (Ctrl+I), export the run; View: ViewControls.
void MainWindow::buildMenus()
{
    m_fileMenu = menuBar()->addMenu(tr("&File"));
    m_fileMenu->setObjectName(QStringLiteral("fileMenu"));
    m_import = new NotebookImport(*this, m_fileMenu, m_model->lessons(), m_progress);
    // connectViews() made the status bar's busy sign.
    connect(m_import, &NotebookImport::importingChanged, this,
            [this](bool importing, const QString &fileName) {
                importing
                    ? m_busy->begin(QStringLiteral("import"), tr("Importing %1").arg(fileName))
                    : m_busy->end(QStringLiteral("import"));
            });
    m_export = new ExportActions(
        *m_session, *m_appearance, *m_stateView, [this] { return m_lesson; }, m_fileMenu, this);
    connect(m_export, &ExportActions::exported, this, [this](const QString &path) {
        statusBar()->showMessage(tr("Saved %1.").arg(QDir::toNativeSeparators(path)));
    });
    buildDemonstrations();
    // A teacher's class: every learner's code graded at once (README "Grading a class").
    m_fileMenu->addSeparator();
    QAction *openClass = m_fileMenu->addAction(tr("Open &Class Folder…"), this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(
            this, tr("Open a Class Folder"),
            QSettings().value(QStringLiteral("class/folder")).toString());
        if (!folder.isEmpty())
            openClassFolder(folder);
    });
    openClass->setObjectName(QStringLiteral("openClassAction"));
    openClass->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_recent = new RecentFiles(
        m_fileMenu, [this](const QString &path) { openFile(path); }, this);
    connect(m_recent, &RecentFiles::message, this,
            [this](const QString &text) { statusBar()->showMessage(text); });
    connect(m_import, &NotebookImport::fileRead, m_recent, &RecentFiles::add);
    connect(m_demos, &DemoActions::replayed, m_recent, &RecentFiles::add);
    m_fileMenu->addSeparator();
    QAction *quit = m_fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("quitAction"));
    // The desktop's Quit key; Ctrl+Q where its scheme has none (Windows-like schemes close with
    // Alt+F4, which the window manager handles).
    const QList<QKeySequence> quitKeys = QKeySequence::keyBindings(QKeySequence::Quit);
    quit->setShortcuts(quitKeys.isEmpty() ? QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::Key_Q)}
                                          : quitKeys);
    quit->setMenuRole(QAction::QuitRole);
    m_edit = new EditActions(*m_editor, menuBar(), this);
    m_editorColumn->insertWidget(1, m_edit->findBar()); // under the notice, over the code
    // What if at real scale (docs/cost-models.md): the runs' cost model. Lessons are graded under
    // the notebook's only; another one checks the code and shows seconds and bytes.
    QMenu *run = menuBar()->addMenu(tr("&Run"));
    // The What if tab (docs/sweeps.md): the same code at many settings.
    QAction *whatIf = run->addAction(tr("&What If: Sweep the Settings…"), this, [this] {
        showPane(Pane::WhatIf);
        m_whatIf->focusFields();
    });
    whatIf->setObjectName(QStringLiteral("whatIfAction"));
    QMenu *costs = run->addMenu(tr("Cost &Model"));
    costs->setObjectName(QStringLiteral("costMenu"));
    auto *group = new QActionGroup(this);
    for (const std::string &name : io::costPresetNames()) {
        QAction *action = costs->addAction(QString::fromStdString(name));
        action->setObjectName(QStringLiteral("cost:") + QString::fromStdString(name));
        action->setCheckable(true);
        action->setChecked(name == "notebook");
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, name] {
            m_costPreset = QString::fromStdString(name);
            statusBar()->showMessage(
                name == "notebook"
                    ? tr("The notebook's costs: runs are graded against the lesson's targets.")
                    : tr("Cost model %1: runs are checked, not graded; the results give "
                         "seconds, the views milliseconds (F5 runs it).")
                          .arg(m_costPreset));
        });
    }
}

void MainWindow::buildActions()
{
    QToolBar *bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    // The toolbar names each key as the desktop writes it, from the action's own shortcut.
    const auto keyText = [](QAction *action) {
        return action->shortcut().toString(QKeySequence::NativeText);
    };
    m_runAction = bar->addAction(QString(), this, &MainWindow::runCode);
    m_runAction->setObjectName(QStringLiteral("runAction"));
    m_runAction->setShortcut(Qt::Key_F5);
    m_runAction->setText(tr("▶ Run (%1)").arg(keyText(m_runAction)));
    m_stopAction = bar->addAction(QString(), this, &MainWindow::stopRun);
    m_stopAction->setShortcuts(QKeySequence::keyBindings(QKeySequence::Cancel));
    m_stopAction->setText(tr("■ Stop (%1)").arg(keyText(m_stopAction)));
    m_stopAction->setEnabled(false);
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    m_realRun = new RealRunActions(
        *m_session, [this] { return prepareRun(); }, this);
    bar->addAction(m_realRun->action());
    m_torchRun = new RealRunController(this);
    bar->addSeparator();
    m_resetAction = bar->addAction(tr("Reset to starter…"), this, &MainWindow::resetToStarter);
}

void MainWindow::buildLayout()
{
    m_lessonList = new QListView;
    m_lessonList->setObjectName(QStringLiteral("lessonList"));
    m_lessonList->setModel(m_model);
    m_lessonList->setMinimumWidth(150);
    m_lessonList->setWordWrap(true);
    m_lessonList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_lessonList->setSpacing(2);
    m_lessonPanel = new LessonPanel;
    m_editor = new CodeEditor(*m_appearance);
    m_editor->setObjectName(QStringLiteral("editor"));
    m_keeper = new CodeKeeper(m_progress, *m_editor, this);
    auto *codeNotice = new NoticeBanner;
    connect(m_keeper, &CodeKeeper::noticeChanged, codeNotice, &NoticeBanner::showNotice);
    auto *editorPane = new QWidget; // what is wrong with the code file sits right above it
    auto *editorLayout = m_editorColumn = new QVBoxLayout(editorPane);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    editorLayout->addWidget(codeNotice);
    editorLayout->addWidget(m_editor, 1);
    m_results = new ResultsPanel;
    m_results->setMinimumHeight(60);
    m_timeline = new TimelineView(*m_session, *m_appearance);
    m_memory = new MemoryChart(*m_session, *m_appearance);
    m_memory->setMinimumHeight(kMemoryMinimumHeight);
    m_timeline->setMinimumHeight(90);
    m_stepBar = new StepBar(*m_session, *m_appearance);
    auto *stepping = new QWidget; // the step bar sits right above the timeline it drives
    auto *steppingLayout = new QVBoxLayout(stepping);
    steppingLayout->setContentsMargins(0, 0, 0, 0);
    steppingLayout->setSpacing(0);
    // While the views show a run on real processes, they say so above the step bar: the
    // results beside them are still the simulation's.
    auto *realNotice = new NoticeBanner;
    realNotice->setObjectName(QStringLiteral("realRunNotice"));
    connect(m_session, &RunSession::traceChanged, realNotice, [this, realNotice] {
        const TracePtr &trace = m_session->trace();
        const bool seconds = m_session->units() == TraceUnits::Seconds;
        if (seconds && trace && trace->config.cost.realScale())
            realNotice->showNotice(
                tr("Simulated under the cost model %1: times in milliseconds, memory in bytes "
                   "(Run > Cost Model; the lesson is graded under the notebook's).")
                    .arg(QString::fromStdString(trace->config.cost.name)));
        else
            realNotice->showNotice(
                seconds ? tr("These views show the run on real processes: times in "
                             "milliseconds, memory in the bytes its tensors held. Ctrl+Shift+F5 "
                             "goes back to the simulation, whose results are above.")
                        : QString());
    });
    m_demoBar = new DemoBar; // a demonstration recorded or replayed, and its caption
    steppingLayout->addWidget(m_demoBar);
    m_quizPanel = new QuizPanel; // presenting: a question before the step it is about
    steppingLayout->addWidget(m_quizPanel);
    m_quiz = new QuizController(*m_session, *m_appearance, *m_quizPanel, this);
    steppingLayout->addWidget(realNotice);
    steppingLayout->addWidget(m_stepBar);
    m_legend = new LegendBar(*m_session, *m_appearance); // in the window, presenting too
    steppingLayout->addWidget(m_legend);
    steppingLayout->addWidget(m_timeline, 1);
    m_stepping = stepping;
    m_loss = new LossChart; // a PyTorch lesson's run: its loss curve instead of a timeline
    m_loss->setObjectName(QStringLiteral("lossChart"));
    m_loss->setLook(m_appearance->look());
    m_loss->hide();
    connect(m_appearance, &Appearance::lookChanged, m_loss,
            [this] { m_loss->setLook(m_appearance->look()); });

    // The lesson, and while stepping the state of every rank, share the left of the editor.
    m_stateView = new StateView(*m_session, *m_appearance);
    m_leftTabs = new QTabWidget;
    m_leftTabs->setObjectName(QStringLiteral("leftTabs"));
    m_leftTabs->setUsesScrollButtons(true); // five tabs never widen the window
    m_leftTabs->addTab(m_lessonPanel, tr("Lesson"));
    m_leftTabs->addTab(m_stateView, tr("State of every rank"));
    m_waitForView = new WaitForView(*m_session, *m_appearance); // enabled after a run that hung
    m_leftTabs->addTab(m_waitForView, tr("Why it hung"));
    m_leftTabs->setTabEnabled(m_leftTabs->indexOf(m_waitForView), false);
    m_explainView = new ExplainView(*m_session, *m_appearance);
    m_leftTabs->addTab(m_explainView, tr("Why"));
    m_comparisonView = new ComparisonView(*m_session, *m_appearance);
    m_leftTabs->addTab(m_comparisonView, tr("Compare"));
    m_comparison = new ComparisonActions(*m_session, *m_comparisonView, m_model->lessons(), this);
    connect(m_comparison, &ComparisonActions::message, this,
            [this](const QString &text) { statusBar()->showMessage(text); });
    connect(m_comparison, &ComparisonActions::comparisonShown, this,
            [this] { m_leftTabs->setCurrentWidget(m_comparisonView); });
    m_leftTabs->setTabToolTip(m_leftTabs->indexOf(m_explainView),
                              tr("What fills each rank's memory, and where its time goes"));
    m_experiments = new ExperimentsView(*m_session, *m_appearance);
    m_leftTabs->addTab(m_experiments, tr("Experiments"));
    m_whatIf = new WhatIfView(*m_session, *m_appearance);
    m_leftTabs->addTab(m_whatIf, tr("What if"));
    m_leftTabs->setTabToolTip(m_leftTabs->indexOf(m_whatIf),
                              tr("Your code at many settings: Timesteps against peak memory"));
    m_realRunView = new RealRunView(*m_session, *m_appearance);
    m_leftTabs->addTab(m_realRunView, tr("For real"));
    m_roster = new RosterView; // a class folder graded (File > Open Class Folder)
    m_leftTabs->addTab(m_roster, tr("Class"));
    m_leftTabs->setTabToolTip(m_leftTabs->indexOf(m_roster),
                              tr("A class folder: every learner's lessons, solved or why not"));
    m_grading = new GradeController(this);
    auto *work = m_work = new QSplitter(Qt::Horizontal);
    work->setObjectName(QStringLiteral("work"));
    work->addWidget(m_leftTabs);
    work->addWidget(editorPane);
    work->setCollapsible(1, false); // the editor keeps its columns (CodeEditor::minimumSizeHint)
    work->setStretchFactor(1, 1);
    work->setSizes({360, 700});
    // The results sit above the timeline, so the editor keeps the window's width.
    auto *views = m_views = new QSplitter(Qt::Vertical);
    views->setObjectName(QStringLiteral("views"));
    views->addWidget(m_results);
    views->addWidget(stepping);
    views->addWidget(m_memory);
    views->addWidget(m_loss);
    views->setCollapsible(2, false);
    views->setSizes({80, 110, 90});
    auto *middle = m_middle = new QSplitter(Qt::Vertical);
    middle->setObjectName(QStringLiteral("middle"));
    middle->addWidget(work);
    middle->addWidget(views);
    middle->setSizes({640, 280});
    connect(m_leftTabs, &QTabWidget::currentChanged, this, &MainWindow::arrangeViews);
    connect(m_leftTabs, &QTabWidget::currentChanged, this, &MainWindow::paneChanged);
    auto *main = m_panes = new QSplitter(Qt::Horizontal);
    main->setObjectName(QStringLiteral("panes"));
    main->addWidget(m_lessonList);
    main->addWidget(middle);
    main->setCollapsible(1, false);
    main->setStretchFactor(1, 1);
    main->setSizes({200, 1300});
    setCentralWidget(main);
    statusBar()->showMessage(tr("Ready."));
}

// Before a run the views hold only placeholders: the lesson and the editor get the height.
// Stepping, the panels of every rank want room: their tab takes more of the width and the
// height, the editor never less than its columns; presenting, the memory chart keeps a quarter of
// the window's height.
void MainWindow::arrangeViews()
{
    const bool lesson = m_leftTabs->currentWidget() == m_lessonPanel;
    const bool torch = m_lesson && m_lesson->isTorch();
    const bool ran = torch ? m_loss->hasReport() : m_session->trace() != nullptr;
    const bool presenting = m_viewControls && presentation().isActive();
    // A run that made no operations (a starter, a syntax error) has no chart: what went wrong,
    // in the results, takes its room; the timeline says why it is empty.
    const TracePtr &trace = m_session->trace();
    const bool events = trace && trace->figures.hasEvents;
    const bool failed = !torch && trace && trace->error.has_value();
    const bool chartShown = ran && !torch && events;
    m_memory->setVisible(chartShown); // before a run its placeholder would only take height
    keepChartHeight();
    const int width = m_work->width() - m_work->handleWidth();
    const int editor = m_editor->minimumSizeHint().width();
    // The What if tab's chart and table, and the class roster, want the most room, the views
    // below them the least.
    const bool whatIf =
        m_leftTabs->currentWidget() == m_whatIf || m_leftTabs->currentWidget() == m_roster;
    const double leftShare = lesson ? 0.36 : whatIf ? 0.58 : 0.5;
    const int left = std::max(0, std::min(int(width * leftShare), width - editor));
    m_work->setSizes({left, width - left});

    const int height = m_middle->height() - m_middle->handleWidth();
    const double viewsShare = !ran ? 0.28 : presenting ? 0.62 : whatIf ? 0.3 : lesson ? 0.52 : 0.46;
    int views = int(height * viewsShare);
    // Presenting, the verdict and the two figures are enough: the timeline's rows need the room.
    // While the quiz asks the room (presenting), the results give it their room: the verdict
    // stays in the status bar.
    const bool quiz = presenting && m_quizPanel->isVisibleTo(this);
    // A failed run's results say what went wrong, and they need the room to say it.
    const auto resultsFor = [&](int room) {
        return quiz ? 0
               : presenting && ran
                   ? std::max(int(room * (failed ? 0.25 : 0.1)), m_results->headHeight())
                   : int(room * (!ran      ? 0.3
                                 : !failed ? 0.18
                                 : events  ? 0.3
                                           : 0.45));
    };
    // A demonstration's bar (or the quiz, outside presentation mode) above the step bar takes
    // half its height from the chart.
    // While the quiz asks, the chart keeps its least height: the timeline's rows answer "which
    // rank moves next".
    const auto chartFor = [&](int room) {
        if (!chartShown)
            return 0;
        return quiz ? chartFloor()
                    : std::max(chartFloor(),
                               (presenting ? std::max(this->height() / 4 + 4, int(room * 0.42))
                                           : int(room * 0.38)) -
                                   barsHeight() / 2);
    };
    // Every rank's row (up to eight) is shown: at 1280x800 a four-rank run hid rank 3 behind the
    // timeline's scroll bar. The room comes from the code and lesson above (at most a tenth of
    // the height; not presenting, where the state view above is what the class watches), then
    // from the chart down to its floor.
    const int bars = m_stepping->sizeHint().height() - m_timeline->sizeHint().height();
    const auto missingFor = [&](int room) {
        const int inner = room - 2 * m_views->handleWidth();
        return m_timeline->heightForRows(8) - (inner - resultsFor(room) - chartFor(room) - bars);
    };
    // Results and chart grow with the room too: a few rounds give the timeline what it misses.
    if (chartShown && !presenting && !whatIf)
        for (int grown = 0, round = 0; round < 4 && grown < height / 10; ++round) {
            const int more = std::clamp(missingFor(views), 0, height / 10 - grown);
            if (more == 0)
                break;
            views += more;
            grown += more;
        }
    m_middle->setSizes({height - views, views});
    const int results = resultsFor(views);
    int chart = chartFor(views);
    // The three panes share what the splitter's two handles leave (else it scales them all).
    const int inner = views - 2 * m_views->handleWidth();
    if (const int missing = missingFor(views); chartShown && missing > 0)
        chart = std::max({chartFloor(), m_memory->minimumHeight(), chart - missing});
    if (torch) { // the verdict and its checks over the loss curve
        const int verdict = std::max(results, int(views * 0.34));
        m_views->setSizes({verdict, 0, 0, std::max(0, inner - verdict)});
        return;
    }
    m_views->setSizes({results, std::max(0, inner - results - chart), chart, 0});
}

void MainWindow::connectViews()
{
    connect(m_lessonList, &QListView::clicked, this, &MainWindow::onLessonActivated);
    connect(m_lessonList, &QListView::activated, this, &MainWindow::onLessonActivated);
    connect(m_editor, &CodeEditor::codeEdited, this, [this] { saveCode(); });
    connect(m_lessonPanel, &LessonPanel::solutionRequested, m_keeper, &CodeKeeper::resetTo);
    connect(m_run, &RunController::traceAvailable, this, &MainWindow::onTraceAvailable);
    // Run for real: the simulation of the same code on screen, the real one in its tab.
    connect(m_realRun, &RealRunActions::simulationWanted, this, [this](const RunSpec &spec) {
        m_lastSpec = spec;
        m_run->start(spec);
    });
    connect(m_realRun, &RealRunActions::started, this,
            [this] { m_leftTabs->setCurrentWidget(m_realRunView); });
    connect(m_realRun, &RealRunActions::message, this,
            [this](const QString &text) { statusBar()->showMessage(text); });
    connect(m_realRunView, &RealRunView::realRunRequested, m_realRun, &RealRunActions::runForReal);
    m_realRunView->setShowAction(m_realRun->showRealAction());
    addAction(m_realRun->showRealAction()); // its shortcut works wherever the focus is
    connect(m_torchRun, &RealRunController::finished, this, &MainWindow::onTorchLessonFinished);
    // A real rank's error is marked on its line, as a simulated one is; the For real tab says it.
    connect(&m_realRun->controller(), &RealRunController::finished, this,
            [this](const RealRunOutcome &outcome) {
                if (const int line = rankErrorLine(outcome.output); line > 0)
                    m_editor->markError(line);
            });
    connect(m_torchRun, &RealRunController::runningChanged, this, [this](bool running) {
        m_runAction->setEnabled(!running);
        updateStopAction();
    });
    connect(m_run, &RunController::runFailed, this, &MainWindow::onRunFailed);
    connect(m_run, &RunController::runningChanged, this, &MainWindow::onRunningChanged);
    connect(&m_realRun->controller(), &RealRunController::runningChanged, this,
            &MainWindow::updateStopAction);
    connect(m_whatIf, &WhatIfView::runningChanged, this, &MainWindow::updateStopAction);
    connect(m_grading, &GradeController::runningChanged, this, &MainWindow::updateStopAction);
    // Long work shows in the status bar with its seconds.
    m_busy = new BusyIndicator;
    statusBar()->addPermanentWidget(m_busy);
    const auto busy = [this](const QString &key, const QString &text) {
        return [this, key, text](bool running) {
            running ? m_busy->begin(key, text) : m_busy->end(key);
        };
    };
    connect(m_run, &RunController::runningChanged, this,
            busy(QStringLiteral("run"), tr("Running your code")));
    connect(&m_realRun->controller(), &RealRunController::runningChanged, this,
            busy(QStringLiteral("real"), tr("Running your code for real")));
    connect(m_torchRun, &RealRunController::runningChanged, this,
            busy(QStringLiteral("torch"), tr("Training for real with PyTorch")));
    connect(m_whatIf, &WhatIfView::runningChanged, this,
            busy(QStringLiteral("sweep"), tr("Running the What if settings")));
    connect(m_grading, &GradeController::runningChanged, this,
            busy(QStringLiteral("grade"), tr("Grading the class")));
    connect(m_grading, &GradeController::finished, m_roster, &RosterView::setRoster);
    connect(m_grading, &GradeController::failed, m_roster, &RosterView::showFailure);
    connect(m_grading, &GradeController::stopped, m_roster, &RosterView::showStopped);
    connect(m_roster, &RosterView::openFolderRequested, this,
            [this] { findChild<QAction *>(QStringLiteral("openClassAction"))->trigger(); });
    connect(m_roster, &RosterView::gradeAgainRequested, this,
            [this] { openClassFolder(m_roster->folder()); });
    connect(m_roster, &RosterView::cellActivated, this, &MainWindow::openClassSubmission);
    connect(m_whatIf, &WhatIfView::openRun, this, &MainWindow::openSweepRun);
    m_whatIf->setCodeSource([this]() -> std::optional<SweepSpec> {
        if (!m_lesson)
            return std::nullopt;
        QString error;
        if (!saveCode(&error)) {
            statusBar()->showMessage(
                tr("Rankstep saves your code before a sweep, and saving failed: %1. Nothing was "
                   "run.")
                    .arg(error));
            return std::nullopt;
        }
        SweepSpec spec;
        spec.codePath = m_keeper->runFilePath();
        spec.function = QString::fromStdString(m_lesson->function);
        spec.timeLimitSeconds = m_runTimeLimit;
        return spec;
    });
    connect(m_run, &RunController::runStopped, this, [this] {
        m_results->showMessage(tr("<p>Stopped. Your code is saved; change it and run again.</p>"));
        statusBar()->showMessage(tr("Stopped."));
        Q_EMIT runFinished();
    });
    connect(m_timeline, &TimelineView::lineActivated, m_editor, &CodeEditor::jumpToLine);
    connect(m_explainView, &ExplainView::lineActivated, m_editor, &CodeEditor::jumpToLine);
    connect(m_session, &RunSession::highlightChanged, this, [this] {
        if (!m_session->highlightSentence().isEmpty())
            statusBar()->showMessage(m_session->highlightSentence());
    });
    connect(&m_session->stepper(), &StepController::cursorChanged, this,
            &MainWindow::onCursorChanged);
    connect(m_session, &RunSession::traceChanged, this, &MainWindow::showWaitFor);
    connect(m_waitForView, &WaitForView::rankActivated, this, [this](int rank, int line) {
        auto lines = rankLines(*m_session);
        for (auto &[lineRank, rankLine] : lines)
            if (lineRank == rank && line > 0) // a finished rank waits on no line
                rankLine = line;
        m_editor->setRankLines(lines, rank);
        m_editor->jumpToLine(line);
    });
    new TimeAxisAligner(m_timeline, m_memory, this); // one time axis for both views
}

// The views follow the cursor themselves; the window shows the state tab while stepping and each
// rank's line in the editor.
void MainWindow::onCursorChanged()
{
    const auto cursor = m_session->stepper().cursor();
    if (!cursor) {
        m_editor->clearRankLines();
        return;
    }
    if (!cursor->atEnd()) // stepping: show what every rank holds
        m_leftTabs->setCurrentWidget(m_stateView);
    const auto event = cursor->lastEvent();
    m_editor->setRankLines(rankLines(*m_session),
                           event ? m_session->trace()->events[*event].rank : 0);
}

bool MainWindow::openLesson(const QString &lessonId)
{
    const int row = m_model->rowOf(lessonId);
    if (row < 0)
        return false;
    if (m_run->isRunning())
        m_run->stop();
    if (m_editor->hasUnsavedEdits())
        saveCode(); // the last second of typing in the lesson shown before
    m_lesson = m_model->lessonAt(row);
    m_session->clear();
    m_lessonList->setCurrentIndex(m_model->index(row));
    m_lessonPanel->setLesson(m_lesson);
    m_results->setLesson(m_lesson);
    m_explainView->setLesson(m_lesson);
    m_comparison->setCurrentLesson(m_lesson);
    m_experiments->setLesson(m_lesson);
    m_whatIf->setLesson(m_lesson);
    // A PyTorch lesson runs for real and draws a loss curve: no steps, timeline or memory.
    const bool torch = m_lesson->isTorch();
    if (m_torchRun->isRunning())
        m_torchRun->stop();
    m_stepping->setVisible(!torch);
    m_loss->setVisible(torch);
    m_loss->setReport(nullptr);
    const QWidget *simulatedOnly[] = {m_stateView, m_explainView, m_comparisonView, m_realRunView,
                                      m_whatIf};
    for (const QWidget *view : simulatedOnly)
        m_leftTabs->setTabEnabled(m_leftTabs->indexOf(view), !torch);
    m_realRun->action()->setEnabled(!torch && !m_realRun->controller().isRunning());
    m_leftTabs->setTabEnabled(m_leftTabs->indexOf(m_experiments), !m_lesson->experiments.empty());
    m_leftTabs->setCurrentWidget(m_lessonPanel);
    if (isVisible())    // else the layout just restored (or the defaults) stays
        arrangeViews(); // no run yet: the views are placeholders
    else
        m_memory->setVisible(false);
    m_memory->setTarget(m_lesson->targets ? std::optional<std::int64_t>(m_lesson->targets->memory)
                                          : std::nullopt);
    m_keeper->open(lessonId, QString::fromStdString(m_lesson->starter));
    m_progress.setLastLesson(lessonId);
    setWindowTitle(tr("%1 — Rankstep").arg(QString::fromStdString(m_lesson->title)));
    Q_EMIT lessonOpened(lessonId);
    const int ranks = m_lesson->config.ranks;
    if (torch) {
        statusBar()->showMessage(
            tr("%1: real PyTorch, %2, %3 steps. F5 trains it for real.")
                .arg(QString::fromStdString(m_lesson->title),
                     ranks == 1 ? tr("1 process") : tr("%1 processes").arg(ranks))
                .arg(m_lesson->torch->steps));
        return true;
    }
    statusBar()->showMessage(tr("%1: %2, %3 layers, %4 batches.")
                                 .arg(QString::fromStdString(m_lesson->title),
                                      ranks == 1 ? tr("1 rank") : tr("%1 ranks").arg(ranks))
                                 .arg(m_lesson->config.layers)
                                 .arg(m_lesson->config.batches));
    return true;
}

void MainWindow::showScriptCode(const QString &code, const QString &readOnlyWhy)
{
    m_keeper->showScript(m_lesson ? QString::fromStdString(m_lesson->id) : QStringLiteral("script"),
                         code, readOnlyWhy);
}

void MainWindow::onLessonActivated(const QModelIndex &index)
{
    const QString id = index.data(LessonListModel::IdRole).toString();
    if (!m_lesson || id != QString::fromStdString(m_lesson->id))
        openLesson(id);
}

bool MainWindow::saveCode(QString *error)
{
    if (!m_lesson || !m_keeper->save(error))
        return false;
    m_editor->markSaved(); // saved now: its pending save would write it again later
    return true;
}

void MainWindow::runCode()
{
    if (m_lesson && m_lesson->isTorch()) {
        runTorchLesson();
        return;
    }
    if (const std::optional<RunSpec> spec = prepareRun()) {
        m_lastSpec = *spec;
        m_run->start(*spec);
        Q_EMIT runStarted(m_editor->text(), m_costPreset);
    }
}

std::optional<RunSpec> MainWindow::prepareRun()
{
    if (!m_lesson)
        return std::nullopt;
    QString error;
    if (!saveCode(&error)) {
        // Not modal: a scripted run must still end, and the banner over the editor stays.
        const QString why =
            tr("Rankstep saves your code before every run, and saving failed: %1. Nothing was run.")
                .arg(error);
        statusBar()->showMessage(why);
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Your code could not be saved"), why,
                                    QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("saveFailedDialog"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        Q_EMIT runRefused(why);
        return std::nullopt;
    }
    m_editor->clearMarkers();
    m_results->showMessage(tr("<p>Running on %1 simulated ranks…</p>").arg(m_lesson->config.ranks));
    statusBar()->showMessage(tr("Running…"));
    RunSpec spec;
    spec.codePath = m_keeper->runFilePath();
    spec.function = QString::fromStdString(m_lesson->function);
    spec.ranks = m_lesson->config.ranks;
    spec.layers = m_lesson->config.layers;
    spec.batches = m_lesson->config.batches;
    spec.timeLimitSeconds = m_runTimeLimit;
    if (m_costPreset != QStringLiteral("notebook"))
        spec.cost = m_costPreset;
    return spec;
}

void MainWindow::stopRun()
{
    m_grading->stop();
    m_whatIf->stop();
    m_run->stop();
    m_realRun->controller().stop();
    m_torchRun->stop();
}

void MainWindow::runTorchLesson()
{
    if (m_torchRun->isRunning())
        return;
    const std::optional<RunSpec> spec = prepareRun(); // saves the code
    if (!spec)
        return;
    const int ranks = m_lesson->config.ranks;
    m_results->showMessage(
        tr("<p>Training for real with PyTorch: %1… The loss curve appears when it ends.</p>")
            .arg(ranks == 1 ? tr("one process") : tr("%1 processes").arg(ranks)));
    m_loss->setReport(nullptr);
    // The notebook's model trains in seconds to a minute here; an endless loop ends at this.
    constexpr double kTorchLessonSeconds = 600;
    m_torchRun->startLesson(QString::fromStdString(m_lesson->id), spec->codePath,
                            kTorchLessonSeconds, m_torchSteps, m_torchEmbd);
}

void MainWindow::onTorchLessonFinished(const RealRunOutcome &outcome)
{
    if (!m_lesson || !m_lesson->isTorch())
        return; // another lesson is open now
    const io::TorchLessonReport *report = outcome.lessonReport ? &*outcome.lessonReport : nullptr;
    m_loss->setReport(report);
    m_results->showMessage(torchLessonHtml(outcome.exitCode, outcome.output, report));
    const bool solved = report && report->solved;
    if (m_keeper->learnersCode() && outcome.exitCode != RealRunOutcome::kTorchMissing) {
        m_progress.recordRun(QString::fromStdString(m_lesson->id), solved);
        m_model->refresh(QString::fromStdString(m_lesson->id));
    }
    if (const int line = rankErrorLine(outcome.output); line > 0)
        m_editor->markError(line);
    statusBar()->showMessage(
        solved ? tr("Solved! Trained for real in %1 s.").arg(outcome.seconds, 0, 'f', 1)
               : tr("Not solved yet: see the checks above the loss curve."));
    arrangeViews();
    Q_EMIT runFinished();
}

void MainWindow::resetToStarter()
{
    if (!m_lesson)
        return;
    const auto answer =
        QMessageBox::question(this, tr("Reset to the starter code?"),
                              tr("Your code will be replaced by the lesson's starter code. You can "
                                 "undo this with Ctrl+Z."),
                              QMessageBox::Reset | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer == QMessageBox::Reset)
        m_keeper->resetTo(QString::fromStdString(m_lesson->starter));
}

void MainWindow::onRunningChanged(bool running)
{
    m_runAction->setEnabled(!running);
    updateStopAction();
}

void MainWindow::updateStopAction()
{
    m_stopAction->setEnabled(m_run->isRunning() || m_realRun->controller().isRunning() ||
                             m_torchRun->isRunning() || m_whatIf->isRunning() ||
                             m_grading->isRunning());
}

bool MainWindow::openFile(const QString &path)
{
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    QString why;
    if (!info.exists()) {
        why = tr("%1 is not there.").arg(QDir::toNativeSeparators(path));
    } else if (info.isDir()) {
        openClassFolder(path);
        return true;
    } else if (suffix == QLatin1String("ipynb") || suffix == QLatin1String("py")) {
        m_import->importAndReport(path);
        return true;
    } else if (suffix == QLatin1String("json")) {
        if (m_demos->replay(path, 0, &why))
            return true;
    } else {
        why = tr("Rankstep opens notebooks (.ipynb) and Python files (.py) to import, recorded "
                 "demonstrations (.json) to replay, and class folders to grade; %1 is none of "
                 "these.")
                  .arg(info.fileName());
    }
    statusBar()->showMessage(why);
    auto *box = new QMessageBox(QMessageBox::Warning, tr("This file cannot be opened"), why,
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("openFileFailedDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    return false;
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    const bool files =
        !urls.isEmpty() &&
        std::all_of(urls.begin(), urls.end(), [](const QUrl &url) { return url.isLocalFile(); });
    if (files)
        event->acceptProposedAction();
}

// A drop opens each file as File > Open Recent would: dropping a notebook imports it.
void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            openFile(url.toLocalFile());
    event->acceptProposedAction();
}

void MainWindow::openClassFolder(const QString &folder)
{
    QSettings().setValue(QStringLiteral("class/folder"), folder);
    m_recent->add(folder);
    showPane(Pane::Class);
    m_roster->showGrading(folder);
    m_grading->start(folder);
}

bool MainWindow::openClassSubmission(const QString &learner, const QString &lesson,
                                     const QString &file)
{
    if (!openLesson(lesson))
        return false;
    const auto imported = lessons::importPuzzleFile(file.toStdString(), m_model->lessons());
    const lessons::ImportedFunction *found = nullptr;
    if (imported)
        for (const lessons::ImportedFunction &function : imported->found)
            if (function.lessonId == lesson.toStdString())
                found = &function;
    if (!found) {
        statusBar()->showMessage(tr("%1's %2 is no longer in %3: %4")
                                     .arg(learner, lesson, QDir::toNativeSeparators(file),
                                          imported
                                              ? tr("the function is gone")
                                              : QString::fromStdString(imported.error().message)));
        showPane(Pane::Class);
        return false;
    }
    showScriptCode(QString::fromStdString(found->code),
                   tr("%1's code for this lesson, from %2: read-only, and its runs are never "
                      "graded as yours. Open the lesson again for your own code.")
                       .arg(learner, QDir::toNativeSeparators(file)));
    showPane(Pane::Class);
    runCode();
    statusBar()->showMessage(tr("Running %1's %2…").arg(learner, lesson));
    return true;
}

void MainWindow::openSweepRun(const io::SweepRow &row)
{
    auto loaded = loadTraceFile(QString::fromStdString(row.trace));
    if (!loaded) {
        statusBar()->showMessage(tr("Cannot open that setting's run: %1")
                                     .arg(QString::fromStdString(loaded.error().message)));
        return;
    }
    showTrace(std::make_shared<const core::Trace>(std::move(*loaded)), QString());
    const TracePtr &trace = m_session->trace();
    m_editor->clearMarkers();
    if (trace->error)
        m_editor->markError(trace->error->line);
    // A sweep's run is never recorded as the lesson's: judge() grades the lesson's setting only.
    statusBar()->showMessage(tr("The What if run at %1 ranks, %2 layers, %3 batches: %4")
                                 .arg(row.point.ranks)
                                 .arg(row.point.layers)
                                 .arg(row.point.batches)
                                 .arg(QString::fromStdString(row.status)));
}

void MainWindow::showTrace(const TracePtr &trace, const QString &output)
{
    // The weights and optimizer states a rank of a data-parallel or sharded lesson should hold,
    // for this run's ranks (docs/explain.md): a dotted line on the memory chart.
    const int sharers = explain::modelSharers(m_lesson->parallelism, trace->config.ranks);
    m_memory->setModelState(
        sharers > 0 ? std::optional<std::int64_t>(explain::modelStateBytes(trace->config, sharers))
                    : std::nullopt);
    // At the end: where the run finished, or where no rank could go on. A real-scale cost model's
    // ticks are microseconds (docs/cost-models.md).
    m_session->setTrace(
        trace, trace->config.cost.realScale() ? TraceUnits::Seconds : TraceUnits::SimulatedSteps);
    m_results->showTrace(trace, output);
    arrangeViews();
}

void MainWindow::onTraceAvailable(const TracePtr &trace, const QString &output)
{
    showTrace(trace, output);
    const lessons::Verdict verdict = lessons::judge(*m_lesson, *trace);
    // Under another cost model a run is not graded: it neither solves nor unsolves the lesson.
    if (m_keeper->learnersCode() && core::isNotebookCost(trace->config.cost)) {
        m_progress.recordRun(QString::fromStdString(m_lesson->id), verdict.solved);
        m_model->refresh(QString::fromStdString(m_lesson->id));
    }
    statusBar()->showMessage(verdictText(*m_lesson, *trace, verdict));
    // The bubble lesson's m = 1, 2, 4, 8: the same code again, in the background.
    if (!m_lesson->experiments.empty() && trace->status == core::RunStatus::Ok)
        m_experiments->runExperiments(m_lastSpec);
    if (trace->error) {
        m_editor->markError(trace->error->line);
        // A hang is explained by the "Why it hung" picture and the results banner; a dialog
        // would cover the picture and repeat it.
        // Placed clear of the line it explains and of every rank's state.
        if (!trace->diagnosis)
            showRunError(this, *trace,
                         {m_editor->lineRectGlobal(trace->error->line),
                          QRect(m_leftTabs->mapToGlobal(QPoint(0, 0)), m_leftTabs->size())});
    }
    Q_EMIT runFinished();
}

// After a hang, the picture of who waits on whom; otherwise its tab stays, disabled.
void MainWindow::showWaitFor()
{
    const TracePtr &trace = m_session->trace();
    const bool hung = trace && trace->diagnosis;
    const int tab = m_leftTabs->indexOf(m_waitForView);
    m_leftTabs->setTabEnabled(tab, hung);
    if (hung)
        m_leftTabs->setCurrentIndex(tab);
    else if (m_leftTabs->currentIndex() == tab)
        m_leftTabs->setCurrentWidget(m_lessonPanel);
}

void MainWindow::onRunFailed(const QString &message, const QString &output)
{
    m_results->showMessage(QStringLiteral("<p><b>%1</b></p><pre>%2</pre>")
                               .arg(message.toHtmlEscaped(), output.right(3000).toHtmlEscaped()));
    statusBar()->showMessage(message);
    auto *box = new QMessageBox(QMessageBox::Critical, tr("The run did not complete"), message,
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("runFailedDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (!output.isEmpty())
        box->setDetailedText(output.right(20000));
    box->open();
    Q_EMIT runFinished();
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    keepChartHeight();
}

// Presenting, the memory chart keeps a quarter of the window's height at any size (a projector's
// full screen arrives after the views were arranged), less while a demonstration's bar shows,
// and a sixth while the quiz asks (it never grows the window past the screen).
void MainWindow::keepChartHeight()
{
    const bool presenting = m_viewControls && presentation().isActive();
    const bool quiz = m_quizPanel && m_quizPanel->isVisibleTo(this);
    m_memory->setMinimumHeight(!presenting ? kMemoryMinimumHeight
                               : quiz
                                   ? chartFloor()
                                   : std::max(chartFloor(), height() / 4 + 4 - barsHeight() / 2));
}

int MainWindow::chartFloor() const
{
    const bool presenting = m_viewControls && presentation().isActive();
    return presenting ? std::max(kMemoryMinimumHeight, height() / 6) : kMemoryMinimumHeight;
}

int MainWindow::barsHeight() const
{
    int height = 0;
    for (const QWidget *bar :
         {static_cast<const QWidget *>(m_demoBar), static_cast<const QWidget *>(m_quizPanel)})
        if (bar && bar->isVisibleTo(this))
            height += bar->sizeHint().height();
    return height;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // A recording is never lost on the way out: save it, throw it away, or stay.
    if (!m_demos->confirmClose()) {
        event->ignore();
        return;
    }
    saveCode();
    m_run->stop();
    m_viewControls->saveLayout();
    event->accept();
}

} // namespace rankstep::gui
