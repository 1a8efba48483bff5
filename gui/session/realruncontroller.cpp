// SPDX-License-Identifier: MIT
#include "realruncontroller.h"

#include "apptempfolder.h"
#include "cappedoutput.h"

#include "core/io/realtrace.h"

#include <QCoroProcess>
#include <QCoroTask>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <memory>

namespace rankstep::gui {

RealRunController::RealRunController(QObject *parent) : QObject(parent) {}

RealRunController::~RealRunController()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill(); // rankstep-cli real ends its rank processes with it
        m_process->waitForFinished(2000);
    }
}

bool RealRunController::isRunning() const
{
    return !m_process.isNull();
}

double RealRunController::elapsedSeconds() const
{
    return m_clock.isValid() ? double(m_clock.elapsed()) / 1000.0 : 0.0;
}

void RealRunController::setSizes(int hidden, int length)
{
    m_hidden = hidden;
    m_length = length;
}

void RealRunController::start(const RunSpec &spec)
{
    if (m_process)
        return;
    auto folder = std::make_shared<QTemporaryDir>(appTempFolderTemplate());
    const QString report = folder->filePath(QStringLiteral("real.json"));
    const double timeout = std::max(60.0, spec.timeLimitSeconds * 4);
    const QStringList args = {
        QStringLiteral("real"),       QFileInfo(spec.codePath).absoluteFilePath(),
        QStringLiteral("--function"), spec.function,
        QStringLiteral("--ranks"),    QString::number(spec.ranks),
        QStringLiteral("--layers"),   QString::number(spec.layers),
        QStringLiteral("--batches"),  QString::number(spec.batches),
        QStringLiteral("--hidden"),   QString::number(m_hidden),
        QStringLiteral("--length"),   QString::number(m_length),
        QStringLiteral("--timeout"),  QString::number(timeout),
        QStringLiteral("--json"),     report};
    execute(args, report, timeout, false, folder); // reports its own outcome; never awaited
}

void RealRunController::startLesson(const QString &lessonId, const QString &codePath,
                                    double timeoutSeconds, int steps, int embd)
{
    if (m_process)
        return;
    auto folder = std::make_shared<QTemporaryDir>(appTempFolderTemplate());
    const QString report = folder->filePath(QStringLiteral("lesson.json"));
    QStringList args = {QStringLiteral("lesson"),
                        lessonId,
                        QFileInfo(codePath).absoluteFilePath(),
                        QStringLiteral("--timeout"),
                        QString::number(timeoutSeconds),
                        QStringLiteral("--json"),
                        report};
    if (steps > 0)
        args << QStringLiteral("--steps") << QString::number(steps);
    if (embd > 0)
        args << QStringLiteral("--embd") << QString::number(embd);
    execute(args, report, timeoutSeconds, true, folder);
}

void RealRunController::stop()
{
    if (m_process)
        m_process->terminate(); // the command kills every rank's process group and cleans up
}

QCoro::Task<void> RealRunController::execute(QStringList args, QString report, double timeout,
                                             bool lesson,
                                             [[maybe_unused]] std::shared_ptr<QTemporaryDir> folder)
{
    QPointer<RealRunController> self(this);
    RealRunOutcome outcome;
    auto *process = new QProcess(this);
    m_process = process;
    m_clock.start();
    auto out = std::make_shared<CappedOutput>();
    connect(process, &QProcess::readyReadStandardOutput, process,
            [process, out] { out->append(process->readAllStandardOutput()); });
    connect(process, &QProcess::readyReadStandardError, process,
            [process, out] { out->append(process->readAllStandardError()); });
    Q_EMIT runningChanged(true);
    // g++ 12 destroys temporaries inside a co_await expression twice: await named objects.
    auto starting = qCoro(process).start(RunController::cliPath(), args);
    const bool started = co_await starting;
    if (!self)
        co_return;
    if (started) {
        const auto limit = std::chrono::milliseconds(qint64(timeout * 1000) + 30000);
        auto finishing = qCoro(process).waitForFinished(limit);
        co_await finishing;
        if (!self)
            co_return;
        if (process->state() != QProcess::NotRunning)
            process->kill();
        out->append(process->readAllStandardOutput());
        out->append(process->readAllStandardError());
        outcome.exitCode = process->exitStatus() == QProcess::NormalExit ? process->exitCode() : -1;
        outcome.output = out->text();
        if (QFile file(report); lesson && file.open(QIODevice::ReadOnly)) {
            const QByteArray bytes = file.readAll();
            auto read =
                io::torchLessonReportFromJson(std::string_view(bytes.constData(), bytes.size()));
            if (read)
                outcome.lessonReport = std::move(*read);
            else
                outcome.output += QString::fromStdString("\n" + read.error().message);
        } else if (file.open(QIODevice::ReadOnly)) {
            const QByteArray bytes = file.readAll();
            auto read = io::realReportFromJson(std::string_view(bytes.constData(), bytes.size()));
            if (read)
                outcome.report = std::move(*read);
            else
                outcome.output += QString::fromStdString("\n" + read.error().message);
            auto trace = io::realTraceFromJson(std::string_view(bytes.constData(), bytes.size()));
            if (trace)
                outcome.trace = std::make_shared<const core::Trace>(std::move(*trace));
            else if (read) // one message is enough when neither could read it
                outcome.output += QString::fromStdString("\n" + trace.error().message);
        }
    } else {
        outcome.output = tr("rankstep-cli could not start: %1").arg(process->errorString());
    }
    outcome.seconds = elapsedSeconds();
    process->deleteLater();
    m_process = nullptr;
    Q_EMIT runningChanged(false);
    Q_EMIT finished(outcome);
}

} // namespace rankstep::gui
