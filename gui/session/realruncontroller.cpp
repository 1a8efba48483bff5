// SPDX-License-Identifier: MIT
#include "realruncontroller.h"

#include "apptempfolder.h"

#include "core/io/realtrace.h"
#include "core/layout.h"

#include <QCoroTask>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QTemporaryDir>

#include <chrono>
#include <memory>

namespace rankstep::gui {

RealRunController::RealRunController(QObject *parent) : QObject(parent) {}

RealRunController::~RealRunController()
{
    blockSignals(true); // the window that listens is being destroyed
    // m_runs then gives the command its grace to end its ranks, and kills it.
    m_runs.stop();
}

bool RealRunController::isRunning() const
{
    return m_runs.busy();
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

namespace {

// The lesson's layout, as the simulated run takes it: slices and experts train for real too.
QStringList layoutArguments(const RunSpec &spec)
{
    QStringList args;
    for (const core::Axis axis :
         {core::Axis::Tensor, core::Axis::Context, core::Axis::Pipeline, core::Axis::Expert})
        if (const int degree = core::RankLayout(spec.ranks, spec.layout).degree(axis); degree > 1)
            args << QStringLiteral("--%1").arg(QString::fromUtf8(core::axisName(axis)))
                 << QString::number(degree);
    return args;
}

} // namespace

void RealRunController::start(const RunSpec &spec)
{
    if (m_runs.busy())
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
    execute(args + layoutArguments(spec), report, timeout, false,
            folder); // reports its own outcome; never awaited
}

void RealRunController::startLesson(const QString &lessonId, const QString &codePath,
                                    double timeoutSeconds, int steps, int embd)
{
    if (m_runs.busy())
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
    m_runs.stopChild();
}

QCoro::Task<void> RealRunController::execute(QStringList args, QString report, double timeout,
                                             bool lesson,
                                             [[maybe_unused]] std::shared_ptr<QTemporaryDir> folder)
{
    QPointer<RealRunController> self(this);
    const ChildRun run = m_runs.begin();
    m_clock.start();
    ChildCommand command;
    command.args = std::move(args);
    command.mergeErrors = true;
    ChildLimits limits;
    limits.wallClock = std::chrono::milliseconds(qint64(timeout * 1000) + 30000);
    limits.stopGrace = std::chrono::milliseconds(kStopGraceMs);
    Q_EMIT runningChanged(true);
    auto running = runCli(std::move(command), limits, run.stop);
    const ChildOutcome outcome = co_await running;
    if (!self || !m_runs.isCurrent(run))
        co_return; // the window is closing
    RealRunOutcome result;
    if (outcome.started) {
        result.exitCode = outcome.normalExit() ? outcome.exitCode : -1;
        result.output = outcome.output;
        readReport(report, lesson, &result);
    } else {
        result.output = tr("rankstep-cli could not start: %1").arg(outcome.errorString);
    }
    result.seconds = elapsedSeconds();
    m_runs.finish(run);
    Q_EMIT runningChanged(false);
    Q_EMIT finished(result);
}

void RealRunController::readReport(const QString &report, bool lesson,
                                   RealRunOutcome *outcome) const
{
    QFile file(report);
    if (!file.open(QIODevice::ReadOnly))
        return;
    const QByteArray bytes = file.readAll();
    const std::string_view text(bytes.constData(), std::size_t(bytes.size()));
    if (lesson) {
        auto read = io::torchLessonReportFromJson(text);
        if (read)
            outcome->lessonReport = std::move(*read);
        else
            outcome->output += QString::fromStdString("\n" + read.error().message);
        return;
    }
    auto read = io::realReportFromJson(text);
    if (read)
        outcome->report = std::move(*read);
    else
        outcome->output += QString::fromStdString("\n" + read.error().message);
    auto trace = io::realTraceFromJson(text);
    if (trace)
        outcome->trace = std::make_shared<const core::Trace>(std::move(*trace));
    else if (read) // one message is enough when neither could read it
        outcome->output += QString::fromStdString("\n" + trace.error().message);
}

} // namespace rankstep::gui
