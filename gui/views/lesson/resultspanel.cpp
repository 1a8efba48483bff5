// SPDX-License-Identifier: MIT
#include "resultspanel.h"

#include "core/explain/formulas.h"

#include "core/memoryformat.h"
#include "core/stoppedrank.h"
#include "enginetext.h"
#include "errordialog.h"
#include "runsession.h"
#include "timelinetext.h"

#include <QFontMetrics>
#include <QLabel>
#include <QScrollArea>
#include <QTextDocument>
#include <QVBoxLayout>

#include <cmath>

namespace rankstep::gui {
namespace {

QString esc(const QString &text)
{
    return text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

// The engine's words (an error, the check, a warning) in the learner's language.
QString escEngine(const std::string &text)
{
    return esc(engineText(text));
}

// Figures compared with a target keep their exact bytes: "2621440 B (2.62 MB)".
QString exactMemory(std::int64_t bytes)
{
    return QString::fromStdString(core::formatMemoryExact(bytes));
}

QString verdictRow(const QString &name, const QString &value, const QString &target, bool met,
                   const QString &by, const QString &notebook)
{
    const QString mark =
        met ? QStringLiteral("<span style='color:#1b7a2e'>%1</span>").arg(ResultsPanel::tr("✓ met"))
            : QStringLiteral("<span style='color:#b3261e'>%1</span>")
                  .arg(ResultsPanel::tr("✗ over by %1").arg(by));
    // One line per figure, the notebook's target inside it: the panel is short at 1280x800.
    const QString nb = notebook.isEmpty()
                           ? QString()
                           : QStringLiteral(" <small>(%1)</small>")
                                 .arg(ResultsPanel::tr("notebook: %1").arg(notebook));
    return QStringLiteral(
               "<tr><td><b>%1</b></td><td align='right'>%2</td><td>&nbsp;&nbsp;%3%4</td>"
               "<td>%5</td></tr>")
        .arg(name, value, ResultsPanel::tr("target %1").arg(target), nb, mark);
}

QString statusWord(core::RunStatus status)
{
    switch (status) {
        case core::RunStatus::Ok:
            return ResultsPanel::tr("ok");
        case core::RunStatus::Error:
            return ResultsPanel::tr("error");
        case core::RunStatus::Deadlock:
            return ResultsPanel::tr("deadlock");
        case core::RunStatus::Stopped:
            return ResultsPanel::tr("stopped");
    }
    return ResultsPanel::tr("error");
}

// "4 ranks, 2 layers, 4 batches".
QString settingText(const core::RunConfig &config)
{
    // No %n plurals: without a translation (English) Qt would print "4 rank(s)".
    return (config.ranks == 1 ? ResultsPanel::tr("%1 rank") : ResultsPanel::tr("%1 ranks"))
               .arg(config.ranks) +
           QStringLiteral(", ") +
           (config.layers == 1 ? ResultsPanel::tr("%1 layer") : ResultsPanel::tr("%1 layers"))
               .arg(config.layers) +
           QStringLiteral(", ") +
           (config.batches == 1 ? ResultsPanel::tr("%1 batch") : ResultsPanel::tr("%1 batches"))
               .arg(config.batches);
}

QString lessonRows(const lessons::Lesson &lesson, const core::Trace &trace,
                   const lessons::Verdict &v)
{
    if (!lesson.targets)
        return {};
    const core::Figures &f = trace.figures;
    const auto &nb = lesson.notebookTargets;
    const core::SimTime overTime = f.timesteps - lesson.targets->time;
    return verdictRow(QObject::tr("Timesteps"), QString::fromStdString(f.timesteps.toString()),
                      QString::fromStdString(lesson.targets->time.toString()), v.timeMet,
                      QString::fromStdString(overTime.toString()),
                      nb ? QString::fromStdString(nb->time.toString()) : QString()) +
           verdictRow(QObject::tr("Maximum memory"), exactMemory(f.maxMemory),
                      exactMemory(lesson.targets->memory), v.memoryMet,
                      exactMemory(f.maxMemory - lesson.targets->memory),
                      nb ? exactMemory(nb->memory) : QString());
}

// The diagnosis of a hang as a banner over the results: the app shows no dialog for it, so it
// covers neither the "Why it hung" picture nor the code.
QString hangBanner(const core::Trace &trace)
{
    const RunErrorText text = describeRunError(trace);
    return QStringLiteral(
               "<table width='100%' cellpadding='6' style='background-color:#fdecea; "
               "color:#5f1410'><tr><td><b>%1</b><br>"
               "<span style='font-family:monospace'>%2</span></td></tr></table>")
        .arg(text.title.toHtmlEscaped(),
             text.text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
}

// After an error on one rank, the ranks that had not run yet: their empty rows and panels are
// not ranks that did nothing, the run stopped before their turn (the scheduler runs one rank
// until it waits, docs/simulation.md).
QString notStartedHtml(const core::Trace &trace)
{
    const core::Error &e = *trace.error;
    // A stop (Esc, a limit) is no error of a rank; a hang names every rank itself.
    if (e.kind == core::ErrorKind::Deadlock || e.kind == core::ErrorKind::Mismatch ||
        e.kind == core::ErrorKind::Syntax || e.kind == core::ErrorKind::Stopped ||
        trace.config.ranks < 2 || !trace.figures.hasEvents)
        return {};
    std::vector<bool> ran(std::size_t(trace.config.ranks), false);
    for (const core::Slice &slice : trace.slices)
        if (slice.rank >= 0 && slice.rank < trace.config.ranks)
            ran[std::size_t(slice.rank)] = true;
    QStringList runs;
    int count = 0;
    for (int rank = 0; rank < trace.config.ranks; ++rank) {
        if (ran[std::size_t(rank)])
            continue;
        int last = rank;
        while (last + 1 < trace.config.ranks && !ran[std::size_t(last + 1)])
            ++last;
        runs << (last == rank       ? QString::number(rank)
                 : last == rank + 1 ? QStringLiteral("%1, %2").arg(rank).arg(last)
                                    : QStringLiteral("%1-%2").arg(rank).arg(last));
        count += last - rank + 1;
        rank = last;
    }
    if (count == 0)
        return {};
    const QString ranks = (count == 1 ? ResultsPanel::tr("rank %1") : ResultsPanel::tr("ranks %1"))
                              .arg(runs.join(QStringLiteral(", ")));
    return QStringLiteral("<p>%1</p>")
        .arg((count == 1 ? ResultsPanel::tr("The run stops at the first error: %1 had not started "
                                            "yet (hence its empty row).")
                         : ResultsPanel::tr("The run stops at the first error: %1 had not started "
                                            "yet (hence the empty rows)."))
                 .arg(ranks));
}

QString share(core::SimTime part, core::SimTime whole)
{
    return QStringLiteral("%1%").arg(
        whole.ticks() > 0 ? std::llround(100.0 * double(part.ticks()) / double(whole.ticks())) : 0);
}

// The time and, in brackets after it, its share of the whole ("12.5 (37%)"), and which rank when
// `rank` is set: one cell, so that a time and the next column's share no longer run together
// ("2 100%").
QString timeCell(core::SimTime part, core::SimTime whole, const QString &unit, int rank = -1)
{
    const QString note = rank < 0 ? QString() : QObject::tr(", rank %1").arg(rank);
    return QStringLiteral(
               "<td align='right' style='padding-left:16px'>%1&nbsp;<small>(%2%3)</small></td>")
        .arg(clockText(part, unit).replace(QLatin1Char(' '), QStringLiteral("&nbsp;")),
             share(part, whole), note);
}

// Where each rank's time went: busy (compute), idle and communication, each rank's three adding
// up to the run's end time (core/trace.h RankFigures). Many ranks: the fewest and the most of
// each, and which ranks they are, instead of a row per rank. Times in `unit` (empty: the
// puzzle's steps, which go bare): a real-scale run's said "the end, 5630.28" of milliseconds.
QString rankTimeHtml(const core::Trace &trace, const QString &unit)
{
    constexpr std::size_t kRowsShown = 8;
    const core::Figures &f = trace.figures;
    const core::SimTime end = f.endTime;
    if (f.ranks.empty() || end.ticks() <= 0)
        return {};
    QString html = QObject::tr(
                       "<p><b>Where the time goes</b> (each rank's busy, idle and "
                       "communication time add up to the end, %1):</p>")
                       .arg(clockText(end, unit));
    html += QStringLiteral(
                "<table cellspacing='0' cellpadding='2'><tr><th align='right'>%1</th>"
                "<th align='right' style='padding-left:16px'>%2</th>"
                "<th align='right' style='padding-left:16px'>%3</th>"
                "<th align='right' style='padding-left:16px'>%4</th></tr>")
                .arg(QObject::tr("rank"), QObject::tr("busy"), QObject::tr("idle"),
                     QObject::tr("communication"));
    if (f.ranks.size() <= kRowsShown) {
        for (std::size_t rank = 0; rank < f.ranks.size(); ++rank) {
            const core::RankFigures &r = f.ranks[rank];
            html += QStringLiteral("<tr><td align='right'>%1</td>%2%3%4</tr>")
                        .arg(rank)
                        .arg(timeCell(r.compute, end, unit), timeCell(r.idle, end, unit),
                             timeCell(r.communication, end, unit));
        }
        return html + QStringLiteral("</table>");
    }
    // The rank with the least and the most of each.
    const auto extreme = [&f](auto member, bool most) {
        std::size_t best = 0;
        for (std::size_t rank = 1; rank < f.ranks.size(); ++rank) {
            const core::SimTime value = f.ranks[rank].*member;
            const core::SimTime kept = f.ranks[best].*member;
            if (most ? value > kept : value < kept)
                best = rank;
        }
        return best;
    };
    for (const bool most : {false, true}) {
        const std::size_t busy = extreme(&core::RankFigures::compute, most);
        const std::size_t idle = extreme(&core::RankFigures::idle, most);
        const std::size_t comm = extreme(&core::RankFigures::communication, most);
        html += QStringLiteral("<tr><td>%1</td>%2%3%4</tr>")
                    .arg(most ? QObject::tr("most") : QObject::tr("least"))
                    .arg(timeCell(f.ranks[busy].compute, end, unit, int(busy)),
                         timeCell(f.ranks[idle].idle, end, unit, int(idle)),
                         timeCell(f.ranks[comm].communication, end, unit, int(comm)));
    }
    return html + QStringLiteral("</table>") +
           QObject::tr("<p><small>%1 ranks: the Why tab lists every one.</small></p>")
               .arg(f.ranks.size());
}

} // namespace

QString verdictText(const lessons::Lesson &lesson, const core::Trace &trace,
                    const lessons::Verdict &verdict)
{
    using Kind = lessons::Verdict::Kind;
    const QString detail = engineText(verdict.detail);
    switch (verdict.kind) {
        case Kind::Solved:
            return ResultsPanel::tr("Solved!");
        case Kind::OtherSetting:
            return ResultsPanel::tr("Correct at %1; the lesson is graded at %2.")
                .arg(settingText(trace.config), settingText(lesson.config));
        case Kind::OtherCosts:
            return ResultsPanel::tr(
                       "Correct under the cost model %1; lessons are graded under the notebook's "
                       "costs.")
                .arg(QString::fromStdString(trace.config.cost.name));
        case Kind::Unfinished: {
            const QString status = statusWord(trace.status);
            if (detail.isEmpty())
                return ResultsPanel::tr("Not solved yet: the run did not finish (%1).").arg(status);
            QString placed = verdict.detailAt.rank < 0 ? detail
                                                       : ResultsPanel::tr("rank %1, line %2: %3")
                                                             .arg(verdict.detailAt.rank)
                                                             .arg(verdict.detailAt.line)
                                                             .arg(detail);
            // A rank's own error first, then who waited for the rank it stopped.
            if (const std::string waiting = core::waitingOnTheStoppedRank(trace); !waiting.empty())
                placed = ResultsPanel::tr("%1; %2").arg(placed, engineText(waiting));
            return ResultsPanel::tr("Not solved yet: the run did not finish (%1): %2%3")
                .arg(status, placed,
                     detail.endsWith(QLatin1Char('?')) ? QString() : QStringLiteral("."));
        }
        case Kind::CheckFailed:
            return ResultsPanel::tr("Not solved yet: %1.").arg(detail);
        case Kind::NoFigures:
            return ResultsPanel::tr(
                "Not solved yet: the run made no operations, so it has no "
                "figures to compare with the targets.");
        case Kind::TargetsMissed:
            break;
    }
    QStringList missed;
    if (!verdict.timeMet && lesson.targets)
        missed << ResultsPanel::tr("Timesteps %1 is above the target %2")
                      .arg(QString::fromStdString(trace.figures.timesteps.toString()),
                           QString::fromStdString(lesson.targets->time.toString()));
    if (!verdict.memoryMet && lesson.targets)
        missed << ResultsPanel::tr("Maximum Memory %1 is above the target %2")
                      .arg(exactMemory(trace.figures.maxMemory),
                           exactMemory(lesson.targets->memory));
    return ResultsPanel::tr("Correct, but not solved yet: %1.")
        .arg(missed.join(QStringLiteral("; ")));
}

namespace {

// What a run opened from a file shows in place of a verdict; a real run's figures are not
// timesteps, and the lines below give what it has.
QString openedNotGradedHtml(const core::Trace &trace, bool real)
{
    const core::Figures &f = trace.figures;
    QString html = ResultsPanel::tr(
        "<p><b>Not graded:</b> this run was opened from a file, and Rankstep cannot vouch for "
        "the program that made it. It shows what the file holds, without judging it against "
        "this lesson; press <b>Run</b> (F5) to grade your code.</p>");
    if (f.hasEvents && !real && !trace.config.cost.realScale())
        html += ResultsPanel::tr("<p>The file's figures: Timesteps %1, maximum memory %2.</p>")
                    .arg(QString::fromStdString(f.timesteps.toString()), exactMemory(f.maxMemory));
    return html;
}

} // namespace

QString deviceFitText(const core::Trace &trace)
{
    const std::int64_t device = trace.config.cost.deviceMemory;
    if (device <= 0 || !trace.figures.hasEvents)
        return {};
    const auto memory = [](std::int64_t bytes) {
        return QString::fromStdString(core::formatMemory(bytes));
    };
    const std::int64_t spare = device - trace.figures.maxMemory;
    return spare >= 0
               ? ResultsPanel::tr("fits %1, %2 to spare").arg(memory(device), memory(spare))
               : ResultsPanel::tr("%1 over the %2 device").arg(memory(-spare), memory(device));
}

QString resultsHtml(const lessons::Lesson *lesson, const core::Trace &trace,
                    const std::optional<lessons::Verdict> &verdict, bool realRun)
{
    const core::Figures &f = trace.figures;
    QString html;
    const std::optional<lessons::Verdict> judged =
        verdict || !lesson ? verdict : lessons::judge(*lesson, trace);
    if (lesson) {
        const lessons::Verdict &v = *judged;
        html += QStringLiteral("<p style='font-size:large'><b style='color:%1'>%2</b></p>")
                    .arg(v.solved ? QStringLiteral("#1b7a2e") : QStringLiteral("#8a5300"),
                         verdictText(*lesson, trace, v).toHtmlEscaped());
    }
    if (trace.error && trace.diagnosis) {
        html += hangBanner(trace);
    } else if (trace.error) {
        const core::Error &e = *trace.error;
        html += QStringLiteral("<p><b>%1</b><br><span style='font-family:monospace'>%2</span></p>")
                    .arg(e.kind == core::ErrorKind::Deadlock || e.kind == core::ErrorKind::Mismatch
                             ? QObject::tr("The ranks hung:")
                         : e.rank >= 0 && e.line > 0
                             ? QObject::tr("Rank %1, line %2:").arg(e.rank).arg(e.line)
                             : QObject::tr("What went wrong:"),
                         escEngine(e.message));
        html += notStartedHtml(trace);
    }
    // Under another cost model the targets (the notebook's figures) do not apply.
    const bool notebookCosts = core::isNotebookCost(trace.config.cost);
    if (f.hasEvents && trace.status == core::RunStatus::Ok && notebookCosts) {
        html += QStringLiteral("<table cellspacing='2'>");
        html += lesson ? lessonRows(*lesson, trace, *judged) : QString();
        html += QStringLiteral("</table>");
    }
    // After the maximum's time: whether it fits the device, when the trace names one.
    const QString fit = deviceFitText(trace);
    const QString fitAfter = fit.isEmpty() ? QString() : QStringLiteral(", ") + fit;
    if (f.hasEvents && trace.config.cost.realScale()) {
        // A real-scale cost model's ticks are microseconds (docs/cost-models.md).
        html += QObject::tr(
                    "<p>Under %1: Timesteps %2; maximum memory %3 on rank %4 at %5; the "
                    "run ends at %6.</p>")
                    .arg(QString::fromStdString(trace.config.cost.name), secondsText(f.timesteps),
                         exactMemory(f.maxMemory))
                    .arg(f.maxMemoryRank)
                    .arg(secondsText(f.maxMemoryTime) + fitAfter, secondsText(f.endTime));
    } else if (f.hasEvents) {
        html += QObject::tr("<p>Maximum memory %1 on rank %2 at time %3; the run ends at %4.</p>")
                    .arg(exactMemory(f.maxMemory))
                    .arg(f.maxMemoryRank)
                    .arg(QString::fromStdString(f.maxMemoryTime.toString()) + fitAfter,
                         QString::fromStdString(f.endTime.toString()));
    }
    // The lesson's formula beside what the run measured (core/explain/formulas.h).
    if (lesson && trace.status == core::RunStatus::Ok && notebookCosts)
        if (const std::string formula =
                explain::lessonFormulaSentence(trace, lesson->parallelism, engineWords());
            !formula.empty())
            html += QStringLiteral("<p>%1</p>").arg(esc(QString::fromStdString(formula)));
    // A lesson's verdict above already says what the failed check found.
    const bool checkInVerdict =
        lesson && lesson->goal == lessons::Goal::Train && !trace.check.passed;
    if (trace.status == core::RunStatus::Ok && !checkInVerdict)
        html += QStringLiteral("<p><b>%1</b> %2</p>")
                    .arg(ResultsPanel::tr("Check:"), escEngine(trace.check.message));
    for (const core::Warning &w : trace.warnings)
        html += QObject::tr("<p style='color:#8a5300'>⚠ rank %1, line %2: %3</p>")
                    .arg(w.rank)
                    .arg(w.line)
                    .arg(escEngine(w.message));
    if (f.hasEvents)
        // Up to where a failed or hung run stopped, too. A real-scale cost model's ticks and a
        // real run's are microseconds: their times in ms, as the timeline's axis says them.
        html += rankTimeHtml(
            trace, realRun || trace.config.cost.realScale() ? QStringLiteral("ms") : QString());
    return html;
}

ResultsPanel::ResultsPanel(RunSession &session, QWidget *parent)
    : QWidget(parent), m_session(session), m_label(new QLabel(this))
{
    m_label->setObjectName(QStringLiteral("resultsText"));
    m_label->setWordWrap(true);
    m_label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setMargin(8);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_label);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    connect(&m_session, &RunSession::lessonChanged, this, &ResultsPanel::onLessonChanged);
    connect(&m_session, &RunSession::traceChanged, this, [this] {
        const TracePtr &trace = m_session.trace();
        // Nothing to show: what the panel says stays (a stop, a failure, the lesson's targets).
        // The run on real processes, and the simulation shown again after it, are the For real
        // tab's and the timeline's: the panel keeps the results of the simulated run.
        const RealRunOutcome *real = m_session.realRun().get();
        if (!trace || trace == m_shown || (real && trace == real->trace)) {
            if (!trace)
                m_shown = nullptr;
            return;
        }
        m_shown = trace;
        showRun();
    });
    connect(&m_session, &RunSession::verdictChanged, this, [this] {
        if (m_session.verdict() && m_shown && m_session.trace() == m_shown)
            showRun();
    });
    if (m_session.lesson())
        onLessonChanged();
    else
        showMessage(tr("Press <b>Run</b> (F5) to simulate your code."));
}

void ResultsPanel::onLessonChanged()
{
    const lessons::Lesson *lesson = m_session.lesson();
    if (lesson && lesson->isTorch()) {
        // A PyTorch lesson's Run trains on real processes: nothing is simulated.
        showMessage(lesson->config.ranks > 1
                        ? tr("<p>Press <b>Run</b> (F5) to train your code on %1 real processes."
                             "</p>")
                              .arg(lesson->config.ranks)
                        : tr("<p>Press <b>Run</b> (F5) to train your code in a real process.</p>"));
        return;
    }
    showMessage(targetsHtml() + tr("<p>Press <b>Run</b> (F5) to simulate your code.</p>"));
}

QString ResultsPanel::targetsHtml() const
{
    const lessons::Lesson *lesson = m_session.lesson();
    if (!lesson || !lesson->targets)
        return {};
    QString html = tr("<p><b>Targets</b><br>Timesteps at most %1<br>Maximum memory at most %2</p>")
                       .arg(QString::fromStdString(lesson->targets->time.toString()))
                       .arg(exactMemory(lesson->targets->memory));
    if (lesson->notebookTargets)
        html += tr("<p><small>The notebook's rounded targets: %1 steps, %2.</small></p>")
                    .arg(QString::fromStdString(lesson->notebookTargets->time.toString()))
                    .arg(exactMemory(lesson->notebookTargets->memory));
    return html;
}

// The verdict is the session's once the run is judged; until then (and for a run nobody grades:
// a what-if setting, a demonstration's run) the run is judged here, as the learner reads it.
void ResultsPanel::showRun()
{
    // A run on real processes opened from a file (its report or profile) is not the lesson's.
    const bool real = m_session.units() == TraceUnits::Seconds && m_session.trace() == m_shown &&
                      !m_shown->config.cost.realScale();
    // Nor is a run read from a file: its program may be anything, whatever function it names.
    const bool opened = m_session.openedFromFile() && m_session.trace() == m_shown;
    QString html;
    if (opened && m_session.lesson())
        html += openedNotGradedHtml(*m_shown, real);
    html += resultsHtml(real || opened ? nullptr : m_session.lesson(), *m_shown,
                        opened ? std::nullopt : m_session.verdict(), real);
    const QString &output = m_session.output();
    // Wrapped at the panel's width: a long printed line ran past its edge, behind a sideways
    // scroll bar (the walk-through prints a refused update's sentence).
    if (!output.trimmed().isEmpty())
        html += QStringLiteral("<p><b>%1</b></p><pre style=\"white-space: pre-wrap\">%2</pre>")
                    .arg(tr("Your code printed:"), output.right(4000).toHtmlEscaped());
    m_label->setText(html);
}

void ResultsPanel::showMessage(const QString &text)
{
    m_label->setText(text);
}

int ResultsPanel::headHeight() const
{
    // The verdict (large), Timesteps and Maximum memory, the line saying where the peak was,
    // and the paragraphs' and the label's margins.
    const QFontMetrics metrics(m_label->font());
    return int(std::ceil(metrics.lineSpacing() * (1.4 + 2 * 1.15 + 1 + 1.2))) +
           2 * m_label->margin() + 4;
}

QString ResultsPanel::text() const
{
    QTextDocument doc;
    doc.setHtml(m_label->text());
    return doc.toPlainText();
}

} // namespace rankstep::gui
