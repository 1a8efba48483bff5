// SPDX-License-Identifier: MIT
#include "losschart.h"

#include "appearance.h"
#include "runsession.h"

#include <QChart>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QPen>
#include <QRegularExpression>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rankstep::gui {

QString referenceName(const std::string &check)
{
    if (check == "amp")
        return QObject::tr("the fp32 loop");
    if (check == "ddp" || check == "ddp_accum" || check == "zero" || check == "fsdp")
        return QObject::tr("one process, every rank's batches");
    if (check == "checklist")
        return QObject::tr("the checklist's loop");
    return QObject::tr("the plain loop");
}

QString torchLessonHtml(int exitCode, const QString &output, const io::TorchLessonReport *report)
{
    constexpr int kTorchMissing = 69; // rankstep-cli's exit code without PyTorch
    if (!report) {
        const QString head = exitCode == kTorchMissing
                                 ? QObject::tr(
                                       "PyTorch is missing. On Debian 12: sudo apt-get install "
                                       "python3-torch. The simulated lessons work without it.")
                             : exitCode == 2 ? QObject::tr("Your code raised an error:")
                             : exitCode == 4 ? QObject::tr("Stopped:")
                                             : QObject::tr("The run did not finish:");
        return QStringLiteral("<p><b>%1</b></p><pre>%2</pre>")
            .arg(head.toHtmlEscaped(), output.trimmed().toHtmlEscaped());
    }
    QString html = report->solved ? QObject::tr("<p><b>Solved!</b> Trained for real in %1 s.</p>")
                                        .arg(report->wallSeconds, 0, 'f', 1)
                                  : QObject::tr("<p><b>Not solved yet.</b></p>");
    html += QStringLiteral("<table cellspacing=\"2\">");
    for (const io::TorchCheck &check : report->checks)
        html += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td><td>%3</td></tr>")
                    .arg(check.passed ? QStringLiteral("✓") : QStringLiteral("✗"),
                         QString::fromStdString(check.name).toHtmlEscaped(),
                         QString::fromStdString(check.message).toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

QString legendHtml(const QList<QAbstractSeries *> &series)
{
    QStringList entries;
    for (const QAbstractSeries *each : series) {
        const auto *line = qobject_cast<const QLineSeries *>(each);
        if (!line)
            continue;
        const QPen pen = line->pen();
        // The curve's look in its color: solid, dashed or dotted (box-drawing dashes).
        const QString glyph = pen.style() == Qt::DashLine  ? QStringLiteral("╍╍")
                              : pen.style() == Qt::DotLine ? QStringLiteral("┉┉")
                                                           : QStringLiteral("━━");
        entries << QStringLiteral(
                       "<span style=\"white-space:nowrap\"><span style=\"color:%1\">"
                       "%2</span>&nbsp;%3</span>")
                       .arg(pen.color().name(), glyph,
                            line->name().toHtmlEscaped().replace(QLatin1Char(' '),
                                                                 QStringLiteral("&nbsp;")));
    }
    return entries.join(QStringLiteral(" &nbsp; "));
}

int rankErrorLine(const QString &output)
{
    static const QRegularExpression error(QStringLiteral("^Error \\(rank \\d+, line (\\d+)\\)"),
                                          QRegularExpression::MultilineOption);
    const QRegularExpressionMatch match = error.match(output);
    return match.hasMatch() ? match.captured(1).toInt() : 0;
}

LossChart::LossChart(const RunSession &session, const Appearance &appearance, QWidget *parent)
    : QChartView(parent)
    , m_session(session)
    , m_appearance(appearance)
    , m_look(appearance.look())
    , m_steps(new QValueAxis)
    , m_loss(new QValueAxis)
    , m_norm(new QValueAxis)
    , m_legend(new QLabel(this))
{
    auto *chart = new QChart;
    // Qt's legend keeps to one row and cuts the names that do not fit (presenting, at 150 %):
    // a label above the chart wraps between entries instead.
    chart->legend()->hide();
    m_legend->setObjectName(QStringLiteral("lossLegend"));
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_legend->setMargin(6);
    m_steps->setTitleText(tr("step"));
    m_steps->setLabelFormat(QStringLiteral("%.0f")); // a double axis: "%d" prints nothing useful
    m_loss->setTitleText(tr("loss"));
    m_loss->setLabelFormat(QStringLiteral("%.2f"));
    chart->addAxis(m_steps, Qt::AlignBottom);
    chart->addAxis(m_loss, Qt::AlignLeft);
    m_norm->setTitleText(tr("gradient norm"));
    m_norm->setLabelFormat(QStringLiteral("%.1f"));
    chart->addAxis(m_norm, Qt::AlignRight);
    setChart(chart);
    m_legend->raise(); // over the chart's view
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(160);
    setAccessibleName(tr("Loss curve"));
    connect(&session, &RunSession::lessonReportChanged, this, &LossChart::rebuild);
    connect(&appearance, &Appearance::lookChanged, this, [this] {
        m_look = m_appearance.look();
        rebuild();
    });
    rebuild();
}

// The legend over the chart's top margin, as high as its lines need at the view's width (the
// chart fills the whole view: QChartView sizes it so).
void LossChart::placeLegend()
{
    const int height = m_legend->text().isEmpty() ? 0 : m_legend->heightForWidth(width());
    m_legend->setGeometry(0, 0, width(), height);
    m_legend->setVisible(height > 0);
    chart()->setMargins(QMargins(4, 4 + height, 8, 4));
}

void LossChart::resizeEvent(QResizeEvent *event)
{
    placeLegend();
    QChartView::resizeEvent(event);
}

QStringList LossChart::seriesSummary() const
{
    QStringList names;
    for (QAbstractSeries *series : chart()->series())
        names << QStringLiteral("%1: %2")
                     .arg(series->name())
                     .arg(static_cast<QLineSeries *>(series)->count());
    return names;
}

void LossChart::rebuild()
{
    QChart *chart = this->chart();
    chart->removeAllSeries();
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * m_look.zoom);
    m_legend->setFont(font);
    m_norm->hide();
    for (QValueAxis *axis : {m_steps, m_loss, m_norm}) {
        axis->setLabelsFont(font);
        axis->setTitleFont(font);
    }
    const io::TorchLessonReport *report = m_session.lessonReport();
    if (!report) {
        chart->setTitle(tr("Run your code to see its loss curve"));
        m_steps->setRange(0, 1);
        m_loss->setRange(0, 1);
        m_legend->clear();
        placeLegend();
        return;
    }
    chart->setTitle({});
    double lowest = std::numeric_limits<double>::infinity(), highest = 0;
    int steps = 1;
    const auto add = [&](const QString &name, const std::vector<double> &losses, QPen pen) {
        auto *series = new QLineSeries;
        series->setName(name);
        for (std::size_t i = 0; i < losses.size(); ++i) {
            if (!std::isfinite(losses[i]))
                continue; // a diverged step: the curve stops there
            series->append(double(i + 1), losses[i]);
            lowest = std::min(lowest, losses[i]);
            highest = std::max(highest, losses[i]);
        }
        steps = std::max(steps, int(losses.size()));
        series->setPen(pen);
        chart->addSeries(series);
        series->attachAxis(m_steps);
        series->attachAxis(m_loss);
    };
    const double width = m_look.scaled(2.0);
    // The reference first, so that the learner's curves draw over it where they coincide.
    if (!report->referenceLosses.empty())
        add(referenceName(report->check), report->referenceLosses,
            QPen(palette().color(QPalette::WindowText), width * 0.75, Qt::DashLine));
    const std::size_t ranks = report->ranks.size();
    for (const io::TorchRankLosses &rank : report->ranks)
        add(ranks == 1 ? tr("your loop") : tr("rank %1").arg(rank.rank), rank.losses,
            QPen(m_look.colors().rank(rank.rank), width));
    // Where a fresh model should start: every token equally likely.
    const double uniform = report->expectedInitLoss;
    auto *guess = new QLineSeries;
    guess->setName(
        tr("ln %1 = %2: a uniform guess").arg(qRound(std::exp(uniform))).arg(uniform, 0, 'f', 2));
    guess->append(1, uniform);
    guess->append(steps, uniform);
    guess->setPen(QPen(palette().color(QPalette::PlaceholderText), width * 0.75, Qt::DotLine));
    chart->addSeries(guess);
    guess->attachAxis(m_steps);
    guess->attachAxis(m_loss);
    highest = std::max(highest, uniform);
    lowest = std::min(lowest, uniform);
    if (!std::isfinite(lowest))
        lowest = 0;
    const double margin = std::max(0.02, (highest - lowest) * 0.08);
    m_steps->setRange(0, std::max(2, steps));
    m_steps->applyNiceNumbers(); // 0, 20, 40, ... rather than 1, 26, 51
    m_loss->setRange(std::max(0.0, lowest - margin), highest + margin);
    addGradNorms(*report, width);
    m_legend->setText(legendHtml(chart->series()));
    placeLegend();
}

// The gradient norms (before clipping) on the right-hand axis, in the color of the next rank so
// that they never read as a loss: the reference's dashed, the learner's solid, the clipping norm
// dotted. Nothing when the run logged none.
void LossChart::addGradNorms(const io::TorchLessonReport &report, double width)
{
    std::vector<std::pair<QString, const std::vector<double> *>> curves;
    if (!report.referenceGradNorms.empty())
        curves.emplace_back(tr("gradient norm, %1").arg(referenceName(report.check)),
                            &report.referenceGradNorms);
    for (const io::TorchRankLosses &rank : report.ranks)
        if (!rank.gradNorms.empty())
            curves.emplace_back(report.ranks.size() == 1
                                    ? tr("gradient norm, your loop")
                                    : tr("gradient norm, rank %1").arg(rank.rank),
                                &rank.gradNorms);
    if (curves.empty())
        return;
    QChart *chart = this->chart();
    const QColor color = m_look.colors().rank(int(report.ranks.size()));
    double highest = report.clipNorm;
    int steps = 1;
    for (std::size_t c = 0; c < curves.size(); ++c) {
        auto *series = new QLineSeries;
        series->setName(curves[c].first);
        const std::vector<double> &norms = *curves[c].second;
        for (std::size_t i = 0; i < norms.size(); ++i)
            if (std::isfinite(norms[i])) {
                series->append(double(i + 1), norms[i]);
                highest = std::max(highest, norms[i]);
            }
        steps = std::max(steps, int(norms.size()));
        const bool reference = c == 0 && !report.referenceGradNorms.empty();
        series->setPen(QPen(color, width * (reference ? 0.75 : 0.6),
                            reference ? Qt::DashLine : Qt::SolidLine));
        chart->addSeries(series);
        series->attachAxis(m_steps);
        series->attachAxis(m_norm);
    }
    if (report.clipNorm > 0) {
        auto *clip = new QLineSeries;
        clip->setName(tr("clipped to %1").arg(report.clipNorm, 0, 'g', 3));
        clip->append(1, report.clipNorm);
        clip->append(steps, report.clipNorm);
        clip->setPen(QPen(color, width * 0.6, Qt::DotLine));
        chart->addSeries(clip);
        clip->attachAxis(m_steps);
        clip->attachAxis(m_norm);
    }
    m_norm->setRange(0, highest * 1.08 + 0.01);
    m_norm->show();
}

} // namespace rankstep::gui
