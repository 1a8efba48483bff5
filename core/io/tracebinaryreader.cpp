// SPDX-License-Identifier: MIT
// The sections of a binary trace decoded with the checks traceFromJson makes, so that a damaged
// file gives a message, never a Trace a viewer could crash on (tracebinaryparts.cpp puts them
// together).
#include "tracedecoder.h"

#include "core/router.h"
#include "tracebinary.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace rankstep::io::binary {
namespace {

constexpr int kMaxRanks = 1 << 16;
static_assert(kMaxRanks - 1 <= core::kMostPeer, "an event's peer holds every rank");
constexpr int kMaxCount = 1 << 16;         // layers, batches, shards of a total
constexpr std::int64_t kMaxSize = 1 << 20; // hidden, length
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kInt64Max = ByteReader::kInt64Max;

// The objects a trace's changes set, each kept once in its change log however far apart the
// ranks that set it lie: the ranks of a data-parallel group set the same weights and activations
// thousands of sets apart at 16,384 ranks, past what the log itself remembers (its last 1024,
// core/trace.h ChangeLog::keep), so that the log kept 4.42 million objects of 56 bytes for 3.15
// million distinct ones. Up to 65,536 places (1 MiB while the changes are read), one a set
// of an object equal to the one there: 3.24 million kept, 63 MiB less (docs/benchmarks.md).
class KeptObjects
{
public:
    explicit KeptObjects(std::size_t changes)
    {
        while (m_bits < kMostBits && (std::size_t(1) << m_bits) < changes)
            ++m_bits;
        m_places.assign(std::size_t(1) << m_bits, Place{});
    }
    // The number of the log's own object equal to `object`, whose hashOf() is `hash`: the one
    // kept here lately, else a new one. A place holds its object's hash too, so that another
    // object there is told apart without reading it.
    core::ObjectId keep(core::ChangeLog &log, const core::Object &object, std::uint64_t hash)
    {
        Place &place = placeOf(hash);
        if (place.id == core::kNoObject || place.hash != hash ||
            !(log.objectAt(place.id) == object))
            place = {hash, log.keep(object).id};
        return place.id;
    }
    // What keep() will read, asked for ahead: an object set long ago, and its place here, are
    // out of the caches, and waiting for them took most of the changes' own time at 16,384
    // ranks. First the place of an object read (ask), a change later the object there when it
    // may be the same (askObject).
    void ask(std::uint64_t hash) const { __builtin_prefetch(&placeOf(hash)); }
    void askObject(const core::ChangeLog &log, std::uint64_t hash) const
    {
        const Place &place = placeOf(hash);
        if (place.hash == hash && place.id != core::kNoObject) {
            const auto *first = reinterpret_cast<const char *>(&log.objectAt(place.id));
            __builtin_prefetch(first);
            __builtin_prefetch(first + sizeof(core::Object) - 1); // it may span two lines
        }
    }
    static std::uint64_t hashOf(const core::Object &object)
    {
        std::uint64_t h = std::uint64_t(object.kind) | std::uint64_t(unsigned(object.layer)) << 8 |
                          std::uint64_t(unsigned(object.step)) << 32;
        h = (h ^ object.batches.rangeHint()) * 0x9e3779b97f4a7c15ULL;
        h = (h ^ object.shards.rangeHint() ^ std::uint64_t(unsigned(object.total)) << 20 ^
             std::uint64_t(std::uint16_t(object.expert)) << 44) *
            0x9e3779b97f4a7c15ULL;
        return h;
    }

private:
    static constexpr int kMostBits = 16;
    struct Place {
        std::uint64_t hash = 0;
        core::ObjectId id = core::kNoObject;
    };
    Place &placeOf(std::uint64_t hash) { return m_places[std::size_t(hash >> (64 - m_bits))]; }
    const Place &placeOf(std::uint64_t hash) const
    {
        return m_places[std::size_t(hash >> (64 - m_bits))];
    }
    int m_bits = 10;
    std::vector<Place> m_places;
};

} // namespace

void TraceDecoder::readHead(TraceJsonOptions &options)
{
    m_in.header(kTraceBinaryVersion);
    readConfig(options);
    readResult();
    m_in.beginSection(Section::Events, "events");
    m_eventCount = m_in.count("count", 10);
    m_trace.events.reserve(m_eventCount);
}

void TraceDecoder::readRest(std::size_t events, std::size_t changes)
{
    m_eventCount = events;
    m_changeCount = changes;
    readSlices();
    readNotes();
    readFinals();
    if (m_in.nextSectionIs(Section::Cost)) // a real-scale cost model's (docs/trace-format.md)
        readCost();
    if (m_in.nextSectionIs(Section::Overlapped)) // non-blocking collectives' communication
        readOverlapped();
    readShape();
    if (m_in.nextSectionIs(Section::HeldOutside)) // what a rank held outside its storage
        readHeldOutside();
    m_in.endFile();
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
    m_config = config;
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

void TraceDecoder::readEventsBody()
{
    std::vector<RankState> ranks(m_eventCount > 0 ? std::size_t(m_config.ranks) : 0);
    for (std::size_t i = 0; i < m_eventCount; ++i) {
        m_in.at("events", i);
        core::Event event = readEvent(ranks);
        m_tally.addEvent(event);
        m_trace.events.push_back(std::move(event));
    }
    m_in.at("events");
    m_in.endSection();
}

core::Event TraceDecoder::readEvent(std::vector<RankState> &ranks)
{
    core::Event event;
    const unsigned head = m_in.tag(
        "op", core::kOpCount, binary::kEventPeer | binary::kEventLink | binary::kEventGradient);
    event.op = core::OpKind(head & binary::kEnumBits);
    event.gradient = (head & binary::kEventGradient) != 0;
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
        event.setPeer(int(m_in.integer("peer", -1, std::int64_t(m_config.ranks) - 1)));
    if ((head & binary::kEventLink) != 0)
        event.link = std::int32_t(m_in.whole("link", core::kMostTraceLink));
    state.end = binary::wrapPlus(event.start.ticks(), event.duration.ticks());
    state.memory = event.memory;
    return event;
}

void TraceDecoder::beginChanges(std::size_t events)
{
    m_eventCount = events;
    m_in.beginSection(Section::Changes, "changes");
    m_changeCount = m_in.count("count", 6);
    m_trace.changes.reserve(m_changeCount);
}

// A change read whose object is not kept yet (readChangesBody).
struct PendingChange {
    core::StorageChange change;
    std::optional<core::Object> object;
    std::uint64_t hash = 0; // KeptObjects::hashOf(*object)
};

void TraceDecoder::readChangesBody()
{
    std::vector<RankState> ranks(m_changeCount > 0 ? std::size_t(m_config.ranks) : 0);
    std::size_t eventCount = 0;
    KeptObjects kept(m_changeCount);
    // Each change is kept and appended kLater changes after it was read, so that what keeping
    // its object reads is asked for while the next ones are read (KeptObjects::ask): its place
    // at once, the object there kAskObject changes later.
    constexpr std::size_t kLater = 4, kAskObject = 2;
    std::array<PendingChange, 8> pending; // change i in pending[i % 8]
    for (std::size_t i = 0; i < m_changeCount + kLater; ++i) {
        if (i < m_changeCount) {
            m_in.at("changes", i);
            PendingChange &read = pending[i % pending.size()];
            read.object.reset();
            read.change = readChange(ranks, eventCount, read.object);
            m_tally.addChange(read.change);
            eventCount = read.change.eventCount;
            if (read.object) {
                read.hash = KeptObjects::hashOf(*read.object);
                kept.ask(read.hash);
            }
        }
        if (i >= kAskObject && i - kAskObject < m_changeCount) {
            if (const PendingChange &next = pending[(i - kAskObject) % pending.size()]; next.object)
                kept.askObject(m_trace.changes, next.hash);
        }
        if (i >= kLater) {
            PendingChange &done = pending[(i - kLater) % pending.size()];
            done.change.objectId =
                done.object ? kept.keep(m_trace.changes, *done.object, done.hash) : core::kNoObject;
            m_trace.changes.append(std::move(done.change));
        }
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
        const std::size_t count = m_in.count("key");
        if (count == 2) { // a layer and a micro-batch or shard: no list on the heap to make
            const int first = m_in.integer32("key");
            change.key = core::Key(first, m_in.integer32("key"));
        } else if (count == 3) { // a tensor block's activation: 2.1 million at 4096 ranks
            const int first = m_in.integer32("key");
            const int second = m_in.integer32("key");
            change.key = core::Key(first, second, m_in.integer32("key"));
        } else {
            std::vector<int> parts(count);
            for (int &part : parts)
                part = m_in.integer32("key");
            change.key = core::Key::ofTuple(parts);
        }
    } else {
        change.key = core::Key(m_in.integer32("key"));
    }
    if ((head & binary::kChangeSet) != 0)
        object = readObject();
    change.line = m_in.integer32("line");
    const auto events = std::int64_t(std::min(m_eventCount, core::kMostTraceEvents));
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
        binary::setEngineShape(object, m_config);
    }
    return object;
}

void TraceDecoder::readSlices()
{
    m_in.beginSection(Section::Slices, "slices");
    const std::size_t count = m_in.count("count", 8);
    // Each slice made as it is read: made first, then filled in, the list (236 MiB at 16,384
    // ranks) was written twice.
    m_trace.slices.reserve(count);
    // Positions are 32-bit (core/trace.h): a longer record is not one a run makes.
    const auto events = std::int64_t(std::min(m_eventCount, core::kMostTraceEvents));
    const auto changes = std::int64_t(std::min(m_changeCount, core::kMostTraceEvents));
    std::int64_t eventEnd = 0, changeEnd = 0;
    // Each string's number in m_trace.details, by its number in the file: a text is looked up
    // once, not once a slice (7.7 million at 16,384 ranks). 0: not looked up yet.
    std::vector<std::uint32_t> details;
    for (std::size_t i = 0; i < count; ++i) {
        m_in.at("slices", i);
        core::Slice &slice = m_trace.slices.emplace_back();
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
        const std::size_t text = m_in.stringNumber("detail");
        if (text >= details.size())
            details.resize(text + 1, 0);
        if (details[text] == 0) // intern(): the text's number + 1, so that 0 stays free
            details[text] = m_trace.details.intern(m_in.stringAt(text)) + 1;
        slice.detail = details[text] - 1;
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
    const auto events = std::int64_t(std::min(m_eventCount, core::kMostTraceEvents));
    const auto changes = std::int64_t(std::min(m_changeCount, core::kMostTraceEvents));
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

void TraceDecoder::readHeldOutside()
{
    m_in.beginSection(Section::HeldOutside, "held_outside");
    constexpr std::int64_t kMostBytes = std::int64_t(1) << 62;
    core::HeldOutside &held = m_trace.heldOutside;
    held.bytes = m_in.integer("bytes", 1, kMostBytes);
    held.memory = m_in.integer("memory", 0, kMostBytes);
    held.rank = int(m_in.whole("rank", std::max(m_trace.config.ranks - 1, 0)));
    held.line = m_in.integer32("line");
    for (std::int32_t &count : held.objects)
        count = int(m_in.whole("objects", ByteReader::kIntMax));
    m_in.endSection();
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

} // namespace rankstep::io::binary
