// SPDX-License-Identifier: MIT
#include "runcontroller.h"

#include "apptempfolder.h"
#include "cappedoutput.h"

#include <QProcess>

#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"

#include <QCoreApplication>
#include <QCoroFuture>
#include <QCoroProcess>
#include <QCoroTask>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>

Q_LOGGING_CATEGORY(lcRun, "rankstep.run")

namespace rankstep::gui {
namespace {

// What the learner reads when a run left no trace: the runner's own sentence when it printed one
// ("Error: the code crashed the process that runs it ...", its last on stderr), else how the
// process ended.
QString describeExit(const QProcess &process, const QString &errors)
{
    static const QString prefix = QStringLiteral("Error: ");
    const QStringList lines = errors.split(QLatin1Char('\n'));
    for (auto line = lines.crbegin(); line != lines.crend(); ++line)
        if (line->startsWith(prefix) && line->size() > prefix.size())
            return line->mid(prefix.size(), 1).toUpper() + line->mid(prefix.size() + 1);
    if (process.exitStatus() == QProcess::CrashExit)
        return QObject::tr("The simulation process crashed (%1).").arg(process.errorString());
    return QObject::tr("The simulation process ended with exit code %1.").arg(process.exitCode());
}

} // namespace

void endProcess(QProcess *process, int graceMs)
{
    // Deleting a running QProcess kills it at once: it goes when it has ended.
    if (process->state() == QProcess::NotRunning)
        process->deleteLater();
    else
        QObject::connect(process, &QProcess::finished, process, &QObject::deleteLater);
    process->terminate();
    QTimer::singleShot(graceMs, process, [process] {
        if (process->state() != QProcess::NotRunning)
            process->kill();
    });
}

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
    return !m_process.isNull();
}

RunController::~RunController()
{
    blockSignals(true); // the window that listens is being destroyed
    stop();
    // The window is closing: give each stopped runner its grace to end its run, then kill it.
    for (const QPointer<QProcess> &process : m_stopping)
        if (process && !process->waitForFinished(kStopGraceMs))
            process->kill();
}

QString RunController::cliPath()
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

void RunController::start(const RunSpec &spec)
{
    if (m_process)
        stop();
    execute(spec, ++m_generation); // reports its own errors; never awaited
}

void RunController::stop()
{
    if (!m_process)
        return;
    ++m_generation; // the coroutine of the stopped run reports nothing more and cleans up
    QProcess *process = m_process;
    endProcess(process, kStopGraceMs);
    std::erase_if(m_stopping, [](const QPointer<QProcess> &p) { return p.isNull(); });
    m_stopping.emplace_back(process);
    m_process = nullptr;
    Q_EMIT runningChanged(false);
    Q_EMIT runStopped();
}

void RunController::finish(int generation)
{
    if (generation != m_generation || !m_process)
        return;
    m_process->deleteLater();
    m_process = nullptr;
    Q_EMIT runningChanged(false);
}

QCoro::Task<void> RunController::execute(RunSpec spec, int generation)
{
    QPointer<RunController> self(this);
    try {
        const QString cli = cliPath();
        if (cli.isEmpty()) {
            Q_EMIT runFailed(tr("rankstep-cli was not found next to Rankstep or on PATH."), {});
            co_return;
        }
        auto tempDir = std::make_shared<QTemporaryDir>(appTempFolderTemplate());
        const QString traceFile = tempDir->filePath(QStringLiteral("trace.rstb"));
        auto *process = new QProcess(this);
        m_process = process;
        process->setWorkingDirectory(QFileInfo(spec.codePath).absolutePath());
        // What the run prints is kept within bounds as it arrives, not buffered whole.
        auto out = std::make_shared<CappedOutput>();
        auto err = std::make_shared<CappedOutput>();
        connect(process, &QProcess::readyReadStandardOutput, process,
                [process, out] { out->append(process->readAllStandardOutput()); });
        connect(process, &QProcess::readyReadStandardError, process,
                [process, err] { err->append(process->readAllStandardError()); });
        QStringList args = {QStringLiteral("run"),         QFileInfo(spec.codePath).fileName(),
                            QStringLiteral("--function"),  spec.function,
                            QStringLiteral("--ranks"),     QString::number(spec.ranks),
                            QStringLiteral("--layers"),    QString::number(spec.layers),
                            QStringLiteral("--batches"),   QString::number(spec.batches),
                            QStringLiteral("--timeout"),   QString::number(spec.timeLimitSeconds),
                            QStringLiteral("--trace-out"), traceFile,
                            QStringLiteral("--no-report")};
        if (!spec.cost.isEmpty())
            args << QStringLiteral("--cost") << spec.cost;
        Q_EMIT runningChanged(true);
        qCDebug(lcRun) << "starting" << cli << args;
        // g++ 12 destroys temporaries inside a co_await expression twice: await named objects.
        auto starting = qCoro(process).start(cli, args);
        const bool started = co_await starting;
        if (!self)
            co_return;
        if (generation != m_generation)
            co_return; // stopped: stop() owns the process now
        if (!started) {
            const QString why = process->errorString();
            finish(generation);
            Q_EMIT runFailed(tr("The simulation could not start: %1").arg(why), {});
            co_return;
        }
        const auto limit = std::chrono::milliseconds(qint64(spec.timeLimitSeconds * 1000) + 15000);
        auto finishing = qCoro(process).waitForFinished(limit);
        co_await finishing;
        if (!self)
            co_return;
        if (generation != m_generation)
            co_return; // stopped: stop() told the window and owns the process
        if (process->state() != QProcess::NotRunning)
            process->kill();
        out->append(process->readAllStandardOutput());
        err->append(process->readAllStandardError());
        const QString errors = err->text();
        const QString output = out->text() + errors;
        const QString exitText = describeExit(*process, errors);
        const bool crashed = process->exitStatus() == QProcess::CrashExit;
        if (crashed || !QFileInfo::exists(traceFile)) {
            finish(generation);
            Q_EMIT runFailed(exitText, output);
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
        if (!self)
            co_return;
        if (generation != m_generation)
            co_return; // stopped while decoding: stop() told the window and owns the process
        finish(generation);
        if (!*loaded) {
            Q_EMIT runFailed(QString::fromStdString(loaded->error().message), output);
            co_return;
        }
        Q_EMIT traceAvailable(std::make_shared<const core::Trace>(std::move(**loaded)), output);
    } catch (const std::exception &e) {
        if (self) {
            finish(generation);
            Q_EMIT runFailed(
                tr("Rankstep failed while running: %1").arg(QString::fromUtf8(e.what())), {});
        }
    }
}

} // namespace rankstep::gui
