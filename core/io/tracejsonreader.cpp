// SPDX-License-Identifier: MIT
// traceFromJson: reads back what tracejsonwriter.cpp writes, checking every value so that a
// hand-edited or damaged file gives a message, never a Trace a viewer could crash on.
#include "core/router.h"
#include "jsonfields.h"
#include "tracejson.h"
#include "tracelimits.h"

#include <algorithm>
#include <limits>
#include <new>

namespace rankstep::io {

namespace {

constexpr std::int64_t kMaxRanks = 1 << 16;
static_assert(kMaxRanks - 1 <= core::kMostPeer, "an event's peer holds every rank");
constexpr int kMaxCount = 1 << 16;         // layers, batches, shards of a total
constexpr std::int64_t kMaxSize = 1 << 20; // hidden, length
constexpr int kIntMin = std::numeric_limits<int>::min();
constexpr int kIntMax = std::numeric_limits<int>::max();

std::string at(const std::string &path, std::size_t index)
{
    return path + "[" + std::to_string(index) + "]";
}

// The enum value whose name is fields[key]; enums are numbered 0..count-1.
template <typename E>
E readName(const Fields &fields, std::string_view key, const char *(*nameOf)(E), int count)
{
    const std::string &text = fields.string(key);
    std::string known;
    for (int i = 0; i < count; ++i) {
        const auto value = static_cast<E>(i);
        if (text == nameOf(value))
            return value;
        known += (i > 0 ? ", " : "") + std::string(nameOf(value));
    }
    failAt(fields.get(key), fields.pathOf(key),
           "unknown value \"" + text + "\" (expected one of " + known + ")");
}

class TraceReader
{
public:
    core::Trace read(const JsonValue &root, TraceJsonOptions &options);

private:
    // A rank of this run, 0 to ranks - 1 (or -1 too where "no rank" is allowed), for everything
    // a viewer indexes per-rank data with. Warnings, marks and errors only name a rank.
    int readRank(const Fields &fields, std::string_view key = "rank", int min = 0) const
    {
        return fields.integer32(key, min, m_trace.config.ranks - 1);
    }
    void readConfig(const Fields &config, TraceJsonOptions &options);
    core::Object readObject(const Fields &fields) const;
    void readResult(const Fields &result);
    void readDiagnosis(const Fields &diagnosis);
    void readEvents(const Fields &root);
    core::Event readEvent(const Fields &fields, int rank) const;
    void readChange(const Fields &fields);
    void readSlice(const Fields &fields);
    void readMark(const Fields &fields);
    void readFinalWeight(const Fields &fields);

    core::Trace m_trace;
};

core::Trace TraceReader::read(const JsonValue &root, TraceJsonOptions &options)
{
    const Fields top(root, "");
    const bool named = top.has("format") && top.get("format").type == JsonValue::Type::String &&
                       top.get("format").text == kTraceFormatName;
    if (!named)
        failAt(root, "", "this is not a Rankstep trace (\"format\" is not \"rankstep-trace\")");
    const std::int64_t version = top.integer("version", 0);
    if (version != kTraceFormatVersion)
        failAt(top.get("version"), "version",
               "trace format version " + std::to_string(version) + " is not supported (this " +
                   "Rankstep reads version " + std::to_string(kTraceFormatVersion) + ")");
    readConfig(top.object("config"), options);
    readEvents(top);
    const auto list = [&](std::string_view key, auto readOne) {
        const std::vector<JsonValue> &items = top.array(key);
        for (std::size_t i = 0; i < items.size(); ++i)
            (this->*readOne)(Fields(items[i], at(std::string(key), i)));
    };
    list("changes", &TraceReader::readChange);
    list("slices", &TraceReader::readSlice);
    const std::vector<JsonValue> &warnings = top.array("warnings");
    for (std::size_t i = 0; i < warnings.size(); ++i) {
        const Fields warning(warnings[i], at("warnings", i));
        m_trace.warnings.push_back({warning.integer32("rank", -1, int(kMaxRanks - 1)),
                                    warning.integer32("line", kIntMin, kIntMax),
                                    warning.string("message")});
    }
    if (top.has("marks")) // added after the first traces were written: optional
        list("marks", &TraceReader::readMark);
    if (top.has("overlapped")) { // non-blocking collectives' communication: optional
        const std::vector<JsonValue> &items = top.array("overlapped");
        if (items.size() > core::kMostTraceEvents)
            failAt(top.get("overlapped"), "overlapped", "more events than a trace holds");
        for (std::size_t i = 0; i < items.size(); ++i) {
            const Fields event(items[i], at("overlapped", i));
            m_trace.overlapped.push_back(readEvent(event, readRank(event)));
        }
    }
    m_trace.finalWeights.resize(std::size_t(m_trace.config.ranks));
    list("final_weights", &TraceReader::readFinalWeight);
    readResult(top.object("result"));
    return std::move(m_trace);
}

void TraceReader::readConfig(const Fields &config, TraceJsonOptions &options)
{
    options.file = config.string("file");
    options.function = config.string("function");
    core::RunConfig &run = m_trace.config;
    run.ranks = config.integer32("ranks", 0, int(kMaxRanks));
    run.layers = config.integer32("layers", 0, kMaxCount);
    run.batches = config.integer32("batches", 0, kMaxCount);
    const Fields cost = config.object("cost");
    run.cost.forwardPerBatch = cost.time("forward_per_batch");
    run.cost.backwardPerBatch = cost.time("backward_per_batch");
    run.cost.splitBackwardEvenly(); // not in the format: the events carry their durations
    run.cost.loss = cost.time("loss");
    run.cost.update = cost.time("update");
    run.cost.allreduce = cost.time("allreduce");
    run.cost.allgather = cost.time("allgather");
    run.cost.scatterreduce = cost.time("scatterreduce");
    run.cost.passTo = cost.time("pass_to");
    run.cost.receive = cost.time("receive");
    run.cost.sizes.hidden = cost.integer("hidden", 1, kMaxSize);
    run.cost.sizes.length = cost.integer("length", 1, kMaxSize);
    if (cost.has("backward_input_per_batch") || cost.has("backward_weight_per_batch")) {
        run.cost.backwardInputPerBatch = cost.time("backward_input_per_batch");
        run.cost.backwardWeightPerBatch = cost.time("backward_weight_per_batch");
    }
    if (cost.has("router_skew"))
        run.cost.routerSkew = cost.integer32("router_skew", 0, core::kMostRouterSkew);
    if (cost.has("device_memory"))
        run.cost.deviceMemory = cost.integer("device_memory", 1, core::kMostDeviceMemory);
    if (config.has("layout")) {
        const Fields layout = config.object("layout");
        run.layout.tensor = layout.integer32("tensor", 1, int(kMaxRanks));
        run.layout.context = layout.integer32("context", 1, int(kMaxRanks));
        run.layout.pipeline = layout.integer32("pipeline", 1, int(kMaxRanks));
        run.layout.expert = layout.integer32("expert", 1, int(kMaxRanks));
        if (const std::string problem = core::layoutProblem(run.ranks, run.layout);
            !problem.empty())
            failAt(config.get("layout"), "config.layout", problem);
    }
    if (!cost.has("network"))
        return; // the notebook's kind
    // A real-scale cost model (docs/cost-models.md).
    constexpr std::int64_t kMostBytes = std::int64_t(1) << 50;
    run.cost.name = cost.string("name");
    run.cost.sizes.weightBytes = cost.integer("weight_bytes", 1, kMostBytes);
    run.cost.sizes.gradientBytes = cost.integer("gradient_bytes", 1, kMostBytes);
    run.cost.sizes.optimizerBytes = cost.integer("optimizer_bytes", 1, kMostBytes);
    run.cost.sizes.activationBytes = cost.integer("activation_bytes", 1, kMostBytes);
    if (cost.has("activation_tensor_bytes")) { // optional: Korthikanti's rule (core/objects.h)
        run.cost.sizes.activationTensorBytes =
            cost.integer("activation_tensor_bytes", 0, run.cost.sizes.activationBytes);
        run.cost.sizes.tensor = run.layout.tensor;
    }
    const Fields network = cost.object("network");
    core::Network links;
    links.gpusPerNode = network.integer32("gpus_per_node", 1, 1 << 16);
    links.intraNodeBandwidth = double(network.integer("intra_node_bytes_per_second", 1));
    links.interNodeBandwidth = double(network.integer("inter_node_bytes_per_second", 1));
    links.latencySeconds = double(network.integer("latency_ns", 0, 1000000000)) / 1e9;
    run.cost.network = links;
}

core::Object TraceReader::readObject(const Fields &fields) const
{
    core::Object object;
    object.kind = readName(fields, "kind", core::kindName, core::kObjectKindCount);
    object.layer = fields.integer32("layer", kIntMin, kIntMax);
    object.step = fields.integer32("step", kIntMin, kIntMax);
    object.batches = fields.indices("batches");
    object.shards = fields.indices("shards");
    object.total = fields.integer32("total", 0, kMaxCount);
    // Tensor and sequence parallelism: optional, an older trace has none of them.
    object.slice = fields.has("slice") && fields.boolean("slice");
    object.partial = fields.has("partial") && fields.boolean("partial");
    object.block = fields.has("block") ? unsigned(fields.integer32("block", 0, 3)) & 3U : 0U;
    if (fields.has("expert"))
        object.expert = std::int16_t(fields.integer32("expert", 0, core::kMostExperts));
    object.context = fields.has("context") && fields.boolean("context"); // optional, as above
    // Not in the format: what the engine gives every object it makes.
    object.layers = m_trace.config.layers;
    object.totalBatches = core::hasBatches(object.kind) ? m_trace.config.batches : 1;
    return object;
}

void TraceReader::readResult(const Fields &result)
{
    m_trace.status = readName(result, "status", core::runStatusName, 4);
    core::Figures &figures = m_trace.figures;
    figures.hasEvents = !m_trace.events.empty();
    figures.timesteps = result.time("timesteps");
    figures.endTime = result.time("end_time");
    figures.maxMemory = result.integer("max_memory");
    figures.maxMemoryRank =
        result.integer32("max_memory_rank", 0, std::max(m_trace.config.ranks - 1, 0));
    figures.maxMemoryTime = result.time("max_memory_time");
    const Fields check = result.object("check");
    m_trace.check = {check.boolean("passed"), check.string("message")};
    if (!result.isNull("error")) {
        const Fields error = result.object("error");
        m_trace.error =
            core::Error{readName(error, "kind", core::errorKindName, 8),
                        error.integer32("rank", -1, int(kMaxRanks - 1)),
                        error.integer32("line", kIntMin, kIntMax), error.string("message")};
        // Added after the first traces were written: optional.
        if (error.has("column"))
            m_trace.error->column = error.integer32("column", kIntMin, kIntMax);
        if (error.has("traceback"))
            m_trace.error->traceback = error.string("traceback");
    }
    if (!result.isNull("diagnosis"))
        readDiagnosis(result.object("diagnosis"));
    const std::vector<JsonValue> &ranks = result.array("per_rank");
    if (ranks.size() > std::size_t(m_trace.config.ranks))
        failAt(result.get("per_rank"), result.pathOf("per_rank"), "more entries than ranks");
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const Fields rank(ranks[r], at(result.pathOf("per_rank"), r));
        if (rank.integer("rank") != std::int64_t(r))
            failAt(rank.get("rank"), rank.pathOf("rank"), "expected rank " + std::to_string(r));
        figures.ranks.push_back({rank.time("compute"), rank.time("communication"),
                                 rank.time("idle"), rank.integer("peak_memory")});
    }
    if (result.has("held_outside")) { // only when a rank held something outside its storage
        const Fields held = result.object("held_outside");
        core::HeldOutside &outside = m_trace.heldOutside;
        outside.rank = held.integer32("rank", 0, std::max(m_trace.config.ranks - 1, 0));
        outside.line = held.integer32("line", kIntMin, kIntMax);
        outside.bytes = held.integer("bytes", 1);
        outside.memory = held.integer("memory");
        const Fields objects = held.object("objects");
        for (int kind = 0; kind < core::kObjectKindCount; ++kind)
            if (const char *name = core::kindName(core::ObjectKind(kind)); objects.has(name))
                outside.objects[std::size_t(kind)] = objects.integer32(name);
    }
}

void TraceReader::readDiagnosis(const Fields &diagnosis)
{
    core::Diagnosis result;
    result.kind = readName(diagnosis, "kind", core::errorKindName, 8);
    const std::vector<JsonValue> &ranks = diagnosis.array("ranks");
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const Fields wait(ranks[i], at(diagnosis.pathOf("ranks"), i));
        result.ranks.push_back(
            {readRank(wait), wait.boolean("finished"), wait.integer32("line", kIntMin, kIntMax),
             wait.string("waits_for"),
             readInts(wait.get("waits_on"), wait.pathOf("waits_on"), 0, m_trace.config.ranks - 1)});
    }
    m_trace.diagnosis = std::move(result);
}

void TraceReader::readEvents(const Fields &root)
{
    const std::vector<JsonValue> &ranks = root.array("ranks");
    std::size_t total = 0;
    for (std::size_t r = 0; r < ranks.size(); ++r)
        total += Fields(ranks[r], at("ranks", r)).array("events").size();
    m_trace.events.resize(total);
    std::vector<bool> placed(total, false);
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const Fields rank(ranks[r], at("ranks", r));
        const int number = readRank(rank);
        const std::vector<JsonValue> &events = rank.array("events");
        for (std::size_t i = 0; i < events.size(); ++i) {
            const Fields event(events[i], at(rank.pathOf("events"), i));
            // seq: the event's place in the run, across ranks.
            const auto seq = std::size_t(event.integer("seq", 0, std::int64_t(total) - 1));
            if (placed[seq])
                failAt(event.get("seq"), event.pathOf("seq"),
                       "two events have seq " + std::to_string(seq));
            placed[seq] = true;
            m_trace.events[seq] = readEvent(event, number);
        }
    }
}

core::Event TraceReader::readEvent(const Fields &fields, int rank) const
{
    core::Event event;
    event.rank = rank;
    event.op = readName(fields, "op", core::opName, core::kOpCount);
    event.layer = fields.integer32("layer", -1, kIntMax);
    event.batches = fields.indices("batches");
    event.shards = fields.indices("shards");
    event.shardTotal = fields.integer32("shard_total", 0, kMaxCount);
    event.start = fields.time("start");
    event.duration = fields.time("duration");
    event.memory = fields.integer("memory");
    event.line = fields.integer32("line", kIntMin, kIntMax);
    if (fields.has("peer"))
        event.setPeer(readRank(fields, "peer", -1));
    if (fields.has("link"))
        event.link = fields.integer32("link", 0, int(core::kMostTraceLink));
    if (fields.has("gradient"))
        event.gradient = fields.boolean("gradient");
    return event;
}

void TraceReader::readChange(const Fields &fields)
{
    core::StorageChange change;
    change.rank = readRank(fields);
    change.map = readName(fields, "map", core::mapName, core::kMapCount);
    const JsonValue &key = fields.get("key");
    if (key.isArray())
        change.key = core::Key::ofTuple(readInts(key, fields.pathOf("key"), kIntMin, kIntMax));
    else
        change.key = core::Key(int(readInteger(key, fields.pathOf("key"), kIntMin, kIntMax)));
    const std::string &op = fields.string("op");
    if (op != "set" && op != "delete")
        failAt(fields.get("op"), fields.pathOf("op"), "expected \"set\" or \"delete\"");
    std::optional<core::Object> object;
    if (op == "set")
        object = readObject(fields.object("object"));
    change.line = fields.integer32("line", kIntMin, kIntMax);
    change.eventCount = std::uint32_t(fields.integer(
        "event_count", 0, std::int64_t(std::min(m_trace.events.size(), core::kMostTraceEvents))));
    change.memoryAfter = fields.integer("memory_after");
    m_trace.changes.append(change, std::move(object));
}

void TraceReader::readSlice(const Fields &fields)
{
    core::Slice slice;
    slice.rank = readRank(fields);
    // Positions are 32-bit (core/trace.h): a longer record is not one a run makes.
    const auto events = std::int64_t(std::min(m_trace.events.size(), core::kMostTraceEvents));
    const auto changes = std::int64_t(std::min(m_trace.changes.size(), core::kMostTraceEvents));
    slice.eventBegin = std::uint32_t(fields.integer("event_begin", 0, events));
    slice.eventEnd =
        std::uint32_t(fields.integer("event_end", std::int64_t(slice.eventBegin), events));
    slice.changeBegin = std::uint32_t(fields.integer("change_begin", 0, changes));
    slice.changeEnd =
        std::uint32_t(fields.integer("change_end", std::int64_t(slice.changeBegin), changes));
    slice.end = readName(fields, "end", core::sliceEndName, 4);
    slice.detail = m_trace.details.intern(fields.string("detail"));
    slice.line = fields.integer32("line", kIntMin, kIntMax);
    m_trace.slices.push_back(std::move(slice));
}

void TraceReader::readMark(const Fields &fields)
{
    core::Mark mark;
    mark.rank = fields.integer32("rank", -1, int(kMaxRanks - 1));
    mark.line = fields.integer32("line", kIntMin, kIntMax);
    mark.eventCount =
        std::size_t(fields.integer("event_count", 0, std::int64_t(m_trace.events.size())));
    mark.changeCount =
        std::size_t(fields.integer("change_count", 0, std::int64_t(m_trace.changes.size())));
    mark.label = fields.string("label");
    m_trace.marks.push_back(std::move(mark));
}

void TraceReader::readFinalWeight(const Fields &fields)
{
    const auto rank = std::size_t(readRank(fields));
    const int layer = fields.integer32("layer", kIntMin, kIntMax);
    if (rank >= m_trace.finalWeights.size())
        m_trace.finalWeights.resize(rank + 1);
    if (!m_trace.finalWeights[rank].emplace(layer, readObject(fields.object("object"))).second)
        failAt(fields.get("layer"), fields.pathOf("layer"),
               "a second final weight for rank " + std::to_string(rank) + ", layer " +
                   std::to_string(layer));
}

} // namespace

core::Result<core::Trace> traceFromJson(std::string_view json, TraceJsonOptions &options)
{
    const auto failed = [](const std::string &why) {
        return core::Error{core::ErrorKind::Usage, -1, 0, "cannot read the trace: " + why};
    };
    try {
        auto parsed = parseJson(json);
        if (!parsed)
            return failed(parsed.error().message);
        TraceJsonOptions read;
        core::Trace trace = TraceReader().read(*parsed, read);
        if (auto outside = checkTraceLimits(trace))
            return failed(*outside);
        options = std::move(read);
        return trace;
    } catch (const FieldError &failure) {
        return failed(failure.message);
    } catch (const std::bad_alloc &) {
        return failed("it is too large for the memory available");
    }
}

core::Result<core::Trace> traceFromJson(std::string_view json)
{
    TraceJsonOptions ignored;
    return traceFromJson(json, ignored);
}

} // namespace rankstep::io
