// SPDX-License-Identifier: MIT
#include "experimentscontroller.h"

namespace rankstep::gui {

ExperimentsController::ExperimentsController(QObject *parent)
    : QObject(parent), m_runner(new RunController(this))
{
    connect(m_runner, &RunController::traceAvailable, this,
            [this](const TracePtr &trace, const QString &) {
                if (m_next < 0)
                    return;
                Q_EMIT experimentAvailable(m_next, trace);
                onEnded();
            });
    connect(m_runner, &RunController::runFailed, this,
            [this](const QString &message, const QString &) {
                if (m_next < 0)
                    return;
                Q_EMIT experimentFailed(m_next, message);
                onEnded();
            });
}

void ExperimentsController::start(const std::vector<RunSpec> &specs)
{
    stop();
    if (specs.empty())
        return;
    m_specs = specs;
    m_next = 0;
    Q_EMIT runningChanged(true);
    startNext();
}

void ExperimentsController::stop()
{
    if (m_next < 0)
        return;
    const int index = m_next;
    m_next = -1; // what the stopped run still reports goes to nobody
    m_runner->stop();
    Q_EMIT runningChanged(false);
    Q_EMIT stopped(index);
}

void ExperimentsController::onEnded()
{
    ++m_next;
    startNext();
}

void ExperimentsController::startNext()
{
    if (m_next >= int(m_specs.size())) {
        m_next = -1;
        Q_EMIT runningChanged(false);
        Q_EMIT finished();
        return;
    }
    Q_EMIT experimentStarted(m_next);
    m_runner->start(m_specs[std::size_t(m_next)]);
}

} // namespace rankstep::gui
