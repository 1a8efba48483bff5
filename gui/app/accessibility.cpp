// SPDX-License-Identifier: MIT
#include "accessibility.h"

#include "codeeditor.h"
#include "comparisonview.h"
#include "enginetext.h"
#include "explainview.h"
#include "legendbar.h"
#include "lessonpanel.h"
#include "memorychart.h"
#include "resultspanel.h"
#include "runsession.h"
#include "statetext.h"
#include "stateview.h"
#include "stepbar.h"
#include "stepcontroller.h"
#include "tabs.h"
#include "timelineview.h"
#include "waitforview.h"
#include "windowparts.h"

#include "core/explain/waitexplain.h"
#include "core/memoryformat.h"

#include <QCoreApplication>
#include <QListView>
#include <QTabWidget>
#include <QTextDocumentFragment>

namespace rankstep::gui {
namespace {

QString plainText(const QString &html)
{
    return QTextDocumentFragment::fromHtml(html).toPlainText();
}

QString holdings(const replay::RankState &rank)
{
    QStringList names;
    for (std::size_t map = 0; map < rank.maps.size(); ++map)
        for (const replay::MapEntry &entry : rank.maps[map])
            names << entryName(core::MapKind(map), entry.key());
    return names.isEmpty() ? Accessibility::tr("nothing") : names.join(QStringLiteral(", "));
}

} // namespace

Accessibility::Accessibility(const WindowParts &parts, QObject *parent)
    : QObject(parent)
    , m_session(*parts.session)
    , m_state(*parts.stateView)
    , m_timeline(*parts.timeline)
    , m_memory(*parts.memoryChart)
    , m_waitFor(*parts.waitForView)
    , m_stepBar(*parts.stepBar)
{
    const struct {
        QWidget *widget;
        QString name, description;
    } fixed[] = {
        {parts.editor, tr("Code"), tr("Your training step in Python, the lesson's function")},
        {parts.lessonList, tr("Lessons"), tr("Every lesson, solved ones marked")},
        {parts.results, tr("Results"), tr("The run's verdict and figures against the targets")},
        {parts.memoryChart, tr("Memory over time"), tr("Each rank's memory through the run")},
        {parts.stepBar, tr("Stepping"), tr("Step through the run")},
        {parts.legendBar, tr("Legend"), tr("The colors of the timeline and the state view")},
    };
    for (const auto &each : fixed) {
        each.widget->setAccessibleName(each.name);
        each.widget->setAccessibleDescription(each.description);
    }
    // The tabs are named by their titles (gui/app/tabs.h).
    for (const TabInfo &info : tabs()) {
        if (!info.description)
            continue;
        QWidget *tab = parts.tabs->widget(int(info.tab));
        tab->setAccessibleName(tabTitle(info.tab));
        tab->setAccessibleDescription(
            QCoreApplication::translate("rankstep::gui::Tabs", info.description));
    }
    RunSession &session = m_session;
    m_later.setSingleShot(true);
    m_later.setInterval(kUpdateMs);
    connect(&m_later, &QTimer::timeout, this, &Accessibility::update);
    const auto follow = [this] {
        m_later.start();
    };
    connect(&session, &RunSession::traceChanged, this, follow);
    connect(&session, &RunSession::selectedRankChanged, this, follow);
    connect(&session, &RunSession::selectedEventChanged, this, follow);
    connect(&session.stepper(), &StepController::cursorChanged, this, follow);
    update();
}

void Accessibility::update()
{
    RunSession &session = m_session;
    const TracePtr &trace = session.trace();
    if (!trace) {
        const QString none = tr("No run yet: run your code (F5).");
        for (QWidget *view : std::initializer_list<QWidget *>{&m_state, &m_timeline, &m_memory,
                                                              &m_waitFor, &m_stepBar})
            view->setAccessibleDescription(none);
        return;
    }
    // The state view: the selected rank's holdings at the cursor, else rank 0's.
    const replay::RunState &state = session.stepper().state();
    const int rank = session.selectedRank() >= 0 ? session.selectedRank() : 0;
    if (std::size_t(rank) < state.ranks.size()) {
        const replay::RankState &held = state.ranks[std::size_t(rank)];
        m_state.setAccessibleDescription(
            tr("%1. Holds %2.")
                .arg(plainText(panelToolTip(rank, held, trace->figures.maxMemory)),
                     holdings(held)));
    }
    // The timeline: the selected block, else the run in a sentence.
    if (const auto event = session.selectedEvent(); event && *event < trace->events.size()) {
        const core::Event &e = trace->events[*event];
        m_timeline.setAccessibleDescription(
            tr("Selected: rank %1, %2, from t %3 to %4.")
                .arg(e.rank)
                .arg(QString::fromStdString(explain::describeEvent(e, engineWords())),
                     QString::fromStdString(e.start.toString()),
                     QString::fromStdString(e.end().toString())));
    } else {
        m_timeline.setAccessibleDescription(
            tr("%1 ranks, %2 events, ending at t %3. Nothing selected.")
                .arg(trace->config.ranks)
                .arg(trace->events.size())
                .arg(QString::fromStdString(trace->figures.endTime.toString())));
    }
    m_memory.setAccessibleDescription(
        tr("Peak %1 on rank %2 at t %3.")
            .arg(QString::fromStdString(core::formatMemory(trace->figures.maxMemory)))
            .arg(trace->figures.maxMemoryRank)
            .arg(QString::fromStdString(trace->figures.maxMemoryTime.toString())));
    // The picture's own words: what happened, then each rank's caption.
    QStringList waits;
    if (m_waitFor.hasDiagnosis()) {
        waits << m_waitFor.title();
        for (const explain::RankStanding &standing : m_waitFor.hang()->ranks)
            waits << tr("rank %1: %2").arg(standing.rank).arg(m_waitFor.captionOf(standing.rank));
    }
    m_waitFor.setAccessibleDescription(waits.isEmpty() ? tr("The run did not hang.")
                                                       : waits.join(QStringLiteral("; ")));
    m_stepBar.setAccessibleDescription(m_stepBar.positionText());
}

} // namespace rankstep::gui
