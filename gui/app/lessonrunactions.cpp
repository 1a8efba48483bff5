// SPDX-License-Identifier: MIT
#include "lessonrunactions.h"

#include "codeeditor.h"
#include "codekeeper.h"
#include "costmodelactions.h"
#include "errordialog.h"
#include "experimentsview.h"
#include "lessonlistmodel.h"
#include "lessontitle.h"
#include "losschart.h"
#include "progressstore.h"
#include "realruncontroller.h"
#include "resultspanel.h"
#include "runsession.h"
#include "sweepcontroller.h"

#include "core/io/costfile.h"

#include <QAction>
#include <QMessageBox>

namespace rankstep::gui {
namespace {

// A message box that does not block: a scripted run must still end.
void openMessageBox(QWidget &parent, QMessageBox::Icon icon, const QString &title,
                    const QString &text, const QString &objectName, const QString &details = {})
{
    auto *box = new QMessageBox(icon, title, text, QMessageBox::Ok, &parent);
    box->setObjectName(objectName);
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (!details.isEmpty())
        box->setDetailedText(details);
    box->open();
}

} // namespace

LessonRunActions::LessonRunActions(LessonRunParts parts, QObject *parent)
    : QObject(parent)
    , m_parts(parts)
    , m_run(new RunController(this))
    , m_torchRun(new RealRunController(this))
    , m_runAction(new QAction(this))
    , m_resetAction(new QAction(tr("Reset to starter…"), this))
    , m_stillRunning(new QTimer(this))
{
    m_stillRunning->setInterval(1000);
    connect(m_stillRunning, &QTimer::timeout, this, &LessonRunActions::onStillRunning);
    m_runAction->setObjectName(QStringLiteral("runAction"));
    m_runAction->setShortcut(Qt::Key_F5);
    // The toolbar names the key as the desktop writes it, from the action's own shortcut.
    m_runAction->setText(
        tr("▶ Run (%1)").arg(m_runAction->shortcut().toString(QKeySequence::NativeText)));
    connect(m_runAction, &QAction::triggered, this, &LessonRunActions::run);
    connect(m_resetAction, &QAction::triggered, this, &LessonRunActions::resetToStarter);
    connect(m_run, &RunController::traceAvailable, this, &LessonRunActions::onTraceAvailable);
    connect(m_run, &RunController::runFailed, this, &LessonRunActions::onRunFailed);
    connect(m_run, &RunController::runStopped, this, [this] {
        m_parts.results.showMessage(
            tr("<p>Stopped. Your code is saved; change it and run again.</p>"));
        Q_EMIT message(tr("Stopped."));
        Q_EMIT runFinished();
    });
    connect(m_torchRun, &RealRunController::finished, this,
            &LessonRunActions::onTorchLessonFinished);
    connect(m_run, &RunController::runningChanged, this, [this](bool on) {
        m_runAction->setEnabled(!on);
        if (on) {
            m_runClock.start();
            m_stillRunning->start();
        } else {
            m_stillRunning->stop();
        }
        Q_EMIT runningChanged();
    });
    connect(m_torchRun, &RealRunController::runningChanged, this, [this](bool on) {
        m_runAction->setEnabled(!on);
        Q_EMIT runningChanged();
    });
}

void LessonRunActions::onStillRunning()
{
    constexpr qint64 kHintAfterMs = 3000; // the lessons' solutions run in well under a second
    const qint64 elapsed = m_runClock.elapsed();
    if (!m_run->isRunning() || elapsed < kHintAfterMs)
        return;
    const qint64 seconds = elapsed / 1000;
    // The window's Stop action takes the desktop's Cancel key (Esc).
    const QString stop =
        QKeySequence::keyBindings(QKeySequence::Cancel).value(0).toString(QKeySequence::NativeText);
    m_parts.results.showMessage(
        tr("<p>Still running after %1 s: an endless loop?</p><p>%2 stops the run now; the time "
           "limit stops it after %3 s.</p>")
            .arg(seconds)
            .arg(stop)
            .arg(m_lastSpec.timeLimitSeconds));
    Q_EMIT message(
        tr("Still running after %1 s: an endless loop? %2 stops it.").arg(seconds).arg(stop));
}

bool LessonRunActions::isRunning() const
{
    return m_run->isRunning() || m_torchRun->isRunning();
}

void LessonRunActions::run()
{
    const lessons::Lesson *lesson = m_parts.session.lesson();
    if (lesson && lesson->isTorch()) {
        runTorchLesson();
        return;
    }
    if (const std::optional<RunSpec> spec = prepareRun()) {
        simulate(*spec);
        Q_EMIT runStarted(m_parts.editor.text(), m_parts.costModel.preset());
    }
}

void LessonRunActions::simulate(const RunSpec &spec)
{
    m_lastSpec = spec;
    m_run->start(spec);
}

std::optional<RunSpec> LessonRunActions::prepareRun()
{
    const lessons::Lesson *lesson = m_parts.session.lesson();
    if (!lesson)
        return std::nullopt;
    QString error;
    if (!m_parts.keeper.save(&error)) {
        // Not modal: a scripted run must still end, and the banner over the editor stays.
        const QString why =
            tr("Rankstep saves your code before every run, and saving failed: %1. Nothing was run.")
                .arg(error);
        Q_EMIT message(why);
        openMessageBox(m_parts.window, QMessageBox::Warning, tr("Your code could not be saved"),
                       why, QStringLiteral("saveFailedDialog"));
        Q_EMIT runRefused(why);
        return std::nullopt;
    }
    m_parts.editor.clearMarkers();
    m_parts.results.showMessage(
        tr("<p>Running on %1 simulated ranks…</p>").arg(lesson->config.ranks));
    Q_EMIT message(tr("Running…"));
    RunSpec spec;
    spec.codePath = m_parts.keeper.runFilePath();
    spec.function = QString::fromStdString(lesson->function);
    spec.ranks = lesson->config.ranks;
    spec.layers = lesson->config.layers;
    spec.batches = lesson->config.batches;
    spec.layout = lesson->config.layout;
    spec.timeLimitSeconds = m_runTimeLimit;
    if (m_parts.costModel.preset() != QStringLiteral("notebook"))
        spec.cost = m_parts.costModel.preset();
    return spec;
}

std::optional<SweepSpec> LessonRunActions::prepareSweep()
{
    const lessons::Lesson *lesson = m_parts.session.lesson();
    if (!lesson)
        return std::nullopt;
    QString error;
    if (!m_parts.keeper.save(&error)) {
        Q_EMIT message(tr("Rankstep saves your code before a sweep, and saving failed: %1. "
                          "Nothing was run.")
                           .arg(error));
        return std::nullopt;
    }
    SweepSpec spec;
    spec.codePath = m_parts.keeper.runFilePath();
    spec.function = QString::fromStdString(lesson->function);
    spec.timeLimitSeconds = m_runTimeLimit;
    // A pipeline lesson may compare schedules (the What if tab's choice): the other schedules'
    // lessons' solutions run beside the learner's code.
    if (lesson->parallelism == lessons::Parallelism::Pipeline)
        for (const lessons::Lesson &other : m_parts.model.lessons())
            if (&other != lesson && !other.solution.empty() &&
                (other.function == "one_f_one_b" || other.function == "interleaved_1f1b" ||
                 other.function == "zero_bubble"))
                spec.compared.push_back({QString::fromStdString(other.solution),
                                         QString::fromStdString(other.function)});
    return spec;
}

void LessonRunActions::stop()
{
    m_run->stop();
    m_torchRun->stop();
}

void LessonRunActions::stopForLesson()
{
    if (m_torchRun->isRunning())
        m_torchRun->stop();
    m_parts.session.setLessonReport(std::nullopt);
}

void LessonRunActions::runTorchLesson()
{
    if (m_torchRun->isRunning())
        return;
    const std::optional<RunSpec> spec = prepareRun(); // saves the code
    if (!spec)
        return;
    const lessons::Lesson &lesson = *m_parts.session.lesson();
    const int ranks = lesson.config.ranks;
    m_parts.results.showMessage(
        tr("<p>Training for real with PyTorch: %1… The loss curve appears when it ends.</p>")
            .arg(ranks == 1 ? tr("one process") : tr("%1 processes").arg(ranks)));
    m_parts.session.setLessonReport(std::nullopt);
    // The notebook's model trains in seconds to a minute here; an endless loop ends at this.
    constexpr double kTorchLessonSeconds = 600;
    m_torchRun->startLesson(QString::fromStdString(lesson.id), spec->codePath, kTorchLessonSeconds,
                            m_torchSteps, m_torchEmbd);
}

void LessonRunActions::recordRun(bool solved)
{
    const QString id = QString::fromStdString(m_parts.session.lesson()->id);
    m_parts.progress.recordRun(id, solved);
    m_parts.model.refresh(id);
}

void LessonRunActions::onTorchLessonFinished(const RealRunOutcome &outcome)
{
    const lessons::Lesson *lesson = m_parts.session.lesson();
    if (!lesson || !lesson->isTorch())
        return; // another lesson is open now
    m_parts.session.setLessonReport(outcome.lessonReport);
    const io::TorchLessonReport *report = m_parts.session.lessonReport();
    m_parts.results.showMessage(torchLessonHtml(outcome.exitCode, outcome.output, report));
    const bool solved = report && report->solved;
    if (m_parts.keeper.learnersCode() && outcome.exitCode != RealRunOutcome::kTorchMissing)
        recordRun(solved);
    if (const int line = rankErrorLine(outcome.output); line > 0)
        m_parts.editor.markError(line);
    Q_EMIT message(solved ? tr("Solved! Trained for real in %1 s.").arg(outcome.seconds, 0, 'f', 1)
                          : tr("Not solved yet: see the checks above the loss curve."));
    Q_EMIT traceShown();
    Q_EMIT runFinished();
}

void LessonRunActions::resetToStarter()
{
    const lessons::Lesson *lesson = m_parts.session.lesson();
    if (!lesson)
        return;
    const auto answer =
        QMessageBox::question(&m_parts.window, tr("Reset to the starter code?"),
                              tr("Your code will be replaced by the lesson's starter code. You can "
                                 "undo this with Ctrl+Z."),
                              QMessageBox::Reset | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer == QMessageBox::Reset)
        m_parts.keeper.resetTo(QString::fromStdString(lesson->starter));
}

void LessonRunActions::showTrace(const TracePtr &trace, const QString &output)
{
    // At the end: where the run finished, or where no rank could go on. A real-scale cost model's
    // ticks are microseconds (docs/cost-models.md).
    m_parts.session.setTrace(
        trace, trace->config.cost.realScale() ? TraceUnits::Seconds : TraceUnits::SimulatedSteps,
        output);
    Q_EMIT traceShown();
}

void LessonRunActions::showKeptRun(const TracePtr &trace)
{
    showTrace(trace, QString());
    m_parts.editor.clearMarkers();
    if (trace->error)
        m_parts.editor.markError(trace->error->line);
}

QString LessonRunActions::settingsText(const lessons::Lesson &lesson)
{
    const int ranks = lesson.config.ranks;
    if (lesson.isTorch())
        return tr("%1: real PyTorch, %2, %3 steps. F5 trains it for real.")
            .arg(lessonTitle(lesson), ranks == 1 ? tr("1 process") : tr("%1 processes").arg(ranks))
            .arg(lesson.torch->steps);
    return tr("%1: %2, %3 layers, %4 batches.")
        .arg(lessonTitle(lesson), ranks == 1 ? tr("1 rank") : tr("%1 ranks").arg(ranks))
        .arg(lesson.config.layers)
        .arg(lesson.config.batches);
}

void LessonRunActions::showSweepRun(const io::SweepRow &row)
{
    auto loaded = loadTraceFile(QString::fromStdString(row.trace));
    if (!loaded) {
        Q_EMIT message(tr("Cannot open that setting's run: %1")
                           .arg(QString::fromStdString(loaded.error().message)));
        return;
    }
    showKeptRun(std::make_shared<const core::Trace>(std::move(*loaded)));
    // A sweep's run is never recorded as the lesson's: judge() grades the lesson's setting only.
    Q_EMIT message(tr("The What if run at %1 ranks, %2 layers, %3 batches: %4")
                       .arg(row.point.ranks)
                       .arg(row.point.layers)
                       .arg(row.point.batches)
                       .arg(QString::fromStdString(row.status)));
}

void LessonRunActions::onTraceAvailable(const TracePtr &trace, const QString &output)
{
    showTrace(trace, output);
    const lessons::Lesson &lesson = *m_parts.session.lesson();
    const lessons::Verdict verdict = lessons::judge(lesson, *trace);
    m_parts.session.setVerdict(verdict);
    // Under another cost model a run is not graded: it neither solves nor unsolves the lesson.
    if (m_parts.keeper.learnersCode() && core::isNotebookCost(trace->config.cost))
        recordRun(verdict.solved);
    Q_EMIT message(verdictText(lesson, *trace, verdict));
    // The bubble lesson's m = 1, 2, 4, 8: the same code again, in the background.
    if (!lesson.experiments.empty() && trace->status == core::RunStatus::Ok)
        m_parts.experiments.runExperiments(m_lastSpec);
    if (trace->error) {
        m_parts.editor.markError(trace->error->line);
        // A hang is explained by the "Why it hung" picture and the results banner; a dialog
        // would cover the picture and repeat it. Placed clear of the line it explains, of every
        // rank's state and of the views below the code (the sentence saying what went wrong,
        // where the timeline stopped, the memory chart's peak): over code it does not explain.
        const auto onScreen = [](const QWidget &widget) {
            return widget.isVisible() ? QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())
                                      : QRect();
        };
        if (!trace->diagnosis)
            showRunError(&m_parts.window, *trace,
                         {m_parts.editor.lineRectGlobal(trace->error->line),
                          onScreen(m_parts.leftTabs), onScreen(m_parts.views)});
    }
    Q_EMIT runFinished();
}

void LessonRunActions::onRunFailed(const QString &text, const QString &output)
{
    m_parts.results.showMessage(QStringLiteral("<p><b>%1</b></p><pre>%2</pre>")
                                    .arg(text.toHtmlEscaped(), output.right(3000).toHtmlEscaped()));
    Q_EMIT message(text);
    openMessageBox(m_parts.window, QMessageBox::Critical, tr("The run did not complete"), text,
                   QStringLiteral("runFailedDialog"), output.right(20000));
    Q_EMIT runFinished();
}

} // namespace rankstep::gui
