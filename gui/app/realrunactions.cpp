// SPDX-License-Identifier: MIT
#include "realrunactions.h"

#include "realruncontroller.h"
#include "runsession.h"

#include <QAction>
#include <QKeySequence>
#include <QTimer>

#include <memory>

namespace rankstep::gui {

RealRunActions::RealRunActions(RunSession &session, std::function<std::optional<RunSpec>()> prepare,
                               QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_prepare(std::move(prepare))
    , m_controller(new RealRunController(this))
    , m_action(new QAction(tr("Run for real (Ctrl+F5)"), this))
    , m_ticker(new QTimer(this))
{
    m_action->setObjectName(QStringLiteral("runForRealAction"));
    m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F5));
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
