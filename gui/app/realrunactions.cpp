// SPDX-License-Identifier: MIT
#include "realrunactions.h"

#include "codeeditor.h"
#include "losschart.h"
#include "realruncontroller.h"
#include "realrunview.h"
#include "runsession.h"

#include <QAction>
#include <QKeySequence>
#include <QSignalBlocker>
#include <QTimer>

#include <memory>
#include <utility>

namespace rankstep::gui {

RealRunActions::RealRunActions(RunSession &session, std::function<std::optional<RunSpec>()> prepare,
                               QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_prepare(std::move(prepare))
    , m_controller(new RealRunController(this))
    , m_action(new QAction(this))
    , m_showReal(new QAction(tr("Show the real run in the views"), this))
    , m_ticker(new QTimer(this))
{
    m_showReal->setObjectName(QStringLiteral("showRealRunAction"));
    m_showReal->setCheckable(true);
    m_showReal->setEnabled(false);
    m_showReal->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5));
    m_showReal->setToolTip(
        tr("The timeline, the memory chart and the state view show the last real run in "
           "milliseconds and real bytes; the Compare tab shows it above its simulation "
           "(Ctrl+Shift+F5 switches back)"));
    connect(m_showReal, &QAction::toggled, this, &RealRunActions::showReal);
    connect(&m_session, &RunSession::traceChanged, this, &RealRunActions::onTraceChanged);
    connect(&m_session, &RunSession::realRunChanged, this, [this] {
        const RealRunOutcome *outcome = m_session.realRun().get();
        m_showReal->setEnabled(outcome && outcome->trace && !outcome->trace->events.empty());
    });
    m_action->setObjectName(QStringLiteral("runForRealAction"));
    m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F5));
    m_action->setText(
        tr("Run for real (%1)").arg(m_action->shortcut().toString(QKeySequence::NativeText)));
    m_action->setToolTip(
        tr("Runs this code on one real process per rank through PyTorch's "
           "torch.distributed, and checks it trains what one process trains"));
    connect(m_action, &QAction::triggered, this, &RealRunActions::runForReal);
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, this, [this] {
        Q_EMIT message(tr("Running for real… %1 s").arg(qRound(m_controller->elapsedSeconds())));
    });
    connect(m_controller, &RealRunController::runningChanged, this, [this](bool running) {
        m_action->setEnabled(!running);
        m_session.setRealRunInProgress(running);
        running ? m_ticker->start() : m_ticker->stop();
    });
    connect(m_controller, &RealRunController::finished, this,
            [this](const RealRunOutcome &outcome) {
                m_showReal->setChecked(false); // the views go back to the simulation
                m_session.setRealRun(std::make_shared<const RealRunOutcome>(outcome));
                const bool matched = outcome.report && outcome.report->weightsMatch;
                Q_EMIT message(outcome.torchMissing()
                                   ? tr("PyTorch is not installed: see the For real tab.")
                                   : tr("Ran for real in %1 s: %2")
                                         .arg(outcome.seconds, 0, 'f', 1)
                                         .arg(matched ? tr("the weights match one process.")
                                                      : tr("see the For real tab.")));
            });
}

void RealRunActions::showReal(bool shown)
{
    const RealRunOutcome *outcome = m_session.realRun().get();
    if (shown) {
        if (!outcome || !outcome->trace) {
            const QSignalBlocker blocker(m_showReal);
            m_showReal->setChecked(false);
            return;
        }
        m_simulated = m_session.trace();
        m_savedComparison = m_session.comparison();
        m_savedComparisonUnits = m_session.comparisonUnits();
        m_session.setTrace(outcome->trace, TraceUnits::Seconds);
        m_session.setComparison(m_simulated, TraceUnits::SimulatedSteps);
        Q_EMIT message(
            tr("The views show the run on real processes, in milliseconds and real "
               "bytes; Ctrl+Shift+F5 goes back to the simulation."));
        return;
    }
    if (m_session.units() != TraceUnits::Seconds)
        return; // a new simulated run has replaced it already
    const TracePtr simulated = std::exchange(m_simulated, nullptr);
    m_session.setTrace(simulated);
    m_session.setComparison(std::exchange(m_savedComparison, nullptr), m_savedComparisonUnits);
    Q_EMIT message(tr("The views show the simulation again."));
}

// A new simulated run replaces the real one on screen: the switch goes off with it.
void RealRunActions::onTraceChanged()
{
    if (m_session.units() == TraceUnits::Seconds || !m_showReal->isChecked())
        return;
    const QSignalBlocker blocker(m_showReal);
    m_showReal->setChecked(false);
    if (m_session.comparison() == m_simulated) // the comparison we set: the one before it again
        m_session.setComparison(m_savedComparison, m_savedComparisonUnits);
    m_simulated = m_savedComparison = nullptr;
}

QString RealRunActions::noticeFor(const RunSession &session)
{
    const TracePtr &trace = session.trace();
    const bool seconds = session.units() == TraceUnits::Seconds;
    if (seconds && trace && trace->config.cost.realScale())
        return tr("Simulated under the cost model %1: times in milliseconds, memory in bytes "
                  "(Run > Cost Model; the lesson is graded under the notebook's).")
            .arg(QString::fromStdString(trace->config.cost.name));
    if (seconds && trace && (!session.realRun() || session.realRun()->trace != trace))
        return tr(
            "These views show a run on real processes opened from a file: times in "
            "milliseconds, memory in the bytes its tensors held (none in a profile).");
    return seconds ? tr("These views show the run on real processes: times in milliseconds, "
                        "memory in the bytes its tensors held. Ctrl+Shift+F5 goes back to the "
                        "simulation, whose results are above.")
                   : QString();
}

void RealRunActions::attach(RealRunView &view, CodeEditor &editor)
{
    connect(&view, &RealRunView::realRunRequested, this, &RealRunActions::runForReal);
    view.setShowAction(m_showReal);
    connect(m_controller, &RealRunController::finished, &editor,
            [&editor](const RealRunOutcome &outcome) {
                if (const int line = rankErrorLine(outcome.output); line > 0)
                    editor.markError(line);
            });
}

void RealRunActions::runForReal()
{
    if (m_controller->isRunning())
        return;
    const std::optional<RunSpec> spec = m_prepare();
    if (!spec)
        return;
    Q_EMIT simulationWanted(*spec);
    Q_EMIT started();
    Q_EMIT message(tr("Running for real…"));
    m_controller->start(*spec);
}

} // namespace rankstep::gui
