// SPDX-License-Identifier: MIT
#include "torchexporter.h"

#include <QCoroTask>
#include <QDir>

namespace rankstep::gui {

TorchExporter::TorchExporter(QObject *parent) : QObject(parent) {}

TorchExporter::~TorchExporter()
{
    blockSignals(true);
    m_runs.stop(); // m_runs then gives the CLI its grace to end its run, and kills it
}

void TorchExporter::exportTo(const RunSpec &spec, const QString &program)
{
    execute(spec, program); // reports its own errors; never awaited
}

QCoro::Task<void> TorchExporter::execute(RunSpec spec, QString program)
{
    QPointer<TorchExporter> self(this);
    ChildCommand command;
    command.program = cliPath();
    if (command.program.isEmpty()) {
        Q_EMIT exportFailed(tr("rankstep-cli was not found next to Rankstep or on PATH."));
        co_return;
    }
    command.args = {QStringLiteral("export"),
                    spec.codePath,
                    QStringLiteral("--function"),
                    spec.function,
                    QStringLiteral("--ranks"),
                    QString::number(spec.ranks),
                    QStringLiteral("--layers"),
                    QString::number(spec.layers),
                    QStringLiteral("--batches"),
                    QString::number(spec.batches),
                    QStringLiteral("--timeout"),
                    QString::number(spec.timeLimitSeconds),
                    QStringLiteral("--quiet"),
                    QStringLiteral("--torch"),
                    program};
    ChildLimits limits;
    limits.wallClock = std::chrono::milliseconds(qint64(spec.timeLimitSeconds * 1000) + 30000);
    const ChildRun run = m_runs.begin();
    auto running = runCli(std::move(command), limits, run.stop);
    const ChildOutcome outcome = co_await running;
    if (!self || !m_runs.isCurrent(run))
        co_return; // superseded by a newer export
    m_runs.finish(run);
    if (!outcome.started) {
        Q_EMIT exportFailed(tr("The export could not start: %1").arg(outcome.errorString));
        co_return;
    }
    if (outcome.normalExit() && outcome.exitCode == 0) {
        Q_EMIT exported(program, QStringLiteral("torchrun --standalone --nproc_per_node %1 %2 "
                                                "--check")
                                     .arg(spec.ranks)
                                     .arg(QDir::toNativeSeparators(program)));
        co_return;
    }
    const QString said = outcome.errors.trimmed();
    Q_EMIT exportFailed(
        said.isEmpty()
            ? tr("The program was not exported: rankstep-cli ended with exit code %1.")
                  .arg(outcome.exitCode)
            : tr("The program was not exported:\n%1").arg(said.section(QLatin1Char('\n'), 0, 5)));
}

} // namespace rankstep::gui
