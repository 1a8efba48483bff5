// SPDX-License-Identifier: MIT
#include "sweepcontroller.h"

#include "apptempfolder.h"

#include <QCoroTask>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
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
    // m_runs then gives the sweep its grace to end its runs, and kills it.
    stop();
}

void SweepController::start(const SweepSpec &spec)
{
    if (m_runs.busy())
        stop();
    execute(spec); // reports its own errors; never awaited
}

void SweepController::stop()
{
    if (!m_runs.stop())
        return;
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

QStringList SweepController::arguments(const SweepSpec &spec) const
{
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
    add(QStringLiteral("--tensor"), spec.tensor);
    add(QStringLiteral("--pipeline"), spec.pipeline);
    add(QStringLiteral("--cost"), spec.cost);
    return args;
}

std::optional<QStringList> SweepController::writeCompared(const SweepSpec &spec, QString *why) const
{
    QStringList programs;
    for (std::size_t i = 0; i < spec.compared.size(); ++i) {
        const ComparedProgram &program = spec.compared[i];
        // Named by its function, so that a row's program says which schedule it is.
        const QString path = m_traces->filePath(
            QStringLiteral("compared-%1-%2.py").arg(i + 1).arg(program.function));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(program.code.toUtf8()) < 0) {
            *why = tr("cannot write %1 for the comparison: %2").arg(path, file.errorString());
            return std::nullopt;
        }
        programs << path + QLatin1Char(':') + program.function;
    }
    return programs;
}

QCoro::Task<void> SweepController::execute(SweepSpec spec)
{
    QPointer<SweepController> self(this);
    ChildCommand command;
    command.program = cliPath();
    if (command.program.isEmpty()) {
        Q_EMIT failed(tr("rankstep-cli was not found next to Rankstep or on PATH."));
        co_return;
    }
    m_traces = std::make_shared<QTemporaryDir>(appTempFolderTemplate());
    m_pending.clear();
    command.workingFolder = QFileInfo(spec.codePath).absolutePath();
    command.args = arguments(spec);
    QString why;
    const std::optional<QStringList> compared = writeCompared(spec, &why);
    if (!compared) {
        Q_EMIT failed(why);
        co_return;
    }
    for (qsizetype i = 0; i < compared->size(); ++i) // after the learner's FILE
        command.args.insert(2 + i, compared->at(i));
    // Ends by itself: every run has its time limit, and the sweep at most 10,000 of them.
    ChildLimits limits;
    limits.stopGrace = std::chrono::milliseconds(kStopGraceMs);
    const ChildRun run = m_runs.begin();
    // Rows as they arrive, while this sweep is the current one.
    command.onOutput = [self, this, run](const QByteArray &bytes) {
        if (self && m_runs.isCurrent(run))
            takeLines(bytes);
    };
    Q_EMIT runningChanged(true);
    auto running = runCli(std::move(command), limits, run.stop);
    const ChildOutcome outcome = co_await running;
    if (!self || !m_runs.isCurrent(run))
        co_return;   // stopped: stop() told the window
    takeLines("\n"); // a last row without its line end
    m_runs.finish(run);
    Q_EMIT runningChanged(false);
    if (!outcome.started) {
        Q_EMIT failed(tr("The sweep could not start: %1").arg(outcome.errorString));
        co_return;
    }
    const bool usage = outcome.normalExit() && outcome.exitCode == 64;
    if (outcome.normalExit() && outcome.exitCode == 0)
        Q_EMIT finished(outcome.seconds);
    else
        Q_EMIT failed(usage
                          ? usageMessage(outcome.errors)
                          : tr("The sweep ended unexpectedly (%1).").arg(outcome.errors.trimmed()));
}

} // namespace rankstep::gui
