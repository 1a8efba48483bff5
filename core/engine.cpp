// SPDX-License-Identifier: MIT
// Engine: set-up, the checks every operation shares, storage bookkeeping and warnings.
#include "engine.h"

#include "algebra.h"
#include "sentences.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <numeric>

namespace rankstep::core {

std::string formatStopSeconds(double seconds)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", seconds);
    return text;
}

std::string describeCall(OpKind op, int layer)
{
    return CallName(op, layer).str();
}

std::string CallName::str() const
{
    std::string text = name; // appended to in place: a wait's text is made once per new wait
    if (layer >= 0) {
        text += "(layer ";
        text += std::to_string(layer);
        text += ')';
    }
    return text;
}

Engine::Engine(RunConfig config, RunLimits limits)
    : m_limits(limits)
    , m_mostOperations(limits.maxOperations > 0 ? std::min(limits.maxOperations, kMostTraceLink)
                                                : kMostTraceLink)
{
    // Korthikanti's kept activations depend on the tensor degree (core/objects.h).
    if (config.cost.sizes.activationTensorBytes > 0)
        config.cost.sizes.tensor = config.layout.tensor;
    m_trace.config = config;
    const int count = config.ranks > 0 ? config.ranks : 0;
    m_ranks.reserve(std::size_t(count));
    for (int r = 0; r < count; ++r) // each storage made with its sizes, not made and replaced
        m_ranks.emplace_back(config.cost.sizes);
    m_lookingAhead = count > limits.lookAheadFromRanks;
    if (count <= 64) {
        // A small run's maps hold a few layers' entries, and its record about what a reference
        // puzzle of its size records (up to about a megabyte): room for them at once, where they
        // grew by doubling and moved every entry, event and change. A many-rank run's maps grow
        // as they fill: room reserved for every rank would count in its peak memory.
        // Two keys a layer: FSDP keeps weights[layer, 0] and weights[layer] side by side. At 16
        // keys a rank's room is 4.8 kB (Storage::roomFor), 307 kB at 64 ranks.
        const int keys = std::min(2 * config.layers + 2, 16);
        const std::size_t room = Storage::roomFor(keys);
        std::byte *block = m_inlineRoom;
        if (room * m_ranks.size() > kInlineRoom) {
            m_storageRoom = std::make_unique_for_overwrite<std::byte[]>(room * m_ranks.size());
            block = m_storageRoom.get();
        }
        for (std::size_t r = 0; r < m_ranks.size(); ++r)
            m_ranks[r].storage.reserve(keys, block + r * room);
        // Per rank, layer and batch, the reference puzzles record up to 2.8 events, 10 changes
        // (gradient accumulation) and 0.8 slices; a record that outgrew its room moved it all.
        const auto factor = [](int n) {
            return std::size_t(std::clamp(n, 1, 1 << 16));
        };
        const std::size_t cells =
            std::size_t(count) * factor(config.layers) * factor(config.batches);
        // The three lists' first places are one block the record owns (core/placedvector.h).
        const std::size_t events = std::min<std::size_t>(3 * cells, 4096);
        const std::size_t changes = std::min<std::size_t>(10 * cells, 8192);
        const std::size_t slices = std::min<std::size_t>(cells, 2048);
        const std::size_t eventRoom = ChunkedVector<Event>::roomFor(events);
        const std::size_t changeRoom = ChangeLog::roomFor(changes);
        std::byte *record =
            m_trace.room.make(eventRoom + changeRoom + ChunkedVector<Slice>::roomFor(slices));
        m_trace.events.reserve(events, record);
        m_trace.changes.reserve(changes, record + eventRoom);
        m_trace.slices.reserve(slices, record + eventRoom + changeRoom);
    }
    m_trace.finalWeights.resize(std::size_t(count));
    // Group 0, every rank: groupIdFor knows it without an entry in m_groupIds.
    std::vector<int> everyone(static_cast<std::size_t>(count));
    std::iota(everyone.begin(), everyone.end(), 0);
    m_groups.push_back(std::move(everyone));
}

Error Engine::checkError(CallSite at, std::string message) const
{
    return Error{ErrorKind::Check, at.rank, at.line, std::move(message)};
}

// Why admit() refused `operation`, in its order of checks. admit() counted the operation when it
// got as far as the budget, so the count is compared, not counted again.
Status Engine::refuse(CallSite at, const char *operation)
{
    if (m_fatal)
        return *m_fatal;
    if (at.rank < 0 || at.rank >= ranks())
        return Error{ErrorKind::Usage, at.rank, at.line,
                     say(sentence::kRankNotInRun,
                         {operation, std::to_string(at.rank), std::to_string(ranks())})};
    m_ranks[std::size_t(at.rank)].lastLine = at.line;
    const std::string rank = std::to_string(at.rank), line = std::to_string(at.line);
    if (m_stopRequested.load(std::memory_order_acquire)) {
        fail(Error{
            ErrorKind::Stopped, at.rank, at.line,
            m_stopSeconds > 0
                ? say(sentence::kTimeLimitWhileRank, {formatStopSeconds(m_stopSeconds), rank, line})
                : say(sentence::kStoppedWhileRank, {m_stopReason, rank, line})});
        return *m_fatal;
    }
    if (m_operations > m_mostOperations) {
        fail(Error{ErrorKind::Stopped, at.rank, at.line,
                   say(sentence::kBudget, {std::to_string(m_mostOperations),
                                           std::to_string(m_trace.events.size()), rank, line})});
        return *m_fatal;
    }
    fail(Error{ErrorKind::Stopped, at.rank, at.line,
               say(sentence::kRecordFull, {std::to_string(m_trace.events.size()),
                                           std::to_string(m_trace.changes.size()), rank, line})});
    return *m_fatal;
}

Status Engine::checkLayer(CallSite at, const std::string &op, int layer) const
{
    if (layer >= 0 && layer < config().layers)
        return okStatus();
    return checkError(at,
                      say(sentence::kLayerNotExist,
                          {op, std::to_string(layer),
                           describeSet(IndexSet::range(0, config().layers), "layer", "layers")}));
}

Status Engine::checkBatches(CallSite at, const std::string &op, const IndexSet &batches) const
{
    const IndexSet valid = IndexSet::range(0, config().batches);
    if (batches.isSubsetOf(valid))
        return okStatus();
    const IndexSet missing = batches.minus(valid);
    return checkError(
        at, say(missing.size() == 1 ? sentence::kBatchNotExist : sentence::kBatchesNotExist,
                {op, describeSet(missing, "batch", "batches"),
                 describeSet(valid, "batch", "batches")}));
}

Status Engine::checkBatches(CallSite at, const CallName &op, const IndexSet &batches) const
{
    if (batches.isSubsetOf(IndexSet::range(0, config().batches)))
        return okStatus();
    return checkBatches(at, op.str(), batches);
}

Event Engine::makeEvent(CallSite at, OpKind op, int layer, SimTime duration) const
{
    Event event;
    event.rank = at.rank;
    event.op = op;
    event.layer = layer;
    event.start = m_ranks[std::size_t(at.rank)].clock;
    event.duration = duration;
    event.memory = m_ranks[std::size_t(at.rank)].storage.memory();
    event.line = at.line;
    return event;
}

Event &Engine::recordEvent(CallSite at, OpKind op, int layer, SimTime duration)
{
    RankState &rank = m_ranks[std::size_t(at.rank)];
    Event &event = m_trace.events.emplace_back();
    event.rank = at.rank;
    event.op = op;
    event.layer = layer;
    event.start = rank.clock;
    event.duration = duration;
    event.memory = rank.storage.memory();
    event.line = at.line;
    rank.clock = event.start + duration;
    return event;
}

Result<Object> Engine::add(CallSite at, const Object &a, const Object &b)
{
    for (const Object *term : {&a, &b})
        if (auto s = checkAttended(at, CallName{"add", a.layer}, *term); !s)
            return s.error();
    IndexSet overlap;
    Result<Object> sum = addGradients(a, b, &overlap);
    if (!sum)
        return checkError(at, sum.error().message);
    if (!overlap.empty())
        warn(at,
             say(overlap.size() == 1 ? sentence::kAddCountsTwice : sentence::kAddCountsTwiceMany,
                 {std::to_string(a.layer), describeSet(overlap, "batch", "batches")}));
    return sum;
}

void Engine::warn(CallSite at, std::string message)
{
    m_trace.warnings.push_back(Warning{at.rank, at.line, std::move(message)});
}

void Engine::requestStop(std::string reason, double timeLimitSeconds)
{
    std::lock_guard lock(m_stopMutex);
    if (m_stopRequested.load(std::memory_order_acquire))
        return;
    m_stopReason = std::move(reason); // written once, before the flag that publishes it
    m_stopSeconds = timeLimitSeconds;
    m_stopRequested.store(true, std::memory_order_release);
}

void Engine::mark(CallSite at, std::string label)
{
    m_trace.marks.push_back(
        Mark{at.rank, at.line, m_trace.events.size(), m_trace.changes.size(), std::move(label)});
}

Status Engine::store(CallSite at, MapKind map, const Key &key, const Object &object)
{
    if (auto s = admit(at, mapName(map)); !s)
        return s;
    Storage &storage = m_ranks[std::size_t(at.rank)].storage;
    // The record keeps the object; the rank's storage points at it (core/storage.h).
    const ChangeLog::Kept kept = m_trace.changes.keep(object);
    storage.set(map, key, kept.object);
    m_trace.changes.append(StorageChange{key, map, storage.memory(), kept.id,
                                         std::uint32_t(m_trace.events.size()), at.rank, at.line});
    return okStatus();
}

Status Engine::erase(CallSite at, MapKind map, const Key &key)
{
    if (auto s = admit(at, mapName(map)); !s)
        return s;
    Storage &storage = m_ranks[std::size_t(at.rank)].storage;
    if (!storage.erase(map, key))
        return checkError(at,
                          say(sentence::kNoSuchKey, {mapName(map), formatKey(key), mapName(map)}));
    m_trace.changes.append(StorageChange{key, map, storage.memory(), kNoObject,
                                         std::uint32_t(m_trace.events.size()), at.rank, at.line});
    return okStatus();
}

} // namespace rankstep::core
