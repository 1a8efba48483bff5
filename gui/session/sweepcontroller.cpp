// SPDX-License-Identifier: MIT
#include "sweepcontroller.h"

#include "apptempfolder.h"
#include "runcontroller.h"

#include <QCoroProcess>
#include <QCoroTask>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <chrono>

namespace rankstep::gui {
namespace {

// A row is a line of at most a few kilobytes; a longer "line" is not one of the sweep's rows.
constexpr qsizetype kMostLineBytes = 1 << 20;

// The runner's usage error ("rankstep-cli: --ranks takes whole numbers ..."), as a sentence.
QString usageMessage(const QString &errors)
{
    static const QString prefix = QStringLiteral("rankstep-cli: ");
    for (const QString &line : errors.split(QLatin1Char('\n')))
        if (line.startsWith(prefix) && line.size() > prefix.size())
            return line.mid(prefix.size(), 1).toUpper() + line.mid(prefix.size() + 1);
    return errors.trimmed();
}

} // namespace

SweepController::SweepController(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<io::SweepRow>();
}

SweepController::~SweepController()
{
    blockSignals(true);
    if (m_process) {
        QProcess *process = m_process;
        process->terminate();
        if (!process->waitForFinished(kStopGraceMs))
            process->kill();
    }
}

void SweepController::start(const SweepSpec &spec)
{
    if (m_process)
        stop();
    execute(spec, ++m_generation); // reports its own errors; never awaited
}

void SweepController::stop()
{
    if (!m_process)
        return;
    ++m_generation;
    endProcess(m_process, kStopGraceMs);
    m_process = nullptr;
    m_pending.clear();
    Q_EMIT runningChanged(false);
    Q_EMIT stopped();
}

void SweepController::takeLines(const QByteArray &bytes)
{
    m_pending += bytes;
    for (qsizetype end = m_pending.indexOf('\n'); end >= 0; end = m_pending.indexOf('\n')) {
        const QByteArray line = m_pending.left(end);
        m_pending.remove(0, end + 1);
        auto row =
            io::sweepRowFromJson(std::string_view(line.constData(), std::size_t(line.size())));
        if (row)
            Q_EMIT rowArrived(*row);
    }
    if (m_pending.size() > kMostLineBytes)
        m_pending.clear();
}

QCoro::Task<void> SweepController::execute(SweepSpec spec, int generation)
{
    QPointer<SweepController> self(this);
    const QString cli = RunController::cliPath();
    if (cli.isEmpty()) {
        Q_EMIT failed(tr("rankstep-cli was not found next to Rankstep or on PATH."));
        co_return;
    }
    m_traces = std::make_shared<QTemporaryDir>(appTempFolderTemplate());
    m_pending.clear();
    auto *process = new QProcess(this);
    m_process = process;
    process->setWorkingDirectory(QFileInfo(spec.codePath).absolutePath());
    connect(process, &QProcess::readyReadStandardOutput, this, [this, process, generation] {
        if (generation == m_generation)
            takeLines(process->readAllStandardOutput());
    });
    QStringList args = {QStringLiteral("sweep"),
                        QFileInfo(spec.codePath).fileName(),
                        QStringLiteral("--function"),
                        spec.function,
                        QStringLiteral("--timeout"),
                        QString::number(spec.timeLimitSeconds),
                        QStringLiteral("--jsonl"),
                        QStringLiteral("--traces"),
                        m_traces->path()};
    const auto add = [&args](const QString &option, const QString &value) {
        if (!value.trimmed().isEmpty())
            args << option << value.trimmed().remove(QLatin1Char(' '));
    };
    add(QStringLiteral("--ranks"), spec.ranks);
    add(QStringLiteral("--layers"), spec.layers);
    add(spec.batchesPerRank ? QStringLiteral("--batches-per-rank") : QStringLiteral("--batches"),
        spec.batches);
    add(QStringLiteral("--bandwidth"), spec.bandwidth);
    add(QStringLiteral("--cost"), spec.cost);
    Q_EMIT runningChanged(true);
    QElapsedTimer clock;
    clock.start();
    auto starting = qCoro(process).start(cli, args);
    const bool started = co_await starting;
    if (!self || generation != m_generation)
        co_return;
    if (!started) {
        const QString why = process->errorString();
        process->deleteLater();
        m_process = nullptr;
        Q_EMIT runningChanged(false);
        Q_EMIT failed(tr("The sweep could not start: %1").arg(why));
        co_return;
    }
    // Ends by itself: every run has its time limit, and the sweep at most 10,000 of them.
    auto finishing = qCoro(process).waitForFinished(std::chrono::hours(24));
    co_await finishing;
    if (!self || generation != m_generation)
        co_return; // stopped: stop() told the window and owns the process
    takeLines(process->readAllStandardOutput() + "\n");
    const QString errors = QString::fromUtf8(process->readAllStandardError());
    const bool usage = process->exitStatus() == QProcess::NormalExit && process->exitCode() == 64;
    const bool done = process->exitStatus() == QProcess::NormalExit && process->exitCode() == 0;
    process->deleteLater();
    m_process = nullptr;
    Q_EMIT runningChanged(false);
    if (done)
        Q_EMIT finished(double(clock.elapsed()) / 1000.0);
    else
        Q_EMIT failed(usage ? usageMessage(errors)
                            : tr("The sweep ended unexpectedly (%1).").arg(errors.trimmed()));
}

} // namespace rankstep::gui
