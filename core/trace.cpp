// SPDX-License-Identifier: MIT
#include "trace.h"
#include "sentences.h"

#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <utility>

namespace rankstep::core {

bool sameObject(const Object *a, const Object *b)
{
    return a && b ? *a == *b : a == b;
}

ChangeLog::ChangeLog(const ChangeLog &other)
{
    reserve(other.size());
    for (const StorageChange &change : other)
        append(change, change.isSet() ? std::optional<Object>(other.objectAt(change.objectId))
                                      : std::nullopt);
}

ChangeLog::ChangeLog(ChangeLog &&other) noexcept
    : m_changes(std::move(other.m_changes))
    , m_objects(std::move(other.m_objects))
    , m_nextObject(std::exchange(other.m_nextObject, nullptr))
    , m_objectsEnd(std::exchange(other.m_objectsEnd, nullptr))
    , m_nextId(std::exchange(other.m_nextId, 0))
    , m_ownsHeap(std::exchange(other.m_ownsHeap, false))
    , m_recent(std::exchange(other.m_recent, noRecent()))
{}

void ChangeLog::swap(ChangeLog &other) noexcept
{
    m_changes.swap(other.m_changes);
    m_objects.swap(other.m_objects);
    std::swap(m_nextObject, other.m_nextObject);
    std::swap(m_objectsEnd, other.m_objectsEnd);
    std::swap(m_nextId, other.m_nextId);
    std::swap(m_ownsHeap, other.m_ownsHeap);
    std::swap(m_recent, other.m_recent);
}

const StorageChange &ChangeLog::append(StorageChange change, std::optional<Object> object)
{
    change.objectId = object ? keep(*object).id : kNoObject;
    return append(std::move(change));
}

void ChangeLog::reserve(std::size_t count)
{
    m_changes.reserve(count);
    if (m_objects.empty() && count > 0)
        startObjectBlock(detail::addOwnPlaces(m_objects, std::min(count, kChunkElements<Object>)));
}

std::size_t ChangeLog::roomFor(std::size_t count)
{
    return ChunkedVector<StorageChange>::roomFor(count) + detail::kPlacesListBytes<Object> +
           roomBytes(std::min(count, kChunkElements<Object>) * sizeof(Object));
}

void ChangeLog::reserve(std::size_t count, std::byte *room)
{
    if (m_objects.capacity() > 0 || count == 0) {
        reserve(count);
        return;
    }
    m_changes.reserve(count, room);
    room += ChunkedVector<StorageChange>::roomFor(count);
    m_objects.place(room, detail::kPlacesListRoom);
    room += detail::kPlacesListBytes<Object>;
    startObjectBlock(m_objects.emplace_back(reinterpret_cast<Object *>(room),
                                            std::min(count, kChunkElements<Object>), false));
}

void ChangeLog::startObjectBlock(const detail::Places<Object> &block)
{
    m_nextId = ObjectId(m_objects.size() - 1) << kBlockBits;
    m_nextObject = block.data;
    m_objectsEnd = block.data + block.capacity;
}

void ChangeLog::addObjectBlock()
{
    // Up to 4 MiB a block, as the chunks of the change list (core/chunkedvector.h).
    constexpr std::size_t kFirst = 64, kLargest = kChunkElements<Object>;
    if (m_objects.size() == kMostObjectBlocks) // more objects than their numbers can name
        throw std::bad_alloc();
    const std::size_t size =
        m_objects.empty() ? kFirst : std::min(2 * m_objects.back().capacity, kLargest);
    startObjectBlock(detail::addOwnPlaces(m_objects, size));
}

void ChangeLog::clear()
{
    // Destroying a change or an object frees only what it holds on the heap: without any, a
    // long run's record (105 MB of changes and objects at 1024 ranks x 96 layers) is released
    // without being read back first (docs/benchmarks.md).
    if (m_ownsHeap)
        m_changes.clear();
    else
        m_changes.releaseWithoutDestroying();
    for (std::size_t b = 0; b < m_objects.size(); ++b) {
        detail::Places<Object> &block = m_objects[b];
        // Every block but the last is full.
        if (m_ownsHeap)
            std::destroy_n(block.data, b + 1 < m_objects.size()
                                           ? block.capacity
                                           : std::size_t(m_nextObject - block.data));
        block.release();
    }
    m_objects.clear();
    m_nextObject = m_objectsEnd = nullptr;
    m_nextId = 0;
    m_ownsHeap = false;
    m_recent = noRecent();
}

std::uint32_t SliceDetails::intern(const std::string &text)
{
    if (text.empty())
        return 0;
    // The texts addNew() added since the last intern() first, so that each keeps its number.
    for (; m_indexed < m_texts.size(); ++m_indexed)
        m_ids.try_emplace(m_texts[m_indexed], std::uint32_t(m_indexed + 1));
    const auto [it, added] = m_ids.try_emplace(text, std::uint32_t(m_texts.size() + 1));
    if (added) {
        m_texts.push_back(text);
        ++m_indexed;
    }
    return it->second;
}

std::uint32_t SliceDetails::addNew(std::string text)
{
    m_texts.push_back(std::move(text));
    return std::uint32_t(m_texts.size());
}

const std::string &SliceDetails::operator[](std::uint32_t id) const
{
    static const std::string none;
    return id == 0 || id > m_texts.size() ? none : m_texts[id - 1];
}

const char *sliceEndName(SliceEnd end)
{
    switch (end) {
        case SliceEnd::Collective:
            return "collective";
        case SliceEnd::Receive:
            return "receive";
        case SliceEnd::Finished:
            return "finished";
        case SliceEnd::Failed:
            return "failed";
    }
    return "?";
}

int HeldOutside::count() const
{
    int all = 0;
    for (const std::int32_t some : objects)
        all += some;
    return all;
}

const char *runStatusName(RunStatus status)
{
    switch (status) {
        case RunStatus::Ok:
            return "ok";
        case RunStatus::Error:
            return "error";
        case RunStatus::Deadlock:
            return "deadlock";
        case RunStatus::Stopped:
            return "stopped";
    }
    return "error";
}

Figures computeFigures(const ChunkedVector<Event> &events, int ranks)
{
    Figures figures;
    figures.ranks.resize(std::size_t(std::max(ranks, 0)));
    // Each rank's last start: on the stack up to 64 ranks (every run made an allocation for it).
    constexpr std::size_t kOnStack = 64;
    std::array<std::optional<SimTime>, kOnStack> onStack;
    std::vector<std::optional<SimTime>> onHeap;
    std::span<std::optional<SimTime>> lastStart(onStack.data(),
                                                std::min(figures.ranks.size(), kOnStack));
    if (figures.ranks.size() > kOnStack) {
        onHeap.resize(figures.ranks.size());
        lastStart = onHeap;
    }
    for (const Event &event : events) {
        if (event.rank < 0 || std::size_t(event.rank) >= figures.ranks.size())
            continue;
        RankFigures &rank = figures.ranks[std::size_t(event.rank)];
        (isCommunication(event.op) ? rank.communication : rank.compute) += event.duration;
        rank.peakMemory = std::max(rank.peakMemory, event.memory);
        lastStart[std::size_t(event.rank)] = event.start; // events of a rank are in clock order
        figures.endTime = std::max(figures.endTime, event.end());
        const bool better =
            !figures.hasEvents || event.memory > figures.maxMemory ||
            (event.memory == figures.maxMemory &&
             (event.rank < figures.maxMemoryRank ||
              (event.rank == figures.maxMemoryRank && event.start < figures.maxMemoryTime)));
        if (better) {
            figures.maxMemory = event.memory;
            figures.maxMemoryRank = event.rank;
            figures.maxMemoryTime = event.start;
        }
        figures.hasEvents = true;
    }
    for (const auto &start : lastStart)
        if (start)
            figures.timesteps = std::max(figures.timesteps, *start);
    for (RankFigures &rank : figures.ranks)
        rank.idle = figures.endTime - rank.compute - rank.communication;
    return figures;
}

namespace {

// What the final weights of one layer show, gathered rank by rank in one pass over every rank's
// weights (a lookup per layer and rank took 3 % of a run at 1024 ranks x 96 layers).
struct LayerFinals {
    bool any = false;        // some rank set one
    bool anyUpdated = false; // some rank's is at step 1
    int badRank = -1;        // the lowest rank whose weight is not at step 1
    int badStep = 0;
    bool complete = false; // some rank's holds every shard
    // The shard count of the lowest rank's weight, and the shards of every weight with that
    // count (a weight with another count is not counted).
    int total = -1;
    IndexSet shards;
};

// What is wrong with one layer's final weights, without the layer: identical problems of several
// layers are reported once.
std::string describeProblem(const LayerFinals &layer)
{
    if (!layer.any)
        return sentence::kNoFinalWeight;
    if (layer.badRank >= 0) {
        if (layer.badStep == 0 && !layer.anyUpdated)
            return sentence::kNeverUpdated;
        return say(sentence::kFinalAtStep,
                   {std::to_string(layer.badRank), std::to_string(layer.badStep)});
    }
    if (layer.complete || layer.shards == IndexSet::range(0, layer.total))
        return {};
    return say(sentence::kShardsNeverUpdated,
               {formatSet(layer.shards), std::to_string(layer.total),
                formatSet(IndexSet::range(0, layer.total).minus(layer.shards))});
}

// "layer 3", "layers 0-7", "layers 0, 2, 5".
std::string formatLayers(const std::vector<int> &layers)
{
    const bool contiguous = layers.back() - layers.front() + 1 == int(layers.size());
    if (layers.size() == 1)
        return "layer " + std::to_string(layers.front());
    if (contiguous)
        return "layers " + std::to_string(layers.front()) + "-" + std::to_string(layers.back());
    std::string text = "layers ";
    for (std::size_t i = 0; i < layers.size(); ++i)
        text += (i == 0 ? "" : ", ") + std::to_string(layers[i]);
    return text;
}

} // namespace

CheckResult checkFinalWeights(const std::vector<WeightsByLayer> &finalWeights, int layers)
{
    std::vector<LayerFinals> finals(std::size_t(std::max(layers, 0)));
    for (std::size_t r = 0; r < finalWeights.size(); ++r)
        for (const auto &[layer, weight] : finalWeights[r]) {
            if (layer < 0 || layer >= layers)
                continue;
            LayerFinals &f = finals[std::size_t(layer)];
            f.any = true;
            f.anyUpdated = f.anyUpdated || weight.step == 1;
            if (weight.step != 1 && f.badRank < 0) {
                f.badRank = int(r);
                f.badStep = weight.step;
            }
            f.complete = f.complete || weight.isComplete();
            if (f.total < 0 || weight.total == f.total) {
                f.total = weight.total;
                f.shards |= weight.shards;
            }
        }
    std::vector<std::pair<std::string, std::vector<int>>> problems; // in order of first layer
    for (int layer = 0; layer < layers; ++layer) {
        std::string problem = describeProblem(finals[std::size_t(layer)]);
        if (problem.empty())
            continue;
        auto same = std::find_if(problems.begin(), problems.end(),
                                 [&](const auto &p) { return p.first == problem; });
        if (same == problems.end())
            problems.push_back({std::move(problem), {layer}});
        else
            same->second.push_back(layer);
    }
    CheckResult result;
    for (const auto &[problem, where] : problems)
        result.message += (result.message.empty() ? "" : "; ") +
                          say(sentence::kCheckProblem, {formatLayers(where), problem});
    result.passed = result.message.empty();
    if (result.passed)
        result.message = sentence::kCorrect;
    return result;
}

} // namespace rankstep::core
