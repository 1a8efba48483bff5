// SPDX-License-Identifier: MIT
#include "gradecontroller.h"

#include <QCoroTask>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>

#include <chrono>

namespace rankstep::gui {

bool parseClassRoster(const QByteArray &json, ClassRoster *roster, QString *why)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (document.isNull() || !document.isObject()) {
        *why = GradeController::tr("The grading gave no roster (%1).").arg(error.errorString());
        return false;
    }
    const QJsonObject top = document.object();
    if (!top.value(QStringLiteral("lessons")).isArray() ||
        !top.value(QStringLiteral("learners")).isArray()) {
        *why = GradeController::tr("The grading gave no roster (no lessons or learners).");
        return false;
    }
    roster->lessons.clear();
    for (const QJsonValue &lesson : top.value(QStringLiteral("lessons")).toArray())
        roster->lessons.append(lesson.toString());
    roster->learners.clear();
    for (const QJsonValue &value : top.value(QStringLiteral("learners")).toArray()) {
        const QJsonObject object = value.toObject();
        ClassRoster::Learner learner;
        learner.name = object.value(QStringLiteral("learner")).toString();
        const QJsonObject cells = object.value(QStringLiteral("lessons")).toObject();
        const QJsonObject files = object.value(QStringLiteral("files")).toObject();
        const QJsonObject errors = object.value(QStringLiteral("errors")).toObject();
        for (const QString &lesson : std::as_const(roster->lessons))
            learner.cells.push_back({cells.value(lesson).toString(QStringLiteral("missing")),
                                     files.value(lesson).toString(),
                                     errors.value(lesson).toString()});
        roster->learners.push_back(std::move(learner));
    }
    roster->mistakes.clear();
    for (const QJsonValue &value : top.value(QStringLiteral("common_mistakes")).toArray()) {
        const QJsonObject object = value.toObject();
        ClassRoster::Mistake mistake;
        mistake.kind = object.value(QStringLiteral("kind")).toString();
        mistake.learners = object.value(QStringLiteral("learners")).toInt();
        for (const QJsonValue &lesson : object.value(QStringLiteral("lessons")).toArray())
            mistake.lessons.append(lesson.toString());
        roster->mistakes.push_back(std::move(mistake));
    }
    return true;
}

GradeController::GradeController(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<ClassRoster>();
}

GradeController::~GradeController()
{
    blockSignals(true);
    // m_runs then gives the grader its grace to end its runs, and kills it.
    stop();
}

void GradeController::start(const QString &folder, double timeLimitSeconds)
{
    if (m_runs.busy())
        stop();
    execute(folder, timeLimitSeconds); // reports its own errors; never awaited
}

void GradeController::stop()
{
    if (!m_runs.stop())
        return;
    Q_EMIT runningChanged(false);
    Q_EMIT stopped();
}

QCoro::Task<void> GradeController::execute(QString folder, double timeLimitSeconds)
{
    QPointer<GradeController> self(this);
    ChildCommand command;
    command.program = cliPath();
    if (command.program.isEmpty()) {
        Q_EMIT failed(tr("rankstep-cli was not found next to Rankstep or on PATH."));
        co_return;
    }
    if (!QFileInfo(folder).isDir()) {
        Q_EMIT failed(tr("%1 is not a folder.").arg(QDir::toNativeSeparators(folder)));
        co_return;
    }
    command.args = {QStringLiteral("grade"),     folder,
                    QStringLiteral("--roster"),  QStringLiteral("--json"),
                    QStringLiteral("--timeout"), QString::number(timeLimitSeconds)};
    // Ends by itself: every submission has its time limit. A roster is read whole.
    ChildLimits limits;
    limits.stopGrace = std::chrono::milliseconds(kStopGraceMs);
    limits.headBytes = 256 << 20;
    const ChildRun run = m_runs.begin();
    Q_EMIT runningChanged(true);
    auto running = runCli(std::move(command), limits, run.stop);
    const ChildOutcome outcome = co_await running;
    if (!self || !m_runs.isCurrent(run))
        co_return; // stopped: stop() told the window
    m_runs.finish(run);
    Q_EMIT runningChanged(false);
    if (!outcome.started) {
        Q_EMIT failed(tr("The grading could not start: %1").arg(outcome.errorString));
        co_return;
    }
    report(outcome, folder);
}

void GradeController::report(const ChildOutcome &outcome, const QString &folder)
{
    const QString errors = outcome.errors.trimmed();
    const bool normal = outcome.normalExit();
    const int code = outcome.exitCode;
    // Exit 0 (all solved) and 1 (some not) both give a roster; 64 is a usage error.
    ClassRoster roster;
    QString why;
    if (!normal || code == 64 || !parseClassRoster(outcome.output.toUtf8(), &roster, &why)) {
        // The grader's own words first; a grader that said nothing still gets a reason.
        // A crash is said as one, with what it wrote (a warning may come before it).
        if (!normal)
            why =
                tr("The grading ended early: rankstep-cli crashed (%1).").arg(outcome.errorString) +
                (errors.isEmpty() ? QString()
                                  : QLatin1Char('\n') + errors.section(QLatin1Char('\n'), 0, 2));
        else if (!errors.isEmpty())
            why = errors.section(QLatin1Char('\n'), 0, 2);
        else if (code == 64)
            why = tr("rankstep-cli refused the grading (exit code 64) without saying why.");
        else if (why.isEmpty())
            why = tr("rankstep-cli's answer was not a class roster (exit code %1).").arg(code);
        Q_EMIT failed(why);
        return;
    }
    roster.folder = folder;
    roster.seconds = outcome.seconds;
    Q_EMIT finished(roster);
}

} // namespace rankstep::gui
