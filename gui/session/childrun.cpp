// SPDX-License-Identifier: MIT
#include "childrun.h"

#include "cappedoutput.h"

#include <QCoreApplication>
#include <QCoroProcess>
#include <QCoroSignal>
#include <QCoroTask>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>

Q_LOGGING_CATEGORY(lcChild, "rankstep.child")

namespace rankstep::gui {

QString cliPath()
{
    QString fromEnv = qEnvironmentVariable("RANKSTEP_CLI");
    if (!fromEnv.isEmpty())
        return fromEnv;
    const QString appDir = QCoreApplication::applicationDirPath();
    for (const QString &candidate : {appDir + QStringLiteral("/rankstep-cli"),
                                     appDir + QStringLiteral("/../cli/rankstep-cli")})
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    return QStandardPaths::findExecutable(QStringLiteral("rankstep-cli"));
}

StopToken::StopToken() : m_state(std::make_shared<State>()) {}

void StopToken::request()
{
    if (m_state->requested)
        return;
    m_state->requested = true;
    sendStop();
}

bool StopToken::requested() const
{
    return m_state->requested;
}

bool StopToken::childRunning() const
{
    return m_state->process && m_state->process->state() != QProcess::NotRunning;
}

void StopToken::sendStop()
{
    QProcess *process = m_state->process;
    if (!process || process->state() == QProcess::NotRunning)
        return;
    process->terminate();
    // The timer goes with the process: a child that ended in time is not waited for.
    QTimer::singleShot(m_state->grace, process, [process] {
        if (process->state() != QProcess::NotRunning)
            process->kill();
    });
}

void StopToken::endNow()
{
    request();
    QProcess *process = m_state->process;
    if (!process || process->state() == QProcess::NotRunning)
        return;
    if (!process->waitForFinished(int(m_state->grace.count()))) {
        process->kill();
        process->waitForFinished(1000);
    }
}

QCoro::Task<ChildOutcome> runCli(ChildCommand command, ChildLimits limits, StopToken stop)
{
    ChildOutcome outcome;
    if (stop.requested()) {
        outcome.stopped = true;
        co_return outcome;
    }
    const QString program = command.program.isEmpty() ? cliPath() : command.program;
    // What the child prints is kept within bounds as it arrives, not buffered whole.
    CappedOutput out(limits.headBytes, limits.tailBytes);
    CappedOutput err(limits.headBytes, limits.tailBytes);
    QProcess process;
    if (!command.workingFolder.isEmpty())
        process.setWorkingDirectory(command.workingFolder);
    if (command.mergeErrors)
        process.setProcessChannelMode(QProcess::MergedChannels);
    const auto takeOutput = [&] {
        const QByteArray bytes = process.readAllStandardOutput();
        if (command.onOutput)
            command.onOutput(bytes);
        else
            out.append(bytes);
    };
    QObject::connect(&process, &QProcess::readyReadStandardOutput, &process, takeOutput);
    QObject::connect(&process, &QProcess::readyReadStandardError, &process,
                     [&] { err.append(process.readAllStandardError()); });
    stop.m_state->process = &process;
    stop.m_state->grace = limits.stopGrace;
    qCDebug(lcChild) << "starting" << program << command.args;
    QElapsedTimer clock;
    clock.start();
    process.start(program, command.args);
    if (process.state() == QProcess::Starting) {
        // Its next state, not `started`: a program that cannot start never emits that, and
        // qCoro(process).start() would wait its whole timeout for it.
        // g++ 12 destroys temporaries inside a co_await expression twice: await named objects.
        auto starting = qCoro(&process, &QProcess::stateChanged, std::chrono::seconds(30));
        const auto state = co_await starting;
        outcome.started = state && std::get<0>(*state) == QProcess::Running;
    } else {
        outcome.started = process.state() == QProcess::Running;
    }
    if (outcome.started) {
        auto finishing = qCoro(process).waitForFinished(limits.wallClock);
        const bool ended = co_await finishing;
        if (!ended && process.state() != QProcess::NotRunning) {
            outcome.timedOut = true;
            process.kill();
            auto killing = qCoro(process).waitForFinished(std::chrono::seconds(10));
            co_await killing;
        }
        takeOutput();
        err.append(process.readAllStandardError());
        outcome.exitStatus = process.exitStatus();
        outcome.exitCode = process.exitCode();
    }
    outcome.seconds = double(clock.elapsed()) / 1000.0;
    outcome.stopped = stop.requested();
    outcome.errorString = process.errorString();
    outcome.output = out.text();
    outcome.errors = err.text();
    qCDebug(lcChild) << program << "ended:" << outcome.exitCode << outcome.exitStatus
                     << (outcome.stopped ? "stopped" : "") << (outcome.timedOut ? "timed out" : "");
    co_return outcome;
}

ChildRuns::~ChildRuns()
{
    stop();
    for (StopToken &ending : m_ending)
        ending.endNow();
}

ChildRun ChildRuns::begin()
{
    stop();
    m_current = StopToken();
    m_busy = true;
    return {++m_generation, m_current};
}

void ChildRuns::finish(const ChildRun &run)
{
    if (isCurrent(run))
        m_busy = false;
}

bool ChildRuns::stop()
{
    if (!m_busy)
        return false;
    m_busy = false;
    ++m_generation;
    m_current.request();
    std::erase_if(m_ending, [](const StopToken &token) { return !token.childRunning(); });
    if (m_current.childRunning())
        m_ending.push_back(m_current);
    return true;
}

void ChildRuns::stopChild()
{
    if (m_busy)
        m_current.request();
}

} // namespace rankstep::gui
