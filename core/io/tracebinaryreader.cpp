// SPDX-License-Identifier: MIT
// traceFromBinary: reads back what tracebinary.cpp writes with the checks traceFromJson makes, so
// that a damaged file gives a message, never a Trace a viewer could crash on.
#include "binarycodec.h"
#include "core/regularfile.h"
#include "core/router.h"
#include "tracebinary.h"
#include "tracelimits.h"

#include <algorithm>
#include <new>

namespace rankstep::io {
namespace {

using binary::ByteReader;
using binary::Section;

constexpr int kMaxRanks = 1 << 16;
constexpr int kMaxCount = 1 << 16;         // layers, batches, shards of a total
constexpr std::int64_t kMaxSize = 1 << 20; // hidden, length
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kInt64Max = ByteReader::kInt64Max;

struct RankState {
    std::int64_t end = 0;
    std::int64_t memory = 0;
};

class TraceDecoder
{
public:
    explicit TraceDecoder(binary::ByteReader in) : m_in(std::move(in)) {}
    core::Trace decode(TraceJsonOptions &options);

private:
    // A rank of this run, for everything a viewer indexes per-rank data with.
    int readRank(const char *field)
    {
        return int(m_in.whole(field, std::int64_t(m_trace.config.ranks) - 1));
    }
    void readConfig(TraceJsonOptions &options);
    void readResult();
    void readFigures();
    void readDiagnosis();
    void readEvents();
    core::Event readEvent(std::vector<RankState> &ranks);
    void readChanges();
    core::StorageChange readChange(std::vector<RankState> &ranks, std::size_t eventCount,
                                   std::optional<core::Object> &object);
    core::Object readObject();
    void readSlices();
    void readNotes();
    void readFinals();
    void readCost();
    void readOverlapped();
    void readShape();

    ByteReader m_in;
    core::Trace m_trace;
};

core::Trace TraceDecoder::decode(TraceJsonOptions &options)
{
    m_in.header(kTraceBinaryVersion);
    readConfig(options);
    readResult();
    readEvents();
    readChanges();
    readSlices();
    readNotes();
    readFinals();
    if (m_in.nextSectionIs(Section::Cost)) // a real-scale cost model's (docs/trace-format.md)
        readCost();
    if (m_in.nextSectionIs(Section::Overlapped)) // non-blocking collectives' communication
        readOverlapped();
    readShape();
    m_in.endFile();
    return std::move(m_trace);
}

void TraceDecoder::readConfig(TraceJsonOptions &options)
{
    m_in.beginSection(Section::Config, "config");
    options.file = m_in.string("file");
    options.function = m_in.string("function");
    core::RunConfig &config = m_trace.config;
    config.ranks = int(m_in.whole("ranks", kMaxRanks));
    config.layers = int(m_in.whole("layers", kMaxCount));
    config.batches = int(m_in.whole("batches", kMaxCount));
    core::CostModel &cost = config.cost;
    for (core::SimTime *time :
         {&cost.forwardPerBatch, &cost.backwardPerBatch, &cost.loss, &cost.update, &cost.allreduce,
          &cost.allgather, &cost.scatterreduce, &cost.passTo, &cost.receive})
        *time = m_in.time("cost");
    cost.splitBackwardEvenly(); // not in the format: the events carry their durations
    cost.sizes.hidden = m_in.integer("hidden", 1, kMaxSize);
    cost.sizes.length = m_in.integer("length", 1, kMaxSize);
    m_in.endSection();
}

void TraceDecoder::readResult()
{
    m_in.beginSection(Section::Result, "result");
    m_trace.status = core::RunStatus(m_in.tag("status", 4));
    m_trace.check.passed = m_in.boolean("check.passed");
    m_trace.check.message = m_in.string("check.message");
    readFigures();
    if (m_in.boolean("error")) {
        core::Error &error = m_trace.error.emplace();
        error.kind = core::ErrorKind(m_in.tag("error.kind", 8));
        error.rank = m_in.integer32("error.rank", -1, kMaxRanks - 1);
        error.line = m_in.integer32("error.line");
        error.message = m_in.string("error.message");
        error.column = m_in.integer32("error.column");
        error.traceback = m_in.string("error.traceback");
    }
    if (m_in.boolean("diagnosis"))
        readDiagnosis();
    m_in.endSection();
}

void TraceDecoder::readFigures()
{
    core::Figures &figures = m_trace.figures;
    figures.hasEvents = m_in.boolean("has_events");
    figures.timesteps = m_in.time("timesteps");
    figures.endTime = m_in.time("end_time");
    figures.maxMemory = m_in.integer("max_memory", 0, kInt64Max);
    figures.maxMemoryRank =
        m_in.integer32("max_memory_rank", 0, std::max(m_trace.config.ranks - 1, 0));
    figures.maxMemoryTime = m_in.time("max_memory_time");
    const std::size_t count = m_in.count("per_rank", 4);
    if (count > std::size_t(m_trace.config.ranks))
        m_in.fail("per_rank", "more entries than ranks");
    figures.ranks.resize(count);
    for (core::RankFigures &rank : figures.ranks) {
        rank.compute = m_in.time("per_rank.compute");
        rank.communication = m_in.time("per_rank.communication");
        rank.idle = m_in.time("per_rank.idle");
        rank.peakMemory = m_in.integer("per_rank.peak_memory", 0, kInt64Max);
    }
}

void TraceDecoder::readDiagnosis()
{
    core::Diagnosis &diagnosis = m_trace.diagnosis.emplace();
    diagnosis.kind = core::ErrorKind(m_in.tag("diagnosis.kind", 8));
    diagnosis.ranks.resize(m_in.count("diagnosis.ranks", 5));
    for (core::RankWait &wait : diagnosis.ranks) {
        wait.rank = readRank("diagnosis.rank");
        wait.finished = m_in.boolean("diagnosis.finished");
        wait.line = m_in.integer32("diagnosis.line");
        wait.waitsFor = m_in.string("diagnosis.waits_for");
        wait.waitsOn.resize(m_in.count("diagnosis.waits_on"));
        for (int &rank : wait.waitsOn)
            rank = readRank("diagnosis.waits_on");
    }
}

void TraceDecoder::readEvents()
{
    m_in.beginSection(Section::Events, "events");
    const std::size_t count = m_in.count("count", 10);
    m_trace.events.reserve(count);
    std::vector<RankState> ranks(count > 0 ? std::size_t(m_trace.config.ranks) : 0);
    for (std::size_t i = 0; i < count; ++i) {
        m_in.at("events", i);
        m_trace.events.push_back(readEvent(ranks));
    }
    m_in.at("events");
    m_in.endSection();
}

core::Event TraceDecoder::readEvent(std::vector<RankState> &ranks)
{
    core::Event event;
    const unsigned head = m_in.tag("op", core::kOpCount, binary::kEventPeer | binary::kEventLink);
    event.op = core::OpKind(head & binary::kEnumBits);
    event.rank = readRank("rank");
    RankState &state = ranks[std::size_t(event.rank)];
    event.layer = int(m_in.whole("layer", std::int64_t(ByteReader::kIntMax) + 1) - 1);
    event.batches = m_in.indices("batches");
    event.shards = m_in.indices("shards");
    event.shardTotal = int(m_in.whole("shard_total", kMaxCount));
    event.start = core::SimTime::fromTicks(m_in.relative("start", state.end, kInt64Min, kInt64Max));
    event.duration = m_in.time("duration");
    event.memory = m_in.relative("memory", state.memory, 0, kInt64Max);
    event.line = m_in.integer32("line");
    if ((head & binary::kEventPeer) != 0)
        event.peer = int(m_in.integer("peer", -1, std::int64_t(m_trace.config.ranks) - 1));
    if ((head & binary::kEventLink) != 0)
        event.link = m_in.whole("link", kInt64Max);
    state.end = binary::wrapPlus(event.start.ticks(), event.duration.ticks());
    state.memory = event.memory;
    return event;
}

void TraceDecoder::readChanges()
{
    m_in.beginSection(Section::Changes, "changes");
    const std::size_t count = m_in.count("count", 6);
    m_trace.changes.reserve(count);
    std::vector<RankState> ranks(count > 0 ? std::size_t(m_trace.config.ranks) : 0);
    std::size_t eventCount = 0;
    for (std::size_t i = 0; i < count; ++i) {
        m_in.at("changes", i);
        std::optional<core::Object> object;
        const core::StorageChange change = readChange(ranks, eventCount, object);
        m_trace.changes.append(change, std::move(object));
        eventCount = change.eventCount;
    }
    m_in.at("changes");
    m_in.endSection();
}

core::StorageChange TraceDecoder::readChange(std::vector<RankState> &ranks, std::size_t eventCount,
                                             std::optional<core::Object> &object)
{
    core::StorageChange change;
    const unsigned head =
        m_in.tag("map", core::kMapCount, binary::kChangeTuple | binary::kChangeSet);
    change.map = core::MapKind(head & binary::kEnumBits);
    change.rank = readRank("rank");
    if ((head & binary::kChangeTuple) != 0) {
        std::vector<int> parts(m_in.count("key"));
        for (int &part : parts)
            part = m_in.integer32("key");
        change.key = core::Key::ofTuple(std::move(parts));
    } else {
        change.key = core::Key(m_in.integer32("key"));
    }
    if ((head & binary::kChangeSet) != 0)
        object = readObject();
    change.line = m_in.integer32("line");
    const auto events = std::int64_t(std::min(m_trace.events.size(), core::kMostTraceEvents));
    change.eventCount =
        std::uint32_t(m_in.relative("event_count", std::int64_t(eventCount), 0, events));
    RankState &state = ranks[std::size_t(change.rank)];
    change.memoryAfter = m_in.relative("memory_after", state.memory, 0, kInt64Max);
    state.memory = change.memoryAfter;
    return change;
}

core::Object TraceDecoder::readObject()
{
    core::Object object;
    const unsigned head =
        m_in.tag("object.kind", core::kObjectKindCount,
                 binary::kObjectShape | binary::kObjectTensor | binary::kObjectExpert);
    object.kind = core::ObjectKind(head & binary::kEnumBits);
    if ((head & binary::kObjectTensor) != 0) {
        const unsigned tensor = m_in.tag("object.tensor", 16, 0x10);
        object.slice = (tensor & 1U) != 0;
        object.partial = (tensor & 2U) != 0;
        object.block = (tensor >> 2) & 3U;
        object.context = (tensor & 16U) != 0;
    }
    object.layer = m_in.integer32("object.layer");
    object.step = m_in.integer32("object.step");
    object.batches = m_in.indices("object.batches");
    object.shards = m_in.indices("object.shards");
    object.total = int(m_in.whole("object.total", kMaxCount));
    if ((head & binary::kObjectExpert) != 0)
        object.expert = std::int16_t(m_in.whole("object.expert", core::kMostExperts));
    if ((head & binary::kObjectShape) != 0) {
        object.layers = m_in.integer32("object.layers");
        object.totalBatches = m_in.integer32("object.total_batches");
    } else {
        binary::setEngineShape(object, m_trace.config);
    }
    return object;
}

void TraceDecoder::readSlices()
{
    m_in.beginSection(Section::Slices, "slices");
    const std::size_t count = m_in.count("count", 8);
    m_trace.slices.resize(count);
    // Positions are 32-bit (core/trace.h): a longer record is not one a run makes.
    const auto events = std::int64_t(std::min(m_trace.events.size(), core::kMostTraceEvents));
    const auto changes = std::int64_t(std::min(m_trace.changes.size(), core::kMostTraceEvents));
    std::int64_t eventEnd = 0, changeEnd = 0;
    for (std::size_t i = 0; i < count; ++i) {
        m_in.at("slices", i);
        core::Slice &slice = m_trace.slices[i];
        slice.rank = readRank("rank");
        const std::int64_t eventBegin = m_in.relative("event_begin", eventEnd, 0, events);
        eventEnd = eventBegin + m_in.whole("event_end", events - eventBegin);
        const std::int64_t changeBegin = m_in.relative("change_begin", changeEnd, 0, changes);
        changeEnd = changeBegin + m_in.whole("change_end", changes - changeBegin);
        slice.eventBegin = std::uint32_t(eventBegin);
        slice.eventEnd = std::uint32_t(eventEnd);
        slice.changeBegin = std::uint32_t(changeBegin);
        slice.changeEnd = std::uint32_t(changeEnd);
        slice.end = core::SliceEnd(m_in.tag("end", 4));
        slice.detail = m_trace.details.intern(m_in.string("detail"));
        slice.line = m_in.integer32("line");
    }
    m_in.at("slices");
    m_in.endSection();
}

void TraceDecoder::readNotes()
{
    m_in.beginSection(Section::Warnings, "warnings");
    m_trace.warnings.resize(m_in.count("count", 3));
    for (std::size_t i = 0; i < m_trace.warnings.size(); ++i) {
        m_in.at("warnings", i);
        core::Warning &warning = m_trace.warnings[i];
        warning.rank = m_in.integer32("rank", -1, kMaxRanks - 1);
        warning.line = m_in.integer32("line");
        warning.message = m_in.string("message");
    }
    m_in.at("warnings");
    m_in.endSection();
    m_in.beginSection(Section::Marks, "marks");
    // Positions are 32-bit (core/trace.h): a longer record is not one a run makes.
    const auto events = std::int64_t(std::min(m_trace.events.size(), core::kMostTraceEvents));
    const auto changes = std::int64_t(std::min(m_trace.changes.size(), core::kMostTraceEvents));
    m_trace.marks.resize(m_in.count("count", 5));
    for (std::size_t i = 0; i < m_trace.marks.size(); ++i) {
        m_in.at("marks", i);
        core::Mark &mark = m_trace.marks[i];
        mark.rank = m_in.integer32("rank", -1, kMaxRanks - 1);
        mark.line = m_in.integer32("line");
        mark.eventCount = std::size_t(m_in.whole("event_count", events));
        mark.changeCount = std::size_t(m_in.whole("change_count", changes));
        mark.label = m_in.string("label");
    }
    m_in.at("marks");
    m_in.endSection();
}

void TraceDecoder::readFinals()
{
    m_in.beginSection(Section::Finals, "final_weights");
    const std::size_t ranks = m_in.count("count");
    if (ranks > std::size_t(m_trace.config.ranks))
        m_in.fail("count", "more ranks than the run has");
    m_trace.finalWeights.resize(ranks);
    for (std::size_t r = 0; r < ranks; ++r) {
        m_in.at("final_weights", r);
        const std::size_t count = m_in.count("count", 7);
        for (std::size_t i = 0; i < count; ++i) {
            const int layer = m_in.integer32("layer");
            if (!m_trace.finalWeights[r].emplace(layer, readObject()).second)
                m_in.fail("layer", "a second final weight for layer " + std::to_string(layer));
        }
    }
    m_in.at("final_weights");
    m_in.endSection();
}

void TraceDecoder::readOverlapped()
{
    m_in.beginSection(Section::Overlapped, "overlapped");
    const std::size_t count = m_in.count("count", 10);
    std::vector<RankState> ranks(std::size_t(m_trace.config.ranks));
    m_trace.overlapped.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        m_in.at("overlapped", i);
        m_trace.overlapped.push_back(readEvent(ranks));
    }
    m_in.at("overlapped");
    m_in.endSection();
}

void TraceDecoder::readShape()
{
    core::CostModel &cost = m_trace.config.cost;
    if (m_in.nextSectionIs(Section::Halves)) { // a cost file's own backward halves
        m_in.beginSection(Section::Halves, "halves");
        cost.backwardInputPerBatch = m_in.time("backward_input_per_batch");
        cost.backwardWeightPerBatch = m_in.time("backward_weight_per_batch");
        m_in.endSection();
    }
    if (m_in.nextSectionIs(Section::Layout)) { // tensor, context, pipeline and expert degrees
        m_in.beginSection(Section::Layout, "layout");
        core::Layout &layout = m_trace.config.layout;
        for (int *degree : {&layout.tensor, &layout.context, &layout.pipeline, &layout.expert})
            *degree = int(m_in.whole("layout", kMaxRanks));
        m_in.endSection();
        if (const std::string problem = core::layoutProblem(m_trace.config.ranks, layout);
            !problem.empty())
            m_in.fail("layout", problem);
    }
    if (m_in.nextSectionIs(Section::TensorActivations)) { // Korthikanti's rule (core/objects.h)
        m_in.beginSection(Section::TensorActivations, "tensor_activations");
        cost.sizes.activationTensorBytes =
            m_in.integer("activation_tensor_bytes", 1, std::int64_t(1) << 50);
        cost.sizes.tensor = m_trace.config.layout.tensor;
        m_in.endSection();
    }
    if (m_in.nextSectionIs(Section::Router)) { // an uneven router's skew
        m_in.beginSection(Section::Router, "router");
        m_trace.config.cost.routerSkew = int(m_in.whole("router_skew", core::kMostRouterSkew));
        m_in.endSection();
    }
    if (m_in.nextSectionIs(Section::Device)) { // what a rank's peak must fit in
        m_in.beginSection(Section::Device, "device");
        cost.deviceMemory = m_in.integer("device_memory", 1, core::kMostDeviceMemory);
        m_in.endSection();
    }
}

void TraceDecoder::readCost()
{
    m_in.beginSection(Section::Cost, "cost");
    constexpr std::int64_t kMostBytes = std::int64_t(1) << 50;
    core::CostModel &cost = m_trace.config.cost;
    cost.name = m_in.string("name");
    cost.sizes.weightBytes = m_in.integer("weight_bytes", 1, kMostBytes);
    cost.sizes.gradientBytes = m_in.integer("gradient_bytes", 1, kMostBytes);
    cost.sizes.optimizerBytes = m_in.integer("optimizer_bytes", 1, kMostBytes);
    cost.sizes.activationBytes = m_in.integer("activation_bytes", 1, kMostBytes);
    core::Network network;
    network.gpusPerNode = int(m_in.integer("gpus_per_node", 1, 1 << 16));
    network.intraNodeBandwidth =
        double(m_in.integer("intra_node_bytes_per_second", 1, kMostBytes << 10));
    network.interNodeBandwidth =
        double(m_in.integer("inter_node_bytes_per_second", 1, kMostBytes << 10));
    network.latencySeconds = double(m_in.integer("latency_ns", 0, 1000000000)) / 1e9;
    cost.network = network;
    m_in.endSection();
}

} // namespace

namespace binary {

core::Result<core::Trace> decodeTrace(ByteReader in, TraceJsonOptions *options)
{
    const auto failed = [](const std::string &why) {
        return core::Error{core::ErrorKind::Usage, -1, 0, "cannot read the binary trace: " + why};
    };
    try {
        TraceJsonOptions read;
        core::Trace trace = TraceDecoder(std::move(in)).decode(read);
        if (auto outside = checkTraceLimits(trace))
            return failed(*outside);
        if (options != nullptr)
            *options = std::move(read);
        return trace;
    } catch (const binary::BinaryError &failure) {
        return failed(failure.message);
    } catch (const std::bad_alloc &) {
        return failed("it is too large for the memory available");
    }
}

} // namespace binary

core::Result<core::Trace> traceFromBinary(std::string_view data, TraceJsonOptions *options)
{
    return binary::decodeTrace(binary::ByteReader(data), options);
}

core::Result<core::Trace> traceFromBinaryFile(const std::string &path, TraceJsonOptions *options)
{
    return traceFromBinaryFile(path, options, {});
}

core::Result<core::Trace> traceFromBinaryFile(const std::string &path, TraceJsonOptions *options,
                                              const ReadProgress &progress)
{
    auto file = core::RegularFile::open(path, core::kMaxTraceFileBytes);
    if (!file)
        return file.error();
    const std::uint64_t size = file->size();
    std::uint64_t read = 0;
    binary::ByteReader in(size,
                          [&file, &progress, &read, size](unsigned char *to, std::size_t wanted) {
                              auto got = file->read(to, wanted);
                              if (!got)
                                  throw binary::BinaryError{got.error().message};
                              read += *got;
                              if (progress && !progress(read, size))
                                  throw binary::BinaryError{"the read was stopped"};
                              return *got;
                          });
    return binary::decodeTrace(std::move(in), options);
}

} // namespace rankstep::io
