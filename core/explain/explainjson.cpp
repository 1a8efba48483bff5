// SPDX-License-Identifier: MIT
#include "explainjson.h"

#include "describe.h"
#include "expertload.h"
#include "memoryexplain.h"
#include "pipelineshape.h"
#include "timesplit.h"
#include "waitexplain.h"

#include "core/attention.h"
#include "core/io/jsonwriter.h"

#include <functional>

namespace rankstep::explain {
namespace {

using io::JsonObject;

template <typename Items, typename Write>
void appendArray(std::string &out, const Items &items, Write &&write)
{
    out += '[';
    bool first = true;
    for (const auto &item : items) {
        out += first ? "\n    " : ",\n    ";
        write(item);
        first = false;
    }
    out += ']';
}

void appendKinds(std::string &out, const KindBytes &kinds)
{
    JsonObject fields(out);
    // Keys and values only where a run held some, so that every older run's JSON stays.
    for (int kind = 0; kind < core::kObjectKindCount; ++kind)
        if (kind < int(core::ObjectKind::KeysValues) || kinds.bytes[std::size_t(kind)] != 0)
            fields.integer(kindKey(core::ObjectKind(kind)), kinds.bytes[std::size_t(kind)]);
    fields.close();
}

void appendMoment(std::string &out, const MemoryMoment &moment)
{
    JsonObject fields(out);
    fields.integer("rank", moment.rank).time("time", moment.time).integer("bytes", moment.bytes);
    appendKinds(fields.open("by_kind"), moment.byKind);
    fields.string("sentence", describeMoment(moment));
    appendArray(fields.open("objects"), moment.objects, [&](const LiveObject &object) {
        JsonObject item(out);
        item.string("kind", kindKey(object.object.kind))
            .string("map", core::mapName(object.map))
            .string("key", core::formatKey(object.key))
            .integer("layer", object.object.layer)
            .indices("batches", core::hasBatches(object.object.kind) ? object.object.batches
                                                                     : core::IndexSet())
            .indices("shards", object.object.shards)
            .integer("total", object.object.total)
            .integer("bytes", object.bytes)
            .integer("line", object.line)
            .time("since", object.since);
        // Only on what is not whole yet, so that every older run's objects stay as they were.
        if (core::isUnfinishedAttention(object.object))
            item.indices("attended", core::attendedChunks(object.object));
        if (const std::string lacks = describeUnfinished(object.object, moment.contextSize);
            !lacks.empty())
            item.string("unfinished", lacks);
        item.close();
    });
    fields.close();
}

// Each rank's busy (compute), idle and communication time: together the run's end time.
void appendRanks(std::string &out, const core::Figures &figures)
{
    std::vector<int> ranks(figures.ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i)
        ranks[i] = int(i);
    appendArray(out, ranks, [&](int rank) {
        const core::RankFigures &r = figures.ranks[std::size_t(rank)];
        JsonObject(out)
            .integer("rank", rank)
            .time("busy", r.compute)
            .time("idle", r.idle)
            .time("communication", r.communication)
            .close();
    });
}

// A pipeline run's stages and its bubble beside its schedule's formula (pipelineshape.h).
void appendPipeline(std::string &out, const PipelineShape &shape)
{
    JsonObject(out)
        .string("schedule", scheduleName(shape.schedule))
        .integer("stages", shape.stages)
        .integer("micro_batches", shape.microBatches)
        .integer("virtual_stages", shape.virtualStages)
        .number("bubble_measured", shape.measured)
        .number("bubble_formula", shape.formula)
        .string("formula", formulaText(shape.schedule))
        .close();
}

// A laid-out run's mean time a rank by what it went to (timesplit.h), in steps.
void appendTimeSplit(std::string &out, const TimeSplit &split)
{
    const auto mean = [&split](core::SimTime sum) {
        return sum.toDouble() / split.ranks;
    };
    JsonObject fields(out);
    fields.number("compute", mean(split.compute));
    for (std::size_t i = 0; i < core::kAxes.size(); ++i)
        if (core::kAxes[i] != core::Axis::Expert || split.axes[i].ticks() > 0)
            fields.number(core::axisName(core::kAxes[i]), mean(split.axes[i]));
    fields.number("other_communication", mean(split.other))
        .number("bubble", mean(split.idle))
        .close();
}

// A run's experts (expertload.h): tokens the router sends each, its ranks, their mean idle time.
void appendExperts(std::string &out, const ExpertLoad &load)
{
    JsonObject fields(out);
    fields.integer("router_skew", load.skew).integer("tokens", load.batches);
    appendArray(fields.open("experts"), load.experts, [&out](const ExpertShare &share) {
        JsonObject(out)
            .integer("expert", share.expert)
            .integer("tokens", share.tokens)
            .indices("ranks", core::IndexSet::fromVector(share.ranks))
            .time("idle", share.idle)
            .close();
    });
    fields.close();
}

void appendEvent(std::string &out, const core::Event &event)
{
    JsonObject(out)
        .integer("rank", event.rank)
        .string("op", core::opName(event.op))
        .integer("layer", event.layer)
        .time("start", event.start)
        .time("duration", event.duration)
        .integer("line", event.line)
        .close();
}

} // namespace

std::string explainJson(const core::Trace &trace, const ExplainOptions &options)
{
    std::string out;
    JsonObject fields(out);
    fields.string("status", core::runStatusName(trace.status))
        .time("timesteps", trace.figures.timesteps)
        .time("end_time", trace.figures.endTime)
        .breakLine("  ");
    if (trace.error) // why the run stopped, as `run` says it: the rest explains it up to there
        JsonObject(fields.open("error"))
            .string("kind", core::errorKindName(trace.error->kind))
            .integer("rank", trace.error->rank)
            .integer("line", trace.error->line)
            .string("message", trace.error->message)
            .close();
    const auto peak = peakMemory(trace);
    if (peak)
        appendMoment(fields.open("peak"), *peak);
    else
        fields.null("peak");
    // Whether the peak fits the device the cost model names: only when it names one.
    if (const std::int64_t device = trace.config.cost.deviceMemory; peak && device > 0)
        JsonObject(fields.breakLine("  ").open("device"))
            .integer("memory", device)
            .boolean("fits", peak->bytes <= device)
            .integer("margin", device - peak->bytes)
            .string("sentence", describeDeviceFit(trace, peak->bytes))
            .close();
    if (options.targetMemory) {
        fields.breakLine("  ").string(
            "over_target", peak ? describeOverTarget(trace, *peak, *options.targetMemory) : "");
    }
    if (options.at) {
        std::vector<MemoryMoment> moments;
        for (int rank = 0; rank < trace.config.ranks; ++rank)
            moments.push_back(memoryAt(trace, rank, *options.at));
        appendArray(fields.breakLine("  ").open("at"), moments,
                    [&out](const MemoryMoment &moment) { appendMoment(out, moment); });
    }
    appendRanks(fields.breakLine("  ").open("ranks"), trace.figures);
    if (const auto shape = pipelineShape(trace))
        appendPipeline(fields.breakLine("  ").open("pipeline"), *shape);
    if (const auto split = timeSplit(trace))
        appendTimeSplit(fields.breakLine("  ").open("time_split"), *split);
    if (const auto load = expertLoad(trace))
        appendExperts(fields.breakLine("  ").open("expert_load"), *load);
    const std::vector<std::size_t> path = criticalPath(trace);
    appendArray(fields.breakLine("  ").open("critical_path"), path,
                [&](std::size_t event) { appendEvent(out, trace.events[event]); });
    appendArray(fields.breakLine("  ").open("waits"), waits(trace), [&](const Wait &wait) {
        JsonObject(out)
            .integer("rank", wait.rank)
            .time("from", wait.from)
            .time("to", wait.to)
            .string("op", core::opName(trace.events[wait.event].op))
            .string("sentence", describeWait(trace, wait))
            .close();
    });
    if (trace.diagnosis) // a hang: the waits that never ended
        appendArray(fields.breakLine("  ").open("hang"), trace.diagnosis->ranks,
                    [&out](const core::RankWait &wait) {
                        JsonObject(out)
                            .integer("rank", wait.rank)
                            .boolean("finished", wait.finished)
                            .integer("line", wait.line)
                            .string("waits_for", wait.waitsFor)
                            .close();
                    });
    fields.close();
    return out + "\n";
}

std::string explainText(const core::Trace &trace, const ExplainOptions &options)
{
    std::string text;
    if (trace.status != core::RunStatus::Ok)
        text += std::string("The run did not finish (") + core::runStatusName(trace.status) +
                (trace.error ? ": " + trace.error->message : std::string()) +
                "): this explains it up to where it stopped.\n";
    if (const auto peak = peakMemory(trace)) {
        text += describeMoment(*peak) + "\n";
        if (const std::string device = describeDeviceFit(trace, peak->bytes); !device.empty())
            text += device + "\n";
        if (options.targetMemory) {
            const std::string over = describeOverTarget(trace, *peak, *options.targetMemory);
            text += over.empty() ? "The peak is within the target of " +
                                       std::to_string(*options.targetMemory) + " B.\n"
                                 : over + "\n";
        }
    }
    if (options.at)
        for (int rank = 0; rank < trace.config.ranks; ++rank)
            text += describeMoment(memoryAt(trace, rank, *options.at), "Memory") + "\n";
    // A real-scale run's table in ms, said once in its heading.
    text += "\nrank  busy  idle  communication  (" +
            std::string(trace.config.cost.realScale() ? "in ms; " : "") +
            "each sums to the end time, " + timeText(trace, trace.figures.endTime) + ")\n";
    for (std::size_t rank = 0; rank < trace.figures.ranks.size(); ++rank) {
        const core::RankFigures &r = trace.figures.ranks[rank];
        text += std::to_string(rank) + "  " + r.compute.toString() + "  " + r.idle.toString() +
                "  " + r.communication.toString() + "\n";
    }
    if (const auto shape = pipelineShape(trace))
        text += pipelineBubbleSentence(*shape) + "\n";
    if (const auto split = timeSplit(trace))
        text += timeSplitSentence(*split) + "\n";
    if (const auto load = expertLoad(trace))
        text += expertLoadSentence(*load) + "\n";
    text += "\nCritical path (what sets the end time):\n";
    for (const std::size_t event : criticalPath(trace)) {
        const core::Event &e = trace.events[event];
        text += "  t " + e.start.toString() + "-" + timeText(trace, e.end()) + "  rank " +
                std::to_string(e.rank) + "  " + describeEvent(e) + "\n";
    }
    const std::vector<Wait> found = waits(trace);
    text += "\nWaits (" + std::to_string(found.size()) + "):\n";
    for (std::size_t i = 0; i < found.size() && i < 20; ++i)
        text += "  " + describeWait(trace, found[i]) + "\n";
    if (found.size() > 20)
        text += "  ... and " + std::to_string(found.size() - 20) + " more (--json lists all)\n";
    if (trace.diagnosis)
        for (const core::RankWait &wait : trace.diagnosis->ranks)
            if (!wait.finished)
                text += "Rank " + std::to_string(wait.rank) + " never stopped waiting in " +
                        wait.waitsFor + " (line " + std::to_string(wait.line) + ").\n";
    return text;
}

} // namespace rankstep::explain
