// SPDX-License-Identifier: MIT
#include "realrunview.h"

#include "appearance.h"
#include "enginetext.h"
#include "runsession.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace rankstep::gui {
namespace {

struct Split {
    double compute = 0, communication = 0;
    double share() const
    {
        const double total = compute + communication;
        return total > 0 ? communication / total : 0.0;
    }
};

// Each rank's time in compute and in communication in the simulated run, in steps.
std::map<int, Split> simulatedSplit(const core::Trace &trace)
{
    std::map<int, Split> split;
    for (const core::Event &event : trace.events) {
        Split &rank = split[event.rank];
        (core::isCommunication(event.op) ? rank.communication : rank.compute) +=
            event.duration.toDouble();
    }
    return split;
}

QString percent(double share)
{
    return QStringLiteral("%1 %").arg(qRound(share * 100));
}

QString layerTable(const io::RealReport &report)
{
    QString text = QObject::tr("| layer | difference from one process | |\n| --: | --: | --- |\n");
    for (const io::RealLayer &layer : report.perLayer)
        text += QStringLiteral("| %1 | %2 | %3 |\n")
                    .arg(layer.layer)
                    .arg(layer.maxAbsDiff ? QString::number(*layer.maxAbsDiff, 'g', 3)
                                          : QObject::tr("not set"))
                    .arg(QString::fromStdString(layer.problem));
    return text;
}

QString rankTable(const io::RealReport &report, const core::Trace *simulated)
{
    const std::map<int, Split> steps =
        simulated ? simulatedSplit(*simulated) : std::map<int, Split>{};
    QString text = QObject::tr(
        "| rank | compute | comm. | comm. share | simulated |\n"
        "| --: | --: | --: | --: | --: |\n");
    for (const io::RealRankTimes &rank : report.perRank) {
        const Split real{rank.compute, rank.communication};
        const auto sim = steps.find(rank.rank);
        text += QStringLiteral("| %1 | %2 s | %3 s | %4 | %5 |\n")
                    .arg(rank.rank)
                    .arg(rank.compute, 0, 'f', 3)
                    .arg(rank.communication, 0, 'f', 3)
                    .arg(percent(real.share()))
                    .arg(sim == steps.end() ? QStringLiteral("–") : percent(sim->second.share()));
    }
    return text;
}

// Text as Markdown that shows it as it is, line for line, wrapped to the tab's width (a code
// block would not wrap): every ASCII punctuation escaped, each line ended by a hard break.
QString asMarkdownLines(const QString &text)
{
    QString out;
    for (const QChar c : text) {
        if (c == QLatin1Char('\n'))
            out += QStringLiteral("  \n");
        else if (c.unicode() < 128 && c.isPunct())
            out += QLatin1Char('\\') + c;
        else if (c.unicode() < 128 && c.isSymbol())
            out += QLatin1Char('\\') + c;
        else
            out += c;
    }
    return out;
}

} // namespace

QString realRunHeadline(const RealRunOutcome *outcome, bool running)
{
    if (running)
        return QObject::tr("Running for real…");
    if (!outcome)
        return QObject::tr("Not run for real yet.");
    if (outcome->report)
        return outcome->report->weightsMatch ? QObject::tr("Trains what one process trains.")
                                             : QObject::tr("Trains another model.");
    if (outcome->torchMissing())
        return QObject::tr("PyTorch is missing.");
    if (outcome->exitCode == 2 && outcome->output.contains(QStringLiteral("not run for real")))
        return QObject::tr("The simulator stopped it first.");
    if (outcome->exitCode == 2)
        return QObject::tr("A rank raised an error: every rank was stopped.");
    if (outcome->exitCode == 4)
        return QObject::tr("Stopped.");
    return QObject::tr("Did not finish.");
}

QString realRunMarkdown(const RealRunOutcome *outcome, const core::Trace *simulated, bool running)
{
    if (running)
        return QObject::tr(
            "Running for real: one process per rank trains real tensors through PyTorch's "
            "torch.distributed. The simulation runs first; then each process loads PyTorch, which "
            "takes a few seconds.");
    if (!outcome)
        return QObject::tr(
            "**Run for real** (Ctrl+F5) runs your code on real processes: each rank is a process "
            "that trains a real model (each layer a linear layer on real tensors) and talks to the "
            "others through PyTorch's torch.distributed. Afterwards the ranks' weights, put "
            "together, are compared with one process trained on every batch: a correct "
            "program trains exactly the same model.\n\nIt needs PyTorch (Debian: python3-torch).");
    if (outcome->torchMissing())
        return QObject::tr(
            "PyTorch is not installed, so nothing can run for real. On Debian 12: `sudo apt-get "
            "install python3-torch` (or `scripts/setup-deps.sh`), then press Ctrl+F5 again. "
            "Everything else in Rankstep works without it.");
    if (!outcome->report)
        return QObject::tr("The real run did not get to the end. What it said:\n\n%1")
            .arg(asMarkdownLines(engineText(outcome->output.trimmed())));
    const io::RealReport &report = *outcome->report;
    QString text;
    if (report.weightsMatch) {
        const QString whose =
            report.ranks == 1
                ? QObject::tr("The weights of the one rank")
                : QObject::tr("The weights of the %1 ranks, put together,").arg(report.ranks);
        text += QObject::tr(
                    "%1 match one process trained on every batch: the largest "
                    "difference is %2, rounding.")
                    .arg(whose)
                    .arg(report.maxAbsDiff, 0, 'g', 3);
    } else {
        text += QObject::tr(
                    "Layer %1 is the first that differs from one process trained on "
                    "every batch: this program trains another model, even where the "
                    "simulator found nothing wrong.")
                    .arg(report.firstWrongLayer.value_or(0));
    }
    text += QStringLiteral("\n\n") + rankTable(report, simulated);
    text += QObject::tr(
        "\nSeconds of each rank in compute (forward, backward, loss, update) and in "
        "communication (collectives and messages, waiting for the others included), and the "
        "share of communication beside the simulated run's. The notebook's costs put a "
        "collective at 0.3 of a forward: the last two columns show how far that holds here.\n\n");
    text += layerTable(report);
    text += QObject::tr(
                "\n%1 ranks, %2 layers, %3 batches; HIDDEN %4, LENGTH %5; %6 s in all, "
                "%7 s for the ranks after PyTorch loaded.\n")
                .arg(report.ranks)
                .arg(report.layers)
                .arg(report.batches)
                .arg(report.hidden)
                .arg(report.length)
                .arg(outcome->seconds, 0, 'f', 1)
                .arg(report.wallSeconds, 0, 'f', 1);
    return text;
}

RealRunView::RealRunView(RunSession &session, Appearance &appearance, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_verdict(new QLabel)
    , m_run(new QPushButton(tr("Run for real")))
    , m_show(new QToolButton)
    , m_page(new QTextBrowser)
{
    setAccessibleName(tr("For real"));
    setAccessibleDescription(tr("The last run of the code on real processes and its verdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_run->setToolTip(tr("Ctrl+F5: run this code on one real process per rank (PyTorch)"));
    connect(m_run, &QPushButton::clicked, this, &RealRunView::realRunRequested);
    m_page->setOpenLinks(false);
    auto *top = new QHBoxLayout;
    top->addWidget(m_verdict, 1);
    top->addWidget(m_show, 0, Qt::AlignTop);
    top->addWidget(m_run, 0, Qt::AlignTop);
    m_show->hide(); // until the window gives it its action
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_page, 1);
    connect(&m_session, &RunSession::realRunChanged, this, &RealRunView::update);
    connect(&m_session, &RunSession::traceChanged, this, &RealRunView::update);
    connect(&m_session, &RunSession::comparisonChanged, this, &RealRunView::update);
    connect(&appearance, &Appearance::lookChanged, this, &RealRunView::update);
    update();
}

void RealRunView::setShowAction(QAction *action)
{
    m_show->setDefaultAction(action);
    m_show->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_show->show();
}

QString RealRunView::text() const
{
    return m_verdict->text() + QLatin1Char('\n') + m_page->toPlainText();
}

void RealRunView::update()
{
    const RealRunOutcome *outcome = m_session.realRun().get();
    const bool running = m_session.realRunInProgress();
    m_run->setEnabled(!running);
    const QString verdict = realRunHeadline(outcome, running);
    m_verdict->setText(QStringLiteral("<b>%1</b>").arg(verdict.toHtmlEscaped()));
    // The simulated run: the session's own, or its second trace while the real one is shown.
    const bool realShown = m_session.units() == TraceUnits::Seconds;
    const core::Trace *simulated =
        realShown ? m_session.comparison().get() : m_session.trace().get();
    m_page->setMarkdown(realRunMarkdown(outcome, simulated, running));
}

} // namespace rankstep::gui
