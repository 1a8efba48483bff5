// SPDX-License-Identifier: MIT
#include "windowparts.h"

#include "appearance.h"
#include "codeeditor.h"
#include "codekeeper.h"
#include "comparisonactions.h"
#include "comparisonview.h"
#include "demobar.h"
#include "experimentsview.h"
#include "explainview.h"
#include "legendbar.h"
#include "lessonlistmodel.h"
#include "lessonpanel.h"
#include "losschart.h"
#include "memorychart.h"
#include "noticebanner.h"
#include "quizcontroller.h"
#include "quizpanel.h"
#include "rankoverview.h"
#include "realrunactions.h"
#include "realrunview.h"
#include "resultspanel.h"
#include "rosterview.h"
#include "runsession.h"
#include "stateview.h"
#include "stepbar.h"
#include "tabs.h"
#include "tabstrip.h"
#include "timelineview.h"
#include "viewshares.h"
#include "waitforview.h"
#include "whatifview.h"

#include <QListView>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace rankstep::gui {
namespace {

QVBoxLayout *column(QWidget *widget)
{
    auto *layout = new QVBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    return layout;
}

QSplitter *splitter(Qt::Orientation orientation, const char *name,
                    std::initializer_list<QWidget *> widgets, const QList<int> &sizes)
{
    auto *split = new QSplitter(orientation);
    split->setObjectName(QLatin1String(name));
    for (QWidget *widget : widgets)
        split->addWidget(widget);
    split->setSizes(sizes);
    return split;
}

// The step bar sits right above the timeline it drives; above it, the bars that come and go.
void setupStepping(WindowParts &p, QObject *owner)
{
    p.stepBar = new StepBar(*p.session, *p.appearance);
    p.stepping = new QWidget;
    QVBoxLayout *layout = column(p.stepping);
    // While the views show a run on real processes, they say so above the step bar: the
    // results beside them are still the simulation's.
    auto *realNotice = new NoticeBanner;
    realNotice->setObjectName(QStringLiteral("realRunNotice"));
    RunSession *session = p.session;
    QObject::connect(session, &RunSession::traceChanged, realNotice, [session, realNotice] {
        realNotice->showNotice(RealRunActions::noticeFor(*session));
    });
    p.demoBar = new DemoBar;     // a demonstration recorded or replayed, and its caption
    p.quizPanel = new QuizPanel; // presenting: a question before the step it is about
    p.quiz = new QuizController(*p.session, *p.appearance, *p.quizPanel, owner);
    p.legendBar = new LegendBar(*p.session, *p.appearance); // in the window, presenting too
    for (QWidget *bar : std::initializer_list<QWidget *>{p.demoBar, p.quizPanel, realNotice,
                                                         p.stepBar, p.legendBar})
        layout->addWidget(bar);
    layout->addWidget(p.timeline, 1);
    // A PyTorch lesson's run: its loss curve instead of a timeline.
    p.lossChart = new LossChart(*p.session, *p.appearance);
    p.lossChart->setObjectName(QStringLiteral("lossChart"));
    p.lossChart->hide();
}

// The lesson, and while stepping the state of every rank, share the left of the editor: every
// tab of gui/app/tabs.h, in its order.
void setupTabs(WindowParts &p, LessonListModel &model, QObject *owner)
{
    p.stateView = new StateView(*p.session, *p.appearance);
    p.rankOverview = new RankOverview(*p.session, *p.appearance);
    p.waitForView = new WaitForView(*p.session, *p.appearance); // enabled after a run that hung
    p.explainView = new ExplainView(*p.session, *p.appearance);
    p.comparisonView = new ComparisonView(*p.session, *p.appearance);
    p.comparison = new ComparisonActions(*p.session, *p.comparisonView, model.lessons(), owner);
    p.experimentsView =
        new ExperimentsView(*p.session, *p.appearance, *new ExperimentsController(owner));
    p.whatIfView = new WhatIfView(*p.session, *p.appearance, *new SweepController(owner));
    p.realRunView = new RealRunView(*p.session, *p.appearance);
    p.rosterView = new RosterView; // a class folder graded (File > Open Class Folder)
    QWidget *const views[] = {p.lessonPanel, p.stateView,      p.rankOverview,    p.waitForView,
                              p.explainView, p.comparisonView, p.experimentsView, p.whatIfView,
                              p.realRunView, p.rosterView};
    p.tabs = new StripTabs; // only the page shown sets the least height
    p.tabs->setObjectName(QStringLiteral("leftTabs"));
    p.tabs->setUsesScrollButtons(true); // ten tabs never widen the window
    for (const TabInfo &info : tabs()) {
        p.tabs->addTab(views[std::size_t(info.tab)], tabTitle(info.tab));
        if (info.toolTip)
            p.tabs->setTabToolTip(int(info.tab), tabToolTip(info.tab));
    }
    p.tabs->setTabEnabled(int(Tab::Hang), false);
    // The quiz's question about one rank: that rank's panel large, selected in every view (four
    // panels presenting at 1280x800 were summaries too small to answer from).
    StateView *state = p.stateView;
    RunSession *session = p.session;
    QObject::connect(p.quiz, &QuizController::askedAboutRank, state, [state, session](int rank) {
        session->setSelectedRank(rank);
        state->setFocusing(true);
    });
    // Every tab's whole title, in as many rows as the pane's width needs.
    p.tabsPane = new QWidget;
    QVBoxLayout *pane = column(p.tabsPane);
    pane->addWidget(new TabStrip(*p.tabs));
    pane->addWidget(p.tabs, 1);
}

} // namespace

void setupViews(WindowParts &p, LessonListModel &model, ProgressStore &progress, QObject *owner)
{
    p.lessonList = new QListView;
    p.lessonList->setObjectName(QStringLiteral("lessonList"));
    p.lessonList->setModel(&model);
    p.lessonList->setMinimumWidth(150);
    p.lessonList->setWordWrap(true);
    p.lessonList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // No spacing: QListView wraps a title to the viewport's width and then shifts it right by
    // the spacing, so a title just as wide as the list ("Broadcast the initial state" in German's
    // narrower list) was cut: "Broadcast the initial …" over an empty row.
    p.lessonList->setSpacing(0);
    p.lessonPanel = new LessonPanel(*p.session);
    p.editor = new CodeEditor(*p.appearance);
    p.editor->setObjectName(QStringLiteral("editor"));
    p.keeper = new CodeKeeper(progress, *p.editor, owner);
    auto *codeNotice = new NoticeBanner; // what is wrong with the code file sits right above it
    QObject::connect(p.keeper, &CodeKeeper::noticeChanged, codeNotice, &NoticeBanner::showNotice);
    auto *editorPane = new QWidget;
    p.editorColumn = column(editorPane);
    p.editorColumn->addWidget(codeNotice);
    p.editorColumn->addWidget(p.editor, 1);
    p.results = new ResultsPanel(*p.session);
    p.results->setMinimumHeight(60);
    p.timeline = new TimelineView(*p.session, *p.appearance);
    p.timeline->setMinimumHeight(90);
    p.memoryChart = new MemoryChart(*p.session, *p.appearance);
    p.memoryChart->setMinimumHeight(kMemoryMinimumHeight);
    setupStepping(p, owner);
    setupTabs(p, model, owner);
    p.work = splitter(Qt::Horizontal, "work", {p.tabsPane, editorPane}, {360, 700});
    p.work->setCollapsible(1, false); // the editor keeps its columns (minimumSizeHint)
    p.work->setStretchFactor(1, 1);
    // The results sit above the timeline, so the editor keeps the window's width.
    p.views = splitter(Qt::Vertical, "views", {p.results, p.stepping, p.memoryChart, p.lossChart},
                       {80, 110, 90});
    p.views->setCollapsible(2, false);
    p.middle = splitter(Qt::Vertical, "middle", {p.work, p.views}, {640, 280});
    p.panes = splitter(Qt::Horizontal, "panes", {p.lessonList, p.middle}, {200, 1300});
    p.panes->setCollapsible(1, false);
    p.panes->setStretchFactor(1, 1);
}

} // namespace rankstep::gui
