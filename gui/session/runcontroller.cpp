// SPDX-License-Identifier: MIT
#include "runcontroller.h"

#include "apptempfolder.h"

#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"

#include <QCoroFuture>
#include <QCoroTask>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <optional>

namespace rankstep::gui {
namespace {

// What the learner reads when a run left no trace: the runner's own sentence when it printed one
// ("Error: the code crashed the process that runs it ...", its last on stderr), else how the
// process ended.
QString describeExit(const ChildOutcome &outcome)
{
    static const QString prefix = QStringLiteral("Error: ");
    const QStringList lines = outcome.errors.split(QLatin1Char('\n'));
    for (auto line = lines.crbegin(); line != lines.crend(); ++line)
        if (line->startsWith(prefix) && line->size() > prefix.size())
            return line->mid(prefix.size(), 1).toUpper() + line->mid(prefix.size() + 1);
    if (outcome.timedOut)
        return RunController::tr("The simulation process did not end within its time limit.");
    if (outcome.exitStatus == QProcess::CrashExit)
        return RunController::tr("The simulation process crashed (%1).").arg(outcome.errorString);
    return RunController::tr("The simulation process ended with exit code %1.")
        .arg(outcome.exitCode);
}

} // namespace

core::Result<core::Trace> loadTraceFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return core::Error(core::ErrorKind::Internal, -1, 0,
                           "cannot read the trace file: " + file.errorString().toStdString());
    const QByteArray bytes = file.readAll();
    const std::string_view text(bytes.constData(), std::size_t(bytes.size()));
    if (bytes.startsWith("RSTB"))
        return io::traceFromBinary(text);
    return io::traceFromJson(text);
}

RunController::RunController(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<TracePtr>();
    removeStaleAppTempFolders(); // left by an app killed with SIGKILL
}

bool RunController::isRunning() const
{
    return m_runs.busy();
}

RunController::~RunController()
{
    blockSignals(true); // the window that listens is being destroyed
    // m_runs then gives each stopped runner its grace to end its run, and kills it.
    stop();
}

QString RunController::cliPath()
{
    return gui::cliPath();
}

void RunController::start(const RunSpec &spec)
{
    if (m_runs.busy())
        stop();
    execute(spec); // reports its own errors; never awaited
}

void RunController::stop()
{
    // The coroutine of the stopped run reports nothing more.
    if (!m_runs.stop())
        return;
    Q_EMIT runningChanged(false);
    Q_EMIT runStopped();
}

void RunController::finish(const ChildRun &run)
{
    if (!m_runs.isCurrent(run))
        return;
    m_runs.finish(run);
    Q_EMIT runningChanged(false);
}

QCoro::Task<void> RunController::execute(RunSpec spec)
{
    QPointer<RunController> self(this);
    std::optional<ChildRun> run;
    try {
        ChildCommand command;
        command.program = cliPath();
        if (command.program.isEmpty()) {
            Q_EMIT runFailed(tr("rankstep-cli was not found next to Rankstep or on PATH."), {});
            co_return;
        }
        auto tempDir = std::make_shared<QTemporaryDir>(appTempFolderTemplate());
        const QString traceFile = tempDir->filePath(QStringLiteral("trace.rstb"));
        command.workingFolder = QFileInfo(spec.codePath).absolutePath();
        command.args = {QStringLiteral("run"),         QFileInfo(spec.codePath).fileName(),
                        QStringLiteral("--function"),  spec.function,
                        QStringLiteral("--ranks"),     QString::number(spec.ranks),
                        QStringLiteral("--layers"),    QString::number(spec.layers),
                        QStringLiteral("--batches"),   QString::number(spec.batches),
                        QStringLiteral("--timeout"),   QString::number(spec.timeLimitSeconds),
                        QStringLiteral("--trace-out"), traceFile,
                        QStringLiteral("--no-report")};
        if (!spec.cost.isEmpty())
            command.args << QStringLiteral("--cost") << spec.cost;
        for (const core::Axis axis :
             {core::Axis::Tensor, core::Axis::Context, core::Axis::Pipeline, core::Axis::Expert})
            if (const int degree = core::RankLayout(spec.ranks, spec.layout).degree(axis);
                degree != 1)
                command.args << QStringLiteral("--%1").arg(QLatin1String(core::axisName(axis)))
                             << QString::number(degree);
        // The runner stops the learner's code at its own limit; this one is for the runner.
        ChildLimits limits;
        limits.wallClock = std::chrono::milliseconds(qint64(spec.timeLimitSeconds * 1000) + 15000);
        limits.stopGrace = std::chrono::milliseconds(kStopGraceMs);
        run = m_runs.begin();
        Q_EMIT runningChanged(true);
        auto running = runCli(std::move(command), limits, run->stop);
        const ChildOutcome outcome = co_await running;
        if (!self || !m_runs.isCurrent(*run))
            co_return; // stopped: stop() told the window
        if (!outcome.started) {
            finish(*run);
            Q_EMIT runFailed(tr("The simulation could not start: %1").arg(outcome.errorString), {});
            co_return;
        }
        const QString output = outcome.output + outcome.errors;
        if (!outcome.normalExit() || outcome.timedOut || !QFileInfo::exists(traceFile)) {
            finish(*run);
            Q_EMIT runFailed(describeExit(outcome), output);
            co_return;
        }
        // Still running for the window until the trace is decoded: Esc (stop) drops it.
        // A shared result: a QFuture hands out copies, and a copy of millions of events would
        // be made on the GUI thread.
        QFuture<std::shared_ptr<core::Result<core::Trace>>> decoding =
            QtConcurrent::run([traceFile, tempDir] {
                return std::make_shared<core::Result<core::Trace>>(loadTraceFile(traceFile));
            });
        Q_EMIT decodingStarted();
        const auto loaded = co_await decoding;
        if (!self || !m_runs.isCurrent(*run))
            co_return; // stopped while decoding: stop() told the window
        finish(*run);
        if (!*loaded) {
            Q_EMIT runFailed(QString::fromStdString(loaded->error().message), output);
            co_return;
        }
        Q_EMIT traceAvailable(std::make_shared<const core::Trace>(std::move(**loaded)), output);
    } catch (const std::exception &e) {
        if (self) {
            if (run)
                finish(*run);
            Q_EMIT runFailed(
                tr("Rankstep failed while running: %1").arg(QString::fromUtf8(e.what())), {});
        }
    }
}

} // namespace rankstep::gui
