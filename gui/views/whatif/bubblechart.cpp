// SPDX-License-Identifier: MIT
#include "bubblechart.h"

#include "appearance.h"

#include <QChart>
#include <QCoreApplication>
#include <QFileInfo>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

namespace rankstep::gui {
namespace {

// A schedule as the papers name it.
QString scheduleTitle(const io::SweepPipeline &pipeline)
{
    if (pipeline.schedule == "gpipe")
        return QStringLiteral("GPipe");
    if (pipeline.schedule == "1f1b")
        return QStringLiteral("1F1B");
    if (pipeline.schedule == "interleaved_1f1b")
        return QCoreApplication::translate("rankstep::gui::BubbleChart",
                                           "Interleaved 1F1B (v = %1)")
            .arg(pipeline.virtualStages);
    if (pipeline.schedule == "zero_bubble")
        return QCoreApplication::translate("rankstep::gui::BubbleChart", "Zero bubble (ZB-H1)");
    return QString::fromStdString(pipeline.schedule);
}

// "(p-1)/(v*m)" as a person writes it: "(p−1)/(v·m)".
QString formulaTitle(const std::string &formula)
{
    return QString::fromStdString(formula)
        .replace(QLatin1Char('*'), QChar(0x00B7))
        .replace(QLatin1Char('-'), QChar(0x2212));
}

} // namespace

QString programTitle(const std::string &text)
{
    const QString program = QString::fromStdString(text);
    const qsizetype colon = program.lastIndexOf(QLatin1Char(':'));
    if (colon > 0 && !program.mid(colon + 1).contains(QLatin1Char('/')))
        return program.mid(colon + 1);
    return QFileInfo(program).fileName();
}

std::vector<BubbleCurve> bubbleCurves(const std::vector<io::SweepRow> &rows)
{
    std::vector<BubbleCurve> curves;
    for (const io::SweepRow &row : rows) {
        const QString program = QString::fromStdString(row.program);
        auto curve = std::find_if(curves.begin(), curves.end(),
                                  [&](const BubbleCurve &c) { return c.program == program; });
        if (curve == curves.end()) {
            curves.push_back({program, {}, {}, {}, {}, {}});
            curve = curves.end() - 1;
        }
        if (!row.pipeline || !row.finished())
            continue;
        const io::SweepPipeline &pipeline = *row.pipeline;
        if (curve->schedule.isEmpty()) {
            curve->schedule = QString::fromStdString(pipeline.schedule);
            curve->name = scheduleTitle(pipeline);
            curve->formulaName = formulaTitle(pipeline.formulaText);
        }
        const double m = pipeline.microBatches;
        curve->measured.emplace_back(m, 100.0 * pipeline.measured);
        curve->formula.emplace_back(m, 100.0 * pipeline.formula);
    }
    // Two programs of one schedule (the learner's and a solution) are told apart by program.
    std::map<QString, int> uses;
    for (const BubbleCurve &curve : curves)
        ++uses[curve.name];
    for (BubbleCurve &curve : curves) {
        if (curve.name.isEmpty())
            curve.name = programTitle(curve.program.toStdString());
        else if (uses[curve.name] > 1)
            curve.name += QStringLiteral(" (%1)").arg(programTitle(curve.program.toStdString()));
        const auto byM = [](const QPointF &a, const QPointF &b) {
            return a.x() < b.x();
        };
        std::sort(curve.measured.begin(), curve.measured.end(), byM);
        std::sort(curve.formula.begin(), curve.formula.end(), byM);
        // The legend stands beside the plot: the schedule, then its formula, in its color.
        if (!curve.formulaName.isEmpty())
            curve.formulaName =
                QCoreApplication::translate("rankstep::gui::BubbleChart", "formula %1")
                    .arg(curve.formulaName);
    }
    return curves;
}

BubbleChart::BubbleChart(Appearance &appearance, QWidget *parent)
    : QChartView(new QChart, parent)
    , m_appearance(appearance)
    , m_mAxis(new QValueAxis)
    , m_shareAxis(new QValueAxis)
{
    setObjectName(QStringLiteral("whatIfBubbleChart"));
    setAccessibleName(tr("Pipeline bubble against micro-batches, measured and by formula"));
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(100);
    chart()->setMinimumSize(0, 0);
    chart()->setMargins(QMargins(4, 4, 4, 4));
    // Beside the plot: six entries in a row would be cut short.
    chart()->legend()->setAlignment(Qt::AlignRight);
    // The long words go along the wide axis: beside the plot they were cut short when presenting.
    m_mAxis->setTitleText(tr("micro-batches m (bubble: % of ideal time)"));
    setToolTip(
        tr("Solid lines: the bubble each schedule's runs measured; dashed lines: its "
           "paper's formula. The ideal time is m micro-batches of one stage's work."));
    m_mAxis->setLabelFormat(QStringLiteral("%d"));
    m_mAxis->setTickType(QValueAxis::TicksDynamic);
    m_mAxis->setTickAnchor(0);
    m_shareAxis->setTitleText(tr("bubble %"));
    m_shareAxis->setLabelFormat(QStringLiteral("%d"));
    m_shareAxis->setTickType(QValueAxis::TicksDynamic);
    m_shareAxis->setTickAnchor(0);
    chart()->addAxis(m_mAxis, Qt::AlignBottom);
    chart()->addAxis(m_shareAxis, Qt::AlignLeft);
    connect(&m_appearance, &Appearance::lookChanged, this, &BubbleChart::rebuild);
    rebuild();
}

bool BubbleChart::hasPipelines() const
{
    return std::any_of(m_curves.begin(), m_curves.end(),
                       [](const BubbleCurve &curve) { return !curve.measured.empty(); });
}

void BubbleChart::setRows(const std::vector<io::SweepRow> &rows)
{
    m_curves = bubbleCurves(rows);
    rebuild();
}

QString legendLines(const QString &formulaName)
{
    const qsizetype space = formulaName.lastIndexOf(QLatin1Char(' '));
    if (space < 0)
        return formulaName;
    // A long formula breaks once more after its division sign: numerator, then denominator.
    QString formula = formulaName.mid(space + 1).toHtmlEscaped();
    const qsizetype slash = formula.indexOf(QLatin1Char('/'));
    if (formula.size() > 16 && slash > 0)
        formula.insert(slash + 1, QStringLiteral("<br>"));
    return formulaName.left(space).toHtmlEscaped() + QStringLiteral("<br>") + formula;
}

double roundTickStep(double end, int most)
{
    double step = 1;
    for (double decade = 1; decade < 1e12; decade *= 10)
        for (const double factor : {1.0, 2.0, 5.0}) {
            step = factor * decade;
            if (end / step <= most)
                return step;
        }
    return step;
}

void BubbleChart::rebuild()
{
    chart()->removeAllSeries();
    const Look look = m_appearance.look();
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * look.zoom);
    chart()->legend()->setFont(font);
    chart()->setTitleFont(font);
    for (QValueAxis *axis : {m_mAxis, m_shareAxis}) {
        axis->setLabelsFont(font);
        axis->setTitleFont(font);
    }
    double largestM = 1, largestShare = 10;
    int index = 0;
    for (const BubbleCurve &curve : m_curves) {
        if (curve.measured.empty())
            continue;
        const QColor color = look.colors().rank(index++);
        auto *measured = new QLineSeries;
        measured->setName(curve.name);
        measured->setPen(QPen(color, look.scaled(2.5)));
        measured->setPointsVisible(true);
        measured->setMarkerSize(look.scaled(9));
        // Drawn over the measured line, darker, so that it shows where the two agree.
        auto *formula = new QLineSeries;
        formula->setName(curve.formulaName);
        formula->setPen(QPen(color.darker(160), look.scaled(1.5), Qt::DashLine));
        for (const QPointF &point : curve.measured) {
            measured->append(point);
            largestM = std::max(largestM, point.x());
            largestShare = std::max(largestShare, point.y());
        }
        for (const QPointF &point : curve.formula) {
            formula->append(point);
            largestShare = std::max(largestShare, point.y());
        }
        for (QLineSeries *series : {measured, formula}) {
            chart()->addSeries(series);
            series->attachAxis(m_mAxis);
            series->attachAxis(m_shareAxis);
        }
        // The legend beside the plot has at most 40% of the chart's width: presenting, it cut
        // ZB-H1's formula short. The formula goes whole on a line of its own under its word.
        for (QLegendMarker *marker : chart()->legend()->markers(formula))
            marker->setLabel(legendLines(curve.formulaName));
    }
    m_mAxis->setRange(0, largestM + 1);
    m_mAxis->setTickInterval(roundTickStep(largestM + 1)); // 0, 2, ..., 16
    // A few round ticks: a short plot (presenting) elided the labels of ten.
    const double shareStep = largestShare > 120 ? 50 : 20;
    m_shareAxis->setRange(0, std::ceil(largestShare / shareStep) * shareStep);
    m_shareAxis->setTickInterval(shareStep);
}

} // namespace rankstep::gui
