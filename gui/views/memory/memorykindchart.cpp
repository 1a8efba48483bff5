// SPDX-License-Identifier: MIT
#include "memorykindchart.h"

#include "kindcolors.h"
#include "memoryseries.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLineSeries>
#include <QResizeEvent>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {
namespace {

constexpr double kTitleLines = 10.0; // the chart's least height, in label lines, for the title
constexpr double kLabelLines = 6.0;  // and for the time labels

} // namespace

QString kindShortName(core::ObjectKind kind)
{
    switch (kind) {
        case core::ObjectKind::Weight:
            return QObject::tr("weights");
        case core::ObjectKind::OptState:
            return QObject::tr("opt. states");
        case core::ObjectKind::Activation:
            return QObject::tr("activations");
        case core::ObjectKind::ActivationGrad:
            return QObject::tr("act. grads");
        case core::ObjectKind::WeightGrad:
            return QObject::tr("weight grads");
        case core::ObjectKind::KeysValues:
            return QObject::tr("keys & values");
    }
    return {};
}

int stackedKindCount(const core::Trace &trace)
{
    const bool keysValues = trace.changes.anyObject(
        [](const core::Object &object) { return object.kind == core::ObjectKind::KeysValues; });
    return keysValues ? core::kObjectKindCount : int(core::ObjectKind::KeysValues);
}

std::vector<QList<QPointF>> stackedKindEdges(const std::vector<explain::KindSample> &samples,
                                             core::SimTime end, std::int64_t &highest)
{
    std::vector<QList<QPointF>> points(core::kObjectKindCount);
    highest = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const double from = samples[i].time.toDouble();
        const double to = i + 1 < samples.size() ? samples[i + 1].time.toDouble() : end.toDouble();
        std::int64_t stacked = 0;
        for (int kind = 0; kind < core::kObjectKindCount; ++kind) {
            stacked += samples[i].byKind.bytes[std::size_t(kind)];
            points[std::size_t(kind)] << QPointF(from, double(stacked))
                                      << QPointF(to, double(stacked));
        }
        highest = std::max(highest, stacked);
    }
    return points;
}

std::vector<explain::KindSample> bucketSamples(const std::vector<explain::KindSample> &samples,
                                               core::SimTime end, int maxBuckets)
{
    if (int(samples.size()) <= maxBuckets || end.ticks() <= 0)
        return samples;
    std::vector<explain::KindSample> kept;
    kept.reserve(std::size_t(maxBuckets) + 1);
    std::int64_t bucket = -1;
    for (const explain::KindSample &sample : samples) {
        const std::int64_t b =
            std::min<std::int64_t>(maxBuckets - 1, sample.time.ticks() * maxBuckets /
                                                       std::max<std::int64_t>(end.ticks(), 1));
        if (b != bucket || kept.empty()) {
            kept.push_back(sample);
            bucket = b;
        } else if (sample.byKind.total() > kept.back().byKind.total()) {
            const core::SimTime first = kept.back().time; // the bucket keeps its first time
            kept.back() = sample;
            kept.back().time = first;
        }
    }
    return kept;
}

void MemoryKindChart::setTimeUnit(const QString &unit)
{
    m_x->setTitleText(tr("time (%1)").arg(unit));
}

QString MemoryKindChart::timeTitle() const
{
    return m_x->titleText();
}

MemoryKindChart::MemoryKindChart(QWidget *parent)
    : QChartView(parent), m_x(new QValueAxis), m_y(new QCategoryAxis), m_cursor(new QLineSeries)
{
    auto *chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->hide(); // legendText() below the chart wraps where the legend elided
    setTimeUnit(QCoreApplication::translate("TimeUnit", "steps"));
    m_x->setLabelFormat(QStringLiteral("%.10g"));                     // 2000000, not 2e+06
    m_y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue); // "2 MB" at 2 MB
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    QLineSeries *lower = nullptr;
    for (int kind = 0; kind < core::kObjectKindCount; ++kind) {
        auto *upper = new QLineSeries(chart);
        auto *area = new QAreaSeries(upper, lower);
        area->setName(kindShortName(core::ObjectKind(kind)));
        chart->addSeries(area);
        area->attachAxis(m_x);
        area->attachAxis(m_y);
        m_uppers.push_back(upper);
        m_areas.push_back(area);
        lower = upper;
    }
    m_cursor->setPen(QPen(palette().color(QPalette::WindowText), 1.5, Qt::DashLine));
    chart->addSeries(m_cursor);
    m_cursor->attachAxis(m_x);
    m_cursor->attachAxis(m_y);
    setChart(chart);
    setColors(Palette::of(Palette::Scheme::Standard));
    chart->setMinimumSize(0, 0); // the pane's height, not the chart's wish, sizes it
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(200, 80); // narrow, short panes (1280x800 presenting) shrink it, never scroll it
}

void MemoryKindChart::setSamples(const std::vector<explain::KindSample> &samples, core::SimTime end,
                                 std::vector<Reference> references)
{
    const std::vector<QList<QPointF>> points =
        stackedKindEdges(bucketSamples(samples, end, kMaxBuckets), end, m_highest);
    for (int kind = 0; kind < core::kObjectKindCount; ++kind)
        m_uppers[std::size_t(kind)]->replace(points[std::size_t(kind)]);
    for (QLineSeries *line : m_references) {
        chart()->removeSeries(line);
        delete line;
    }
    m_references.clear();
    std::int64_t top = m_highest;
    for (const Reference &reference : references) {
        auto *line = new QLineSeries;
        line->setName(reference.label);
        line->setPen(QPen(Qt::black, 1.5, Qt::DotLine));
        line->append(0, double(reference.bytes));
        line->append(end.toDouble(), double(reference.bytes));
        chart()->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        m_references.push_back(line);
        top = std::max(top, reference.bytes);
    }
    const double right = std::max(end.toDouble(), 1e-3);
    // Round tick steps (1, 2 or 5 times a power of ten), about five per axis whatever the range.
    // The interval before the range: a wide range at the old, narrow interval would make
    // millions of tick items at once (a freeze once seen after big runs).
    m_x->setTickType(QValueAxis::TicksFixed);
    m_x->setTickInterval(niceStep(right / 5));
    m_x->setRange(0, right);
    m_x->setTickAnchor(0);
    m_x->setTickType(QValueAxis::TicksDynamic);
    m_top = std::max<std::int64_t>(top, 1);
    applyMemoryAxis();
}

void MemoryKindChart::applyMemoryAxis()
{
    // As many labels as Qt Charts draws whole: it gives each the plot's height divided by the
    // labels (plus one), less twice its padding, and elides a label taller than that to "…".
    constexpr double kLabelPadding = 4.0; // Qt Charts' ChartAxisElement::labelPadding()
    // The plot is the view's height less the time axis' labels and title and the margins (the
    // chart's own plot area is the last layout's, stale in a resize).
    const double labelHeight = QFontMetricsF(m_y->labelsFont()).height();
    const double plotHeight = height() - (3.0 * labelHeight + 20.0);
    const int labels = int(plotHeight / (labelHeight + 2 * kLabelPadding + 1.0)) - 1;
    const std::vector<std::int64_t> ticks = memoryTicks(
        std::llround(double(m_top) * 1.08), std::clamp(labels - 1, 1, 5)); // n ticks: n+1 slots
    for (const QString &label : m_y->categoriesLabels())
        m_y->remove(label);
    for (const std::int64_t tick : ticks)
        m_y->append(formatMemory(tick), double(tick));
    m_y->setRange(0, double(ticks.back()));
}

void MemoryKindChart::resizeEvent(QResizeEvent *event)
{
    // Qt Charts cuts what a short chart cannot hold to "...": under about ten lines the time
    // axis' title goes, under about six its labels too (the timeline below has the times). At
    // 1920x1080 the Why tab's chart, 115 pixels high, read "..." under every tick.
    const double line = QFontMetricsF(m_x->labelsFont()).height();
    m_x->setTitleVisible(height() >= kTitleLines * line);
    m_x->setLabelsVisible(height() >= kLabelLines * line);
    QChartView::resizeEvent(event);
    applyMemoryAxis(); // as many labels as now fit
}

QStringList MemoryKindChart::memoryLabels() const
{
    return m_y->categoriesLabels();
}

void MemoryKindChart::setCursorTime(std::optional<core::SimTime> time)
{
    m_cursor->clear();
    if (time)
        m_cursor->append({QPointF(time->toDouble(), 0), QPointF(time->toDouble(), m_y->max())});
}

void MemoryKindChart::setColors(const Palette &palette)
{
    for (std::size_t kind = 0; kind < m_areas.size(); ++kind) {
        const auto objectKind = core::ObjectKind(kind);
        m_areas[kind]->setBrush(kindBrush(objectKind, palette));
        m_areas[kind]->setPen(QPen(kindColor(objectKind, palette).darker(160), 1));
    }
}

QString MemoryKindChart::legendText(const Palette &palette, int side)
{
    QString html;
    for (int kind = 0; kind < core::kObjectKindCount; ++kind)
        html += QStringLiteral("%1&nbsp;%2 &nbsp; ")
                    .arg(kindSwatchHtml(core::ObjectKind(kind), side, palette),
                         kindPlural(core::ObjectKind(kind)).toHtmlEscaped());
    return html + QObject::tr("&#8942;&nbsp;dotted: the target, the model's state");
}

int MemoryKindChart::pointCount() const
{
    return int(m_uppers.front()->count());
}

double niceStep(double rough)
{
    if (!(rough > 0) || !std::isfinite(rough))
        return 1.0;
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    for (const double factor : {1.0, 2.0, 5.0})
        if (factor * power >= rough)
            return factor * power;
    return 10.0 * power;
}

} // namespace rankstep::gui
