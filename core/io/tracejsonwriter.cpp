// SPDX-License-Identifier: MIT
// traceToJson: the layout puts each event, change, slice, ... on a line of its own so that a
// trace diffs and greps well.
#include "jsonwriter.h"
#include "tracejson.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace rankstep::io {

namespace {

// "[\n<indent>item,\n<indent>item]", or "[]" when there are no items.
template <typename Items, typename Write>
void appendArray(std::string &out, std::string_view indent, const Items &items, Write &&write)
{
    out += '[';
    bool first = true;
    for (const auto &item : items) {
        out += first ? "\n" : ",\n";
        out += indent;
        write(item);
        first = false;
    }
    out += ']';
}

void appendInts(std::string &out, const std::vector<int> &values)
{
    out += '[';
    for (std::size_t i = 0; i < values.size(); ++i)
        out += (i > 0 ? ", " : "") + std::to_string(values[i]);
    out += ']';
}

void appendObject(std::string &out, const core::Object &object)
{
    JsonObject fields(out);
    fields.string("kind", core::kindName(object.kind))
        .integer("layer", object.layer)
        .integer("step", object.step)
        .indices("batches", object.batches)
        .indices("shards", object.shards)
        .integer("total", object.total);
    // Tensor and sequence parallelism (docs/simulation.md): written only where set, so that
    // every other trace is byte for byte what it was.
    if (object.slice)
        fields.boolean("slice", true);
    if (object.partial)
        fields.boolean("partial", true);
    if (object.block != 0)
        fields.integer("block", object.block);
    if (object.expert >= 0) // an expert's (docs/simulation.md, "Expert parallelism")
        fields.integer("expert", object.expert);
    if (object.context) // a context chunk's, or a sum over the context group still to make
        fields.boolean("context", true);
    fields.close();
}

void appendConfig(std::string &out, const core::RunConfig &config, const TraceJsonOptions &options)
{
    const core::CostModel &cost = config.cost;
    JsonObject fields(out);
    fields.string("file", options.file)
        .string("function", options.function)
        .integer("ranks", config.ranks)
        .integer("layers", config.layers)
        .integer("batches", config.batches);
    JsonObject costFields(fields.open("cost"));
    costFields.time("forward_per_batch", cost.forwardPerBatch)
        .time("backward_per_batch", cost.backwardPerBatch)
        .time("loss", cost.loss)
        .time("update", cost.update)
        .time("allreduce", cost.allreduce)
        .time("allgather", cost.allgather)
        .time("scatterreduce", cost.scatterreduce)
        .time("pass_to", cost.passTo)
        .time("receive", cost.receive)
        .integer("hidden", cost.sizes.hidden)
        .integer("length", cost.sizes.length);
    // A cost file's own backward halves, when they are not half each (docs/cost-models.md).
    core::CostModel even = cost;
    even.splitBackwardEvenly();
    if (cost.backwardInputPerBatch != even.backwardInputPerBatch ||
        cost.backwardWeightPerBatch != even.backwardWeightPerBatch)
        costFields.time("backward_input_per_batch", cost.backwardInputPerBatch)
            .time("backward_weight_per_batch", cost.backwardWeightPerBatch);
    if (cost.routerSkew != 0) // an uneven router of experts (docs/cost-models.md)
        costFields.integer("router_skew", cost.routerSkew);
    if (cost.deviceMemory > 0) // what a rank's peak must fit in (docs/cost-models.md)
        costFields.integer("device_memory", cost.deviceMemory);
    // A real-scale cost model (docs/cost-models.md): its name, the kinds' sizes and the links.
    // The notebook's writes none of it, so its traces stay as they were.
    if (cost.realScale()) {
        costFields.string("name", cost.name)
            .integer("weight_bytes", cost.sizes.weightBytes)
            .integer("gradient_bytes", cost.sizes.gradientBytes)
            .integer("optimizer_bytes", cost.sizes.optimizerBytes)
            .integer("activation_bytes", cost.sizes.activationBytes);
        if (cost.sizes.activationTensorBytes > 0) // Korthikanti's rule (core/objects.h)
            costFields.integer("activation_tensor_bytes", cost.sizes.activationTensorBytes);
        const core::Network &network = *cost.network;
        JsonObject(costFields.open("network"))
            .integer("gpus_per_node", network.gpusPerNode)
            .integer("intra_node_bytes_per_second", std::llround(network.intraNodeBandwidth))
            .integer("inter_node_bytes_per_second", std::llround(network.interNodeBandwidth))
            .integer("latency_ns", std::llround(network.latencySeconds * 1e9))
            .close();
    }
    costFields.close();
    // The run's layout (core/layout.h), when one degree is not 1: other traces stay as they were.
    const core::Layout &layout = config.layout;
    if (!layout.isPlain())
        JsonObject(fields.open("layout"))
            .integer("tensor", layout.tensor)
            .integer("context", layout.context)
            .integer("pipeline", layout.pipeline)
            .integer("expert", layout.expert)
            .close();
    fields.close();
}

void appendDiagnosis(std::string &out, const core::Diagnosis &diagnosis)
{
    JsonObject fields(out);
    fields.string("kind", core::errorKindName(diagnosis.kind));
    appendArray(fields.open("ranks"), "   ", diagnosis.ranks, [&](const core::RankWait &wait) {
        JsonObject item(out);
        item.integer("rank", wait.rank)
            .boolean("finished", wait.finished)
            .integer("line", wait.line)
            .string("waits_for", wait.waitsFor);
        appendInts(item.open("waits_on"), wait.waitsOn);
        item.close();
    });
    fields.close();
}

void appendPerRank(std::string &out, const core::Figures &figures)
{
    std::vector<int> ranks(figures.ranks.size());
    for (std::size_t r = 0; r < ranks.size(); ++r)
        ranks[r] = int(r);
    appendArray(out, "   ", ranks, [&](int r) {
        const core::RankFigures &rank = figures.ranks[std::size_t(r)];
        JsonObject(out)
            .integer("rank", r)
            .time("compute", rank.compute)
            .time("communication", rank.communication)
            .time("idle", rank.idle)
            .integer("peak_memory", rank.peakMemory)
            .close();
    });
}

void appendResult(std::string &out, const core::Trace &trace)
{
    const core::Figures &figures = trace.figures;
    JsonObject fields(out);
    fields.string("status", core::runStatusName(trace.status))
        .boolean("correct", trace.correct())
        .time("timesteps", figures.timesteps)
        .time("end_time", figures.endTime)
        .integer("max_memory", figures.maxMemory)
        .integer("max_memory_rank", figures.maxMemoryRank)
        .time("max_memory_time", figures.maxMemoryTime)
        .breakLine("  ");
    JsonObject(fields.open("check"))
        .boolean("passed", trace.check.passed)
        .string("message", trace.check.message)
        .close();
    if (const auto &error = trace.error) {
        JsonObject(fields.breakLine("  ").open("error"))
            .integer("rank", error->rank)
            .integer("line", error->line)
            .string("kind", core::errorKindName(error->kind))
            .string("message", error->message)
            .integer("column", error->column)
            .string("traceback", error->traceback)
            .close();
    } else {
        fields.breakLine("  ").null("error");
    }
    if (trace.diagnosis)
        appendDiagnosis(fields.breakLine("  ").open("diagnosis"), *trace.diagnosis);
    else
        fields.breakLine("  ").null("diagnosis");
    appendPerRank(fields.breakLine("  ").open("per_rank"), figures);
    // Only when a rank held something outside its storage at an operation: other traces stay
    // as they were.
    if (const core::HeldOutside &held = trace.heldOutside; held.bytes > 0) {
        JsonObject outside(fields.breakLine("  ").open("held_outside"));
        outside.integer("rank", held.rank)
            .integer("line", held.line)
            .integer("bytes", held.bytes)
            .integer("memory", held.memory);
        JsonObject objects(outside.open("objects"));
        for (int kind = 0; kind < core::kObjectKindCount; ++kind)
            if (held.objects[std::size_t(kind)] != 0)
                objects.integer(core::kindName(core::ObjectKind(kind)),
                                held.objects[std::size_t(kind)]);
        objects.close();
        outside.close();
    }
    fields.close();
}

void appendEvent(std::string &out, const core::Event &event, std::size_t seq)
{
    JsonObject fields(out);
    fields.string("op", core::opName(event.op))
        .integer("layer", event.layer)
        .indices("batches", event.batches)
        .indices("shards", event.shards)
        .integer("shard_total", event.shardTotal)
        .time("start", event.start)
        .time("duration", event.duration)
        .integer("memory", event.memory)
        .integer("line", event.line);
    if (event.op == core::OpKind::PassTo || event.op == core::OpKind::Receive)
        fields.integer("peer", event.peer);
    if (event.link >= 0)
        fields.integer("link", event.link);
    if (event.gradient)
        fields.boolean("gradient", true);
    fields.integer("seq", std::int64_t(seq)).close();
}

void appendRanks(std::string &out, const core::Trace &trace)
{
    int count = std::max(trace.config.ranks, 0);
    for (const core::Event &event : trace.events)
        count = std::max(count, event.rank + 1);
    std::vector<std::vector<std::size_t>> byRank(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < trace.events.size(); ++i)
        if (trace.events[i].rank >= 0)
            byRank[std::size_t(trace.events[i].rank)].push_back(i);
    std::vector<int> ranks(byRank.size());
    for (std::size_t r = 0; r < ranks.size(); ++r)
        ranks[r] = int(r);
    appendArray(out, "  ", ranks, [&](int r) {
        JsonObject fields(out);
        fields.integer("rank", r);
        appendArray(fields.open("events"), "   ", byRank[std::size_t(r)],
                    [&](std::size_t i) { appendEvent(out, trace.events[i], i); });
        fields.close();
    });
}

void appendChange(std::string &out, const core::ChangeLog &log, const core::StorageChange &change)
{
    JsonObject fields(out);
    fields.integer("rank", change.rank).string("map", core::mapName(change.map));
    std::string &key = fields.open("key");
    if (change.key.tuple)
        appendInts(key, std::vector<int>(change.key.parts.begin(), change.key.parts.end()));
    else
        key += std::to_string(change.key.parts.empty() ? 0 : change.key.parts.front());
    fields.string("op", change.isSet() ? "set" : "delete");
    if (const core::Object *object = log.object(change))
        appendObject(fields.open("object"), *object);
    fields.integer("line", change.line)
        .integer("event_count", std::int64_t(change.eventCount))
        .integer("memory_after", change.memoryAfter)
        .close();
}

void appendTail(JsonObject &top, std::string &out, const core::Trace &trace)
{
    std::string &slices = top.breakLine(" ").open("slices");
    appendArray(slices, "  ", trace.slices, [&](const core::Slice &slice) {
        JsonObject(out)
            .integer("rank", slice.rank)
            .integer("event_begin", std::int64_t(slice.eventBegin))
            .integer("event_end", std::int64_t(slice.eventEnd))
            .integer("change_begin", std::int64_t(slice.changeBegin))
            .integer("change_end", std::int64_t(slice.changeEnd))
            .string("end", core::sliceEndName(slice.end))
            .string("detail", trace.detail(slice))
            .integer("line", slice.line)
            .close();
    });
    appendArray(top.breakLine(" ").open("warnings"), "  ", trace.warnings,
                [&](const core::Warning &warning) {
                    JsonObject(out)
                        .integer("rank", warning.rank)
                        .integer("line", warning.line)
                        .string("message", warning.message)
                        .close();
                });
    appendArray(top.breakLine(" ").open("marks"), "  ", trace.marks, [&](const core::Mark &mark) {
        JsonObject(out)
            .integer("rank", mark.rank)
            .integer("line", mark.line)
            .integer("event_count", std::int64_t(mark.eventCount))
            .integer("change_count", std::int64_t(mark.changeCount))
            .string("label", mark.label)
            .close();
    });
    // The non-blocking collectives' communication (docs/trace-format.md): only when there is any,
    // so that every other trace stays as it was.
    if (!trace.overlapped.empty()) {
        std::vector<std::size_t> order(trace.overlapped.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        appendArray(top.breakLine(" ").open("overlapped"), "  ", order, [&](std::size_t i) {
            const core::Event &event = trace.overlapped[i];
            std::string withRank;
            JsonObject(withRank).integer("rank", event.rank).close();
            withRank.pop_back(); // "{"rank": R" and then the event's own members
            std::string body;
            appendEvent(body, event, i);
            out += withRank + ", " + body.substr(1);
        });
    }
    std::vector<std::pair<int, const core::WeightsByLayer::value_type *>> finals;
    for (std::size_t r = 0; r < trace.finalWeights.size(); ++r)
        for (const auto &entry : trace.finalWeights[r])
            finals.emplace_back(int(r), &entry);
    appendArray(top.breakLine(" ").open("final_weights"), "  ", finals, [&](const auto &final) {
        JsonObject fields(out);
        fields.integer("rank", final.first).integer("layer", final.second->first);
        appendObject(fields.open("object"), final.second->second);
        fields.close();
    });
}

} // namespace

std::string traceToJson(const core::Trace &trace, const TraceJsonOptions &options)
{
    std::string out;
    out.reserve(256 * (trace.events.size() + trace.changes.size() + trace.slices.size()) + 4096);
    JsonObject top(out);
    top.string("format", kTraceFormatName).integer("version", kTraceFormatVersion);
    appendConfig(top.breakLine(" ").open("config"), trace.config, options);
    appendResult(top.breakLine(" ").open("result"), trace);
    appendRanks(top.breakLine(" ").open("ranks"), trace);
    appendArray(
        top.breakLine(" ").open("changes"), "  ", trace.changes,
        [&](const core::StorageChange &change) { appendChange(out, trace.changes, change); });
    appendTail(top, out, trace);
    top.close();
    out += '\n';
    return out;
}

} // namespace rankstep::io
