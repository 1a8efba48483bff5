// SPDX-License-Identifier: MIT
// traceToBinary: what the GUI reads back from a run in a child process. Values that change
// little from one item to the next (a rank's clock and memory, the event count of changes, slice
// bounds) are written relative to the previous one, so that most take a single byte.
#include "tracebinary.h"
#include "binarycodec.h"

#include <algorithm>
#include <cmath>

namespace rankstep::io {
namespace {

using binary::ByteWriter;
using binary::Section;
using binary::wrapMinus;

// Where a rank's previous event ended and its memory then (or after its previous change).
struct RankState {
    std::int64_t end = 0;
    std::int64_t memory = 0;
};

std::uint64_t natural(int value) // negative values become huge and are refused by the reader
{
    return std::uint64_t(std::uint32_t(value));
}

std::size_t estimateBytes(const core::Trace &trace)
{
    return 24 * trace.events.size() + 20 * trace.changes.size() + 24 * trace.slices.size() + 4096;
}

class TraceEncoder
{
public:
    explicit TraceEncoder(const core::Trace &trace)
        : m_trace(trace), m_out(kTraceBinaryVersion, estimateBytes(trace))
    {}
    // Writes pieces and drains the record of `trace` as it goes (traceToBinaryPieces).
    struct Draining {};
    TraceEncoder(core::Trace &trace, Draining)
        : m_trace(trace), m_drained(&trace), m_out(kTraceBinaryVersion, estimateBytes(trace), true)
    {}
    std::string encode(const TraceJsonOptions &options)
    {
        writeAll(options);
        return m_out.take();
    }
    std::vector<std::string> encodePieces(const TraceJsonOptions &options)
    {
        writeAll(options);
        return m_out.takePieces();
    }

private:
    RankState &stateOf(int rank)
    {
        return rank >= 0 && std::size_t(rank) < m_ranks.size() ? m_ranks[std::size_t(rank)]
                                                               : m_otherRank;
    }
    void writeConfig(const TraceJsonOptions &options);
    void writeResult();
    void writeFigures(const core::Figures &figures);
    void writeDiagnosis(const core::Diagnosis &diagnosis);
    void writeAll(const TraceJsonOptions &options);
    // Each item of `list` (a record's, or the drained record's `drained` list) to `write`.
    template <typename List, typename Write>
    void writeEach(const List &list, List *drained, Write &&write)
    {
        if (drained == nullptr) {
            for (const auto &item : list)
                write(item);
            return;
        }
        drained->drain([&](const auto &item) {
            write(item);
            m_out.endPieceIfFull();
        });
    }
    void writeEvent(const core::Event &event);
    void writeChange(const core::StorageChange &change, std::size_t previousEventCount);
    void writeObject(const core::Object &object);
    void writeSlices();
    void writeNotes();
    void writeShape();
    void writeHeldOutside();
    void writeFinals();

    const core::Trace &m_trace;
    core::Trace *m_drained = nullptr; // the same trace, when its record goes as it is written
    ByteWriter m_out;
    std::vector<RankState> m_ranks;
    RankState m_otherRank; // ranks outside the run, which the reader refuses
};

void TraceEncoder::writeAll(const TraceJsonOptions &options)
{
    writeConfig(options);
    writeResult();
    m_ranks.assign(std::size_t(std::clamp(m_trace.config.ranks, 0, 1 << 16)), {});
    m_out.natural(m_trace.events.size());
    writeEach(m_trace.events, m_drained ? &m_drained->events : nullptr,
              [this](const core::Event &event) { writeEvent(event); });
    m_out.endSection(Section::Events);
    m_ranks.assign(m_ranks.size(), {});
    m_out.natural(m_trace.changes.size());
    std::size_t eventCount = 0;
    writeEach(m_trace.changes, m_drained ? &m_drained->changes : nullptr,
              [this, &eventCount](const core::StorageChange &change) {
                  writeChange(change, eventCount);
                  eventCount = change.eventCount;
              });
    m_out.endSection(Section::Changes);
    writeSlices();
    writeNotes();
    writeFinals();
    if (!m_trace.overlapped.empty()) { // only then: every other trace stays as it was
        m_ranks.assign(m_ranks.size(), {});
        m_out.natural(m_trace.overlapped.size());
        for (const core::Event &event : m_trace.overlapped)
            writeEvent(event);
        m_out.endSection(Section::Overlapped);
    }
    writeShape();
    writeHeldOutside();
}

void TraceEncoder::writeConfig(const TraceJsonOptions &options)
{
    const core::RunConfig &config = m_trace.config;
    const core::CostModel &cost = config.cost;
    m_out.string(options.file);
    m_out.string(options.function);
    m_out.natural(natural(config.ranks));
    m_out.natural(natural(config.layers));
    m_out.natural(natural(config.batches));
    for (core::SimTime time :
         {cost.forwardPerBatch, cost.backwardPerBatch, cost.loss, cost.update, cost.allreduce,
          cost.allgather, cost.scatterreduce, cost.passTo, cost.receive})
        m_out.time(time);
    m_out.integer(cost.sizes.hidden);
    m_out.integer(cost.sizes.length);
    m_out.endSection(Section::Config);
}

void TraceEncoder::writeResult()
{
    m_out.byte(unsigned(m_trace.status));
    m_out.byte(m_trace.check.passed ? 1 : 0);
    m_out.string(m_trace.check.message);
    writeFigures(m_trace.figures);
    m_out.byte(m_trace.error ? 1 : 0);
    if (const auto &error = m_trace.error) {
        m_out.byte(unsigned(error->kind));
        m_out.integer(error->rank);
        m_out.integer(error->line);
        m_out.string(error->message);
        m_out.integer(error->column);
        m_out.string(error->traceback);
    }
    m_out.byte(m_trace.diagnosis ? 1 : 0);
    if (m_trace.diagnosis)
        writeDiagnosis(*m_trace.diagnosis);
    m_out.endSection(Section::Result);
}

void TraceEncoder::writeFigures(const core::Figures &figures)
{
    m_out.byte(figures.hasEvents ? 1 : 0);
    m_out.time(figures.timesteps);
    m_out.time(figures.endTime);
    m_out.integer(figures.maxMemory);
    m_out.integer(figures.maxMemoryRank);
    m_out.time(figures.maxMemoryTime);
    m_out.natural(figures.ranks.size());
    for (const core::RankFigures &rank : figures.ranks) {
        m_out.time(rank.compute);
        m_out.time(rank.communication);
        m_out.time(rank.idle);
        m_out.integer(rank.peakMemory);
    }
}

void TraceEncoder::writeDiagnosis(const core::Diagnosis &diagnosis)
{
    m_out.byte(unsigned(diagnosis.kind));
    m_out.natural(diagnosis.ranks.size());
    for (const core::RankWait &wait : diagnosis.ranks) {
        m_out.natural(natural(wait.rank));
        m_out.byte(wait.finished ? 1 : 0);
        m_out.integer(wait.line);
        m_out.string(wait.waitsFor);
        m_out.natural(wait.waitsOn.size());
        for (int rank : wait.waitsOn)
            m_out.natural(natural(rank));
    }
}

void TraceEncoder::writeEvent(const core::Event &event)
{
    RankState &state = stateOf(event.rank);
    const bool peer = event.peer != -1;
    const bool link = event.link >= 0;
    m_out.byte(unsigned(event.op) | (peer ? binary::kEventPeer : 0U) |
               (link ? binary::kEventLink : 0U) | (event.gradient ? binary::kEventGradient : 0U));
    m_out.natural(natural(event.rank));
    m_out.natural(std::uint64_t(std::int64_t(event.layer) + 1));
    m_out.indices(event.batches);
    m_out.indices(event.shards);
    m_out.natural(natural(event.shardTotal));
    m_out.integer(wrapMinus(event.start.ticks(), state.end));
    m_out.time(event.duration);
    m_out.integer(wrapMinus(event.memory, state.memory));
    m_out.integer(event.line);
    if (peer)
        m_out.integer(event.peer);
    if (link)
        m_out.natural(std::uint64_t(event.link));
    state.end = binary::wrapPlus(event.start.ticks(), event.duration.ticks());
    state.memory = event.memory;
}

void TraceEncoder::writeChange(const core::StorageChange &change, std::size_t previousEventCount)
{
    const core::Key &key = change.key;
    m_out.byte(unsigned(change.map) | (key.tuple ? binary::kChangeTuple : 0U) |
               (change.isSet() ? binary::kChangeSet : 0U));
    m_out.natural(natural(change.rank));
    if (key.tuple) {
        m_out.natural(key.parts.size());
        for (int part : key.parts)
            m_out.integer(part);
    } else {
        m_out.integer(key.parts.empty() ? 0 : key.parts.front());
    }
    if (change.isSet()) // the objects outlive a drained record's changes (ChangeLog::drain)
        writeObject(m_trace.changes.objectAt(change.objectId));
    m_out.integer(change.line);
    m_out.integer(wrapMinus(std::int64_t(change.eventCount), std::int64_t(previousEventCount)));
    RankState &state = stateOf(change.rank);
    m_out.integer(wrapMinus(change.memoryAfter, state.memory));
    state.memory = change.memoryAfter;
}

void TraceEncoder::writeObject(const core::Object &object)
{
    const bool shaped = binary::hasEngineShape(object, m_trace.config);
    const unsigned tensor = (object.slice ? 1U : 0U) | (object.partial ? 2U : 0U) |
                            (unsigned(object.block & 3U) << 2) |
                            (object.context ? 16U : 0U); // a context chunk's (docs/trace-format.md)
    m_out.byte(unsigned(object.kind) | (shaped ? 0U : binary::kObjectShape) |
               (tensor != 0 ? binary::kObjectTensor : 0U) |
               (object.expert >= 0 ? binary::kObjectExpert : 0U));
    if (tensor != 0)
        m_out.byte(tensor);
    m_out.integer(object.layer);
    m_out.integer(object.step);
    m_out.indices(object.batches);
    m_out.indices(object.shards);
    m_out.natural(natural(object.total));
    if (object.expert >= 0)
        m_out.natural(natural(object.expert));
    if (!shaped) {
        m_out.integer(object.layers);
        m_out.integer(object.totalBatches);
    }
}

void TraceEncoder::writeSlices()
{
    m_out.natural(m_trace.slices.size());
    std::size_t eventEnd = 0, changeEnd = 0;
    writeEach(
        m_trace.slices, m_drained ? &m_drained->slices : nullptr, [&](const core::Slice &slice) {
            m_out.natural(natural(slice.rank));
            m_out.integer(wrapMinus(std::int64_t(slice.eventBegin), std::int64_t(eventEnd)));
            m_out.natural(slice.eventEnd - slice.eventBegin);
            m_out.integer(wrapMinus(std::int64_t(slice.changeBegin), std::int64_t(changeEnd)));
            m_out.natural(slice.changeEnd - slice.changeBegin);
            m_out.byte(unsigned(slice.end));
            m_out.string(m_trace.detail(slice));
            m_out.integer(slice.line);
            eventEnd = slice.eventEnd;
            changeEnd = slice.changeEnd;
        });
    m_out.endSection(Section::Slices);
}

void TraceEncoder::writeNotes()
{
    m_out.natural(m_trace.warnings.size());
    for (const core::Warning &warning : m_trace.warnings) {
        m_out.integer(warning.rank);
        m_out.integer(warning.line);
        m_out.string(warning.message);
    }
    m_out.endSection(Section::Warnings);
    m_out.natural(m_trace.marks.size());
    for (const core::Mark &mark : m_trace.marks) {
        m_out.integer(mark.rank);
        m_out.integer(mark.line);
        m_out.natural(mark.eventCount);
        m_out.natural(mark.changeCount);
        m_out.string(mark.label);
    }
    m_out.endSection(Section::Marks);
}

// The run's costs and layout past the notebook's, each only when set: every other trace stays as
// it was.
void TraceEncoder::writeShape()
{
    const core::CostModel &cost = m_trace.config.cost;
    core::CostModel even = cost;
    even.splitBackwardEvenly();
    if (cost.backwardInputPerBatch != even.backwardInputPerBatch ||
        cost.backwardWeightPerBatch != even.backwardWeightPerBatch) {
        m_out.time(cost.backwardInputPerBatch);
        m_out.time(cost.backwardWeightPerBatch);
        m_out.endSection(Section::Halves);
    }
    const core::Layout &layout = m_trace.config.layout;
    if (!layout.isPlain()) {
        for (int degree : {layout.tensor, layout.context, layout.pipeline, layout.expert})
            m_out.natural(natural(degree));
        m_out.endSection(Section::Layout);
    }
    if (cost.sizes.activationTensorBytes > 0) {
        m_out.integer(cost.sizes.activationTensorBytes);
        m_out.endSection(Section::TensorActivations);
    }
    if (cost.routerSkew != 0) {
        m_out.natural(natural(cost.routerSkew));
        m_out.endSection(Section::Router);
    }
    if (cost.deviceMemory > 0) {
        m_out.integer(cost.deviceMemory);
        m_out.endSection(Section::Device);
    }
}

// Only when a rank held something outside its storage at an operation: other traces stay as
// they were.
void TraceEncoder::writeHeldOutside()
{
    const core::HeldOutside &held = m_trace.heldOutside;
    if (held.bytes <= 0)
        return;
    m_out.integer(held.bytes);
    m_out.integer(held.memory);
    m_out.natural(natural(held.rank));
    m_out.integer(held.line);
    for (const std::int32_t count : held.objects)
        m_out.natural(natural(count));
    m_out.endSection(Section::HeldOutside);
}

void TraceEncoder::writeFinals()
{
    m_out.natural(m_trace.finalWeights.size());
    for (const core::WeightsByLayer &rank : m_trace.finalWeights) {
        m_out.natural(rank.size());
        for (const auto &[layer, object] : rank) {
            m_out.integer(layer);
            writeObject(object);
        }
    }
    m_out.endSection(Section::Finals);
    if (!m_trace.config.cost.realScale())
        return; // the notebook's: nothing more, the files stay as they were
    const core::CostModel &cost = m_trace.config.cost;
    m_out.string(cost.name);
    m_out.integer(cost.sizes.weightBytes);
    m_out.integer(cost.sizes.gradientBytes);
    m_out.integer(cost.sizes.optimizerBytes);
    m_out.integer(cost.sizes.activationBytes);
    m_out.integer(cost.network->gpusPerNode);
    m_out.integer(std::llround(cost.network->intraNodeBandwidth));
    m_out.integer(std::llround(cost.network->interNodeBandwidth));
    m_out.integer(std::llround(cost.network->latencySeconds * 1e9));
    m_out.endSection(Section::Cost);
}

} // namespace

std::string traceToBinary(const core::Trace &trace, const TraceJsonOptions &options)
{
    return TraceEncoder(trace).encode(options);
}

std::vector<std::string> traceToBinaryPieces(core::Trace &trace, const TraceJsonOptions &options)
{
    return TraceEncoder(trace, TraceEncoder::Draining{}).encodePieces(options);
}

} // namespace rankstep::io
