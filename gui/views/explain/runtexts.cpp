// SPDX-License-Identifier: MIT
#include "runtexts.h"

#include "enginetext.h"
#include "explainview.h"

#include "core/explain/describe.h"
#include "core/explain/expertload.h"
#include "core/explain/explainsentences.h"
#include "core/explain/formulas.h"
#include "core/explain/memoryexplain.h"
#include "core/explain/timesplit.h"
#include "core/trace.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace rankstep::gui {
namespace {

// A whole share's bar, in no-break spaces: with 40, a bar of half the time made the split's table
// wider than the Why tab's pane at 1280x800.
constexpr double kBarSpaces = 24;

// Each parallelism's communication in words.
QString axisCommunication(const std::string &axis)
{
    if (axis == "tensor")
        return ExplainView::tr("tensor-parallel communication");
    if (axis == "context")
        return ExplainView::tr("context-parallel communication");
    if (axis == "pipeline")
        return ExplainView::tr("pipeline communication");
    if (axis == "data")
        return ExplainView::tr("data-parallel communication");
    if (axis == "expert")
        return ExplainView::tr("expert-parallel communication");
    return QString::fromStdString(axis);
}

// A laid-out run's time split as a table: each part's mean time a rank, its share and a bar as
// long as the share (no-break spaces: rich text folds others), compute first and the bubble last.
QString timeSplitTable(const explain::TimeSplit &split, bool seconds)
{
    std::vector<std::pair<QString, core::SimTime>> parts = {
        {ExplainView::tr("compute"), split.compute}};
    for (std::size_t i = 0; i < core::kAxes.size(); ++i)
        if (split.axes[i].ticks() > 0)
            parts.emplace_back(axisCommunication(core::axisName(core::kAxes[i])), split.axes[i]);
    if (split.other.ticks() > 0)
        parts.emplace_back(ExplainView::tr("other communication"), split.other);
    parts.emplace_back(
        split.pipelined ? ExplainView::tr("bubble (idle)") : ExplainView::tr("waiting (idle)"),
        split.idle);
    std::int64_t whole = 0;
    for (const auto &part : parts)
        whole += part.second.ticks();
    const double ranks = std::max(1, split.ranks);
    QString html = QStringLiteral("<b>%1</b><table cellspacing=\"0\" cellpadding=\"2\">")
                       .arg(ExplainView::tr("A rank's mean time by parallelism"));
    for (const auto &[name, time] : parts) {
        const double share = whole > 0 ? double(time.ticks()) / double(whole) : 0.0;
        const double mean = double(time.ticks()) / ranks;
        const QString value =
            seconds ? ExplainView::tr("%1 s").arg(mean / core::kRealTicksPerSecondOfCost, 0, 'f', 3)
                    : QString::number(mean / double(core::SimTime::steps(1).ticks()), 'f', 1);
        html += QStringLiteral(
                    "<tr><td>%1</td><td align=\"right\">&nbsp;%2</td>"
                    "<td align=\"right\">&nbsp;%3%</td><td>&nbsp;<span "
                    "style=\"background-color:#5b7fbf\">%4</span></td></tr>")
                    .arg(name, value)
                    .arg(share * 100, 0, 'f', 1)
                    .arg(QString(std::max(1, int(std::lround(share * kBarSpaces))), QChar(0x00A0)));
    }
    return html + QStringLiteral("</table>");
}

// The experts' load as a table: each expert's tokens with a bar as long as its share, its ranks
// and their mean idle time, so that an uneven router's waiting stands beside its cause.
QString expertLoadTable(const explain::ExpertLoad &load, bool seconds)
{
    QString html =
        QStringLiteral("<b>%1</b>")
            .arg(load.skew > 0
                     ? ExplainView::tr("The experts' load (router skew %1)").arg(load.skew)
                     : ExplainView::tr("The experts' load"));
    html += QStringLiteral(
                "<table cellspacing=\"0\" cellpadding=\"2\"><tr><th "
                "align=\"left\">%1</th><th align=\"right\">&nbsp;%2</th><th></th><th "
                "align=\"left\">&nbsp;%3</th><th align=\"right\">&nbsp;%4</th></tr>")
                .arg(ExplainView::tr("Expert"), ExplainView::tr("Tokens"), ExplainView::tr("Ranks"),
                     ExplainView::tr("Idle (mean)"));
    const std::size_t shown = std::min<std::size_t>(load.experts.size(), 16);
    for (std::size_t e = 0; e < shown; ++e) {
        const explain::ExpertShare &share = load.experts[e];
        const double part = load.batches > 0 ? double(share.tokens) / load.batches : 0.0;
        const QString idle =
            seconds ? ExplainView::tr("%1 s").arg(
                          share.idle.toDouble() / core::kRealTicksPerSecondOfCost, 0, 'f', 3)
                    : QString::fromStdString(share.idle.toString());
        QStringList ranks; // "0, 2": plain numbers, as the ranks' table has them
        for (int rank : share.ranks)
            ranks << QString::number(rank);
        html += QStringLiteral(
                    "<tr><td>%1</td><td align=\"right\">&nbsp;%2</td><td>&nbsp;<span "
                    "style=\"background-color:#5b7fbf\">%3</span></td><td>&nbsp;%4</td>"
                    "<td align=\"right\">&nbsp;%5</td></tr>")
                    .arg(share.expert)
                    .arg(share.tokens)
                    .arg(QString(std::max(1, int(std::lround(part * kBarSpaces))), QChar(0x00A0)))
                    .arg(ranks.join(QStringLiteral(", ")), idle);
    }
    html += QStringLiteral("</table>");
    if (shown < load.experts.size())
        html += ExplainView::tr("and %n more expert(s)", nullptr, int(load.experts.size() - shown));
    return html;
}

// The event at the memory peak: its rank's, at its time, with its memory.
std::optional<std::size_t> peakEventOf(const core::Trace &trace)
{
    for (std::size_t i = 0; i < trace.events.size() && trace.figures.hasEvents; ++i) {
        const core::Event &e = trace.events[i];
        if (e.rank == trace.figures.maxMemoryRank && e.start == trace.figures.maxMemoryTime &&
            e.memory == trace.figures.maxMemory)
            return i;
    }
    return std::nullopt;
}

QString peakText(const core::Trace &trace, std::optional<std::size_t> peakEvent,
                 std::optional<std::int64_t> memoryTarget)
{
    if (!peakEvent)
        return ExplainView::tr(
            "No operation took simulated time, so nothing was held at any event.");
    const explain::MemoryMoment moment = explain::memoryAtEvent(trace, *peakEvent);
    QString peak = QString::fromStdString(
        explain::describeMoment(moment, explain::sentence::kPeak, engineWords()));
    if (const std::string device = explain::describeDeviceFit(trace, moment.bytes, engineWords());
        !device.empty())
        peak += QStringLiteral("\n") + QString::fromStdString(device);
    if (memoryTarget) {
        const std::string over =
            explain::describeOverTarget(trace, moment, *memoryTarget, engineWords());
        if (!over.empty())
            peak += QStringLiteral("\n") + QString::fromStdString(over);
    }
    return peak;
}

} // namespace

RunTexts explainRun(const TracePtr &trace, std::optional<lessons::Parallelism> parallelism,
                    std::optional<std::int64_t> memoryTarget)
{
    RunTexts texts;
    if (!trace) {
        texts.peak = ExplainView::tr("Run your code to see what fills each rank's memory.");
        return texts;
    }
    texts.peakEvent = peakEventOf(*trace);
    texts.peak = peakText(*trace, texts.peakEvent, memoryTarget);
    if (trace->status != core::RunStatus::Ok)
        texts.peak =
            ExplainView::tr("The run did not finish: this explains it up to where it stopped.\n") +
            texts.peak;
    if (parallelism)
        texts.formula = QString::fromStdString(
            explain::lessonFormulaSentence(*trace, *parallelism, engineWords()));
    const bool seconds = trace->config.cost.realScale();
    if (const auto split = explain::timeSplit(*trace))
        texts.split = timeSplitTable(*split, seconds);
    if (const auto load = explain::expertLoad(*trace))
        texts.experts = expertLoadTable(*load, seconds);
    return texts;
}

} // namespace rankstep::gui
