// SPDX-License-Identifier: MIT
#pragma once

#include "chunkedvector.h"
#include "costmodel.h"
#include "error.h"
#include "layout.h"
#include "objects.h"
#include "opkind.h"
#include "simtime.h"
#include "storage.h"
#include "weightsbylayer.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace rankstep::core {

struct RunConfig {
    int ranks = 1;
    int layers = 2;
    int batches = 4;
    CostModel cost;
    Layout layout = {}; // tensor, context, pipeline and expert degrees (core/layout.h)
};

// The largest rank an event's peer holds in its 23 bits; readers open at most 2^16 ranks.
inline constexpr int kMostPeer = (1 << 22) - 1;
// The largest message or collective id an event's link holds in its 32 bits: the engine makes an
// id per operation and stops a run at this many (RunLimits), and readers refuse a larger one.
inline constexpr std::int64_t kMostTraceLink = std::numeric_limits<std::int32_t>::max();

// One timed operation of one rank. `memory` is the rank's memory when the call was made.
struct Event {
    // Largest members first, each as narrow as what it holds allows: 64 bytes instead of 88 (the
    // Llama 3 layout at 16,384 ranks records 18 million events: 1.15 GB instead of 1.58).
    IndexSet batches; // one word each (core/indexset.h)
    IndexSet shards;
    SimTime start;
    SimTime duration;
    std::int64_t memory = 0;
    std::int32_t link = -1; // pass_to/receive: message id; collectives: collective id
    int rank = 0;
    int layer = -1; // -1: not about a layer (a message that is no puzzle object)
    int shardTotal = 1;
    int line = 0;
    int peer : 23 = -1; // pass_to: receiver; receive: sender (written by setPeer)
    // A message or a collective that carried weight gradients: what an update may have been
    // given by another rank (core/lessons/verdict.cpp). Beside the peer, where it costs no byte.
    bool gradient : 1 = false;
    OpKind op = OpKind::Forward; // in the byte after peer's three
    SimTime end() const { return start + duration; }
    // `peerRank` from -1 to kMostPeer, as every writer checks it (a rank of the run, or none).
    void setPeer(int peerRank) { peer = peerRank < 0 ? -1 : peerRank & kMostPeer; }
};
static_assert(sizeof(Event) == 64, "a run at 16,384 ranks records 18 million events");

// The most events, and the most storage changes, a trace holds: a storage change counts the
// events before it, and a slice its events and changes, in 32 bits (with room for a
// collective's events past the limit).
inline constexpr std::size_t kMostTraceEvents = 0xF0000000U;

// The number of an object a ChangeLog keeps (ChangeLog::object); kNoObject names none.
using ObjectId = std::uint32_t;
inline constexpr ObjectId kNoObject = std::numeric_limits<ObjectId>::max();

// A set (object present) or a delete (object absent) in one rank's storage.
struct StorageChange {
    // 40 bytes: the object a set stores lives in the trace's ChangeLog, named by its 32-bit
    // number there (a pointer took 8 bytes: 157 MiB of the 20.6 million changes a run records at
    // 16,384 ranks), and `map` sits in the key's last byte of padding. A delete carries none.
    [[no_unique_address]] Key key;
    MapKind map = MapKind::Weights;
    std::int64_t memoryAfter = 0;
    ObjectId objectId = kNoObject; // the object set (ChangeLog::object); kNoObject: a delete
    std::uint32_t eventCount = 0;  // events recorded in the trace before this change
    int rank = 0;
    int line = 0;
    bool isSet() const { return objectId != kNoObject; }
};
static_assert(sizeof(StorageChange) == 40, "a run at 16,384 ranks records 20.6 million changes");

// Two changes' objects are the same puzzle object (both deletes, or equal objects).
bool sameObject(const Object *a, const Object *b);

// The storage changes of a run in order, and the objects they set, each change naming its object
// by number (object()). Appending moves no object, so an object's place lasts as long as the log;
// a copy of the log holds its own copy of the objects.
class ChangeLog
{
public:
    using value_type = StorageChange;
    using size_type = std::size_t;
    using const_iterator = ChunkedVector<StorageChange>::const_iterator;
    using iterator = const_iterator;

    ChangeLog() = default;
    ChangeLog(const ChangeLog &other);
    ChangeLog(ChangeLog &&other) noexcept;
    // For copies and moves alike: what this held is destroyed before the assignment returns, so
    // room it was placed in must still be there (core/placedvector.h, PlacedRoom).
    ChangeLog &operator=(ChangeLog other) noexcept
    {
        swap(other);
        return *this;
    }
    ~ChangeLog() { clear(); }
    void swap(ChangeLog &other) noexcept;

    // The object `change` sets, kept here; null for a delete. It lasts as long as the log.
    const Object *object(const StorageChange &change) const
    {
        return change.isSet() ? &objectAt(change.objectId) : nullptr;
    }
    // The object kept here as number `id` (not kNoObject).
    const Object &objectAt(ObjectId id) const
    {
        return m_objects[id >> kBlockBits].data[id & kBlockMask];
    }

    // Whether an object kept here meets `test`, called with a const Object &: each is one that a
    // change sets, so this answers for the changes while reading each distinct object once
    // (3.2 million of them at 16,384 ranks, in order, against 20.6 million changes).
    template <typename F>
    bool anyObject(F &&test) const
    {
        for (std::size_t b = 0; b < m_objects.size(); ++b) {
            const Object *first = m_objects[b].data;
            const Object *last =
                b + 1 < m_objects.size() ? first + m_objects[b].capacity : m_nextObject;
            if (std::any_of(first, last, test))
                return true;
        }
        return false;
    }

    // Appends `change`; its objectId is replaced by the number of a copy of `object` kept here
    // (none: a delete).
    const StorageChange &append(StorageChange change, std::optional<Object> object);
    // An object keep() kept: its number, and where it lies.
    struct Kept {
        ObjectId id = kNoObject;
        const Object *object = nullptr;
    };
    // The same in two steps, for a writer that needs the kept object's place before the change
    // is complete (the engine's storage points at it, and the change records the memory after
    // the set): keep() keeps the object of the next change, which append(change) then records
    // with change.objectId set to the number keep() returned (kNoObject: a delete).
    // `object` may be one kept here (a learner setting what get() gave): no block ever moves, so
    // it lasts while the copy is made.
    // An object equal to one kept lately is not kept again: the ranks of a tensor group set the
    // same activations one after another, and the ranks of a data-parallel group the same
    // weights, so a long run's changes name far fewer objects than they set (nothing reads
    // where an object lies, only what it is).
    Kept keep(const Object &object)
    {
        ObjectId &recent = m_recent[recentSlot(object)];
        if (recent != kNoObject) {
            const Object &found = objectAt(recent);
            if (found == object)
                return {recent, &found};
        }
        if (m_nextObject == m_objectsEnd) [[unlikely]]
            addObjectBlock();
        const Object *kept = ::new (static_cast<void *>(m_nextObject)) Object(object);
        ++m_nextObject;
        m_ownsHeap = m_ownsHeap || object.batches.onHeap() || object.shards.onHeap();
        recent = m_nextId++;
        return {recent, kept};
    }
    const StorageChange &append(const StorageChange &change)
    {
        m_ownsHeap = m_ownsHeap || change.key.parts.onHeap();
        return m_changes.emplace_back(change);
    }
    const StorageChange &append(StorageChange &&change)
    {
        m_ownsHeap = m_ownsHeap || change.key.parts.onHeap();
        return m_changes.emplace_back(std::move(change));
    }

    std::size_t size() const { return m_changes.size(); }
    bool empty() const { return m_changes.empty(); }
    const StorageChange &operator[](std::size_t i) const { return m_changes[i]; }
    const StorageChange &front() const { return m_changes.front(); }
    const StorageChange &back() const { return m_changes.back(); }
    const_iterator begin() const { return m_changes.begin(); }
    const_iterator end() const { return m_changes.end(); }
    std::reverse_iterator<const_iterator> rbegin() const { return m_changes.rbegin(); }
    std::reverse_iterator<const_iterator> rend() const { return m_changes.rend(); }
    std::size_t indexOf(const StorageChange *change) const { return m_changes.indexOf(change); }
    // Room for `count` changes, and for as many objects in the first block.
    void reserve(std::size_t count);
    // The same in `room`, which holds roomFor(count) bytes aligned for any object and outlives
    // this log's use of it (core/chunkedvector.h), when the log is empty.
    void reserve(std::size_t count, std::byte *room);
    static std::size_t roomFor(std::size_t count);
    void clear();
    // Hands each change to `visit` in order, giving their chunks back as it goes, and then
    // clears the log (ChunkedVector::drain): for a record read one last time. The objects stay
    // until then, so that `visit` may read them.
    template <typename F>
    void drain(F &&visit)
    {
        try {
            m_changes.drain(visit, m_ownsHeap);
        } catch (...) {
            clear();
            throw;
        }
        clear();
    }
    // Whether a change's key or an object holds memory on the heap, so that clear() destroys
    // each change and object (else it releases their blocks unread).
    bool ownsHeap() const { return m_ownsHeap; }

private:
    // An object's number: its block's in the high bits, its place in the block in the low
    // kBlockBits. A block holds at most kChunkElements<Object>, so the low bits of kNoObject
    // name no place; at most 2^15 blocks (3.4 billion objects, far more than a trace file of
    // 1 GiB holds).
    static constexpr int kBlockBits = std::bit_width(kChunkElements<Object>);
    static constexpr ObjectId kBlockMask = (ObjectId(1) << kBlockBits) - 1;
    static_assert(kChunkElements<Object> <= kBlockMask, "no place is numbered as kNoObject");
    static constexpr std::size_t kMostObjectBlocks = std::size_t(1) << (32 - kBlockBits);
    void addObjectBlock(); // room for the next objects keep() keeps
    // Where keep() looks for an equal object kept lately: a hash of the fields that tell apart
    // the objects one step of a run sets.
    static std::size_t recentSlot(const Object &object)
    {
        std::uint64_t h = std::uint64_t(object.kind) | std::uint64_t(unsigned(object.layer)) << 8 |
                          std::uint64_t(unsigned(object.step)) << 32;
        h = (h ^ object.batches.rangeHint()) * 0x9e3779b97f4a7c15ULL;
        h = (h ^ object.shards.rangeHint() ^ std::uint64_t(unsigned(object.total)) << 20) *
            0x9e3779b97f4a7c15ULL;
        return std::size_t(h >> (64 - kRecentBits));
    }
    static constexpr int kRecentBits = 10;
    using Recent = std::array<ObjectId, std::size_t(1) << kRecentBits>;
    static constexpr Recent noRecent()
    {
        Recent none{};
        none.fill(kNoObject);
        return none;
    }
    void startObjectBlock(const detail::Places<Object> &block); // the last block, empty
    ChunkedVector<StorageChange> m_changes;
    // Blocks that never grow past the size they were made with, so no object moves; each twice
    // the last up to kChunkElements<Object> (4 MiB; a short run takes little, a long one few
    // allocations). Every block but the last is full.
    PlacedVector<detail::Places<Object>> m_objects;
    Object *m_nextObject = nullptr; // the last block's first free place
    Object *m_objectsEnd = nullptr; // the end of its places
    ObjectId m_nextId = 0;          // the number of the object at m_nextObject
    // A key of more than two ints or a set that is no range (ownsHeap()). Nothing here changes
    // once appended, so it is known exactly. Most runs hold none.
    bool m_ownsHeap = false;
    // Objects kept lately, by recentSlot(): their numbers here (or kNoObject).
    Recent m_recent = noRecent();
};

enum class SliceEnd : std::uint8_t { Collective, Receive, Finished, Failed };
const char *sliceEndName(SliceEnd end);

// The texts slices end with, each distinct text once: a long run's 294,624 slices name a few
// hundred collectives, and a text per slice took a string allocation per resumption (5 % of a
// reference puzzle's run) and 32 bytes more per slice. Number 0 is "".
class SliceDetails
{
public:
    // The number of `text`, added when new.
    std::uint32_t intern(const std::string &text);
    // The number of `text`, which the caller knows is not here yet and is not empty: added
    // without a lookup. The engine knows its waits' texts apart by what they wait for, and the
    // lookup and the copy it kept for it took 3 % of a reference puzzle's run. intern() finds
    // the text later all the same.
    std::uint32_t addNew(std::string text);
    // The reference lasts until the next intern() or addNew() (which may move the texts).
    const std::string &operator[](std::uint32_t id) const;
    std::size_t size() const { return m_texts.size() + 1; }

private:
    std::vector<std::string> m_texts;                     // from number 1 on
    std::unordered_map<std::string, std::uint32_t> m_ids; // of the first m_indexed texts
    std::size_t m_indexed = 0;
};

// One resumption of one rank: the events and changes it produced and why it stopped.
struct Slice {
    // Positions in 32 bits (a trace holds at most kMostTraceEvents events and changes), the text
    // a number in Trace::details: 32 bytes instead of 64 (FSDP at 1024 ranks records 294,624).
    std::uint32_t detail = 0; // Trace::detail(): "allreduce(layer 0)", "receive from rank 2", ...
    std::uint32_t eventBegin = 0, eventEnd = 0;
    std::uint32_t changeBegin = 0, changeEnd = 0;
    int rank = 0;
    int line = 0;
    SliceEnd end = SliceEnd::Finished;
};

// A point the learner asked to look at (`draw(...)`, `draw_group(...)`): the trace position then.
struct Mark {
    int rank = -1; // -1: outside any rank (top-level code)
    int line = 0;
    std::size_t eventCount = 0;
    std::size_t changeCount = 0;
    std::string label;
};

struct Warning {
    int rank = -1;
    int line = 0;
    std::string message;
};

// Where a rank stands when no rank can go on.
struct RankWait {
    int rank = 0;
    bool finished = false;
    int line = 0;
    std::string waitsFor;     // "allreduce(layer 1)", "a message from rank 2", "" when finished
    std::vector<int> waitsOn; // the ranks it waits for
};

struct Diagnosis {
    ErrorKind kind = ErrorKind::Deadlock; // Deadlock or Mismatch
    std::vector<RankWait> ranks;
};

struct RankFigures {
    SimTime compute;       // forward, backward, loss, update
    SimTime communication; // collectives and point-to-point
    SimTime idle;          // the rest of the run's end time
    std::int64_t peakMemory = 0;
};

struct Figures {
    bool hasEvents = false;
    SimTime timesteps; // largest start time of any rank's last event (what the notebook prints)
    SimTime endTime;   // largest end time of any event
    std::int64_t maxMemory = 0;
    int maxMemoryRank = 0;
    SimTime maxMemoryTime;
    std::vector<RankFigures> ranks;
};

struct CheckResult {
    bool passed = false;
    std::string message; // "Correct!" or what is wrong, in one line: "layers 0-7: ..."
};

// The most puzzle objects one rank's code kept outside its five storage dictionaries for later
// (in a variable, a list, any object of its own; used again after they stayed outside over one
// of the rank's computations) at one of its computations (docs/simulation.md, "Storage of a
// rank"; core/python/heldoutside.h). No figure counts them: a rank's memory is what its storage
// holds. The verdict reads it (core/lessons/verdict.cpp). bytes 0: none kept.
struct HeldOutside {
    std::int64_t bytes = 0;
    std::int64_t memory = 0; // the rank's memory (what its storage held) at that computation
    int rank = -1;
    int line = 0;
    std::array<std::int32_t, kObjectKindCount> objects{}; // how many of each kind
    int count() const;                                    // of every kind
    bool operator==(const HeldOutside &) const = default;
};

enum class RunStatus : std::uint8_t { Ok, Error, Deadlock, Stopped };
const char *runStatusName(RunStatus status); // "ok", "error", "deadlock", "stopped"

// Everything a viewer needs to rebuild every rank's state at any point without re-running.
struct Trace {
    RunConfig config;
    // A short run's first places for the lists below, in one block (Engine's constructor);
    // before them, so that it goes after them.
    PlacedRoom room;
    ChunkedVector<Event> events; // in the order the scheduler ran them
    ChangeLog changes;           // appended without moving (core/chunkedvector.h)
    ChunkedVector<Slice> slices; // a long run has one per resumption: 294,624 at FSDP 1024 x 96
    SliceDetails details;        // the slices' texts
    // The non-blocking collectives' communication (model.allreduce_start and the like,
    // docs/simulation.md "Overlapped communication"): one event per rank, on the rank's
    // communication stream beside its compute, in the order they completed. Not in `events`
    // (the compute stream, which the figures, the replay and the checks read), so that they may
    // overlap a rank's compute.
    std::vector<Event> overlapped;
    std::vector<Warning> warnings;
    std::vector<Mark> marks;
    std::vector<WeightsByLayer> finalWeights; // per rank, by layer

    RunStatus status = RunStatus::Ok;
    std::optional<Error> error;
    std::optional<Diagnosis> diagnosis;
    Figures figures;
    CheckResult check;
    HeldOutside heldOutside;

    bool correct() const { return status == RunStatus::Ok && check.passed; }
    // Why `slice` ended, in words: "allreduce(layer 0)", "receive from rank 2", an error's message.
    const std::string &detail(const Slice &slice) const { return details[slice.detail]; }
};

Figures computeFigures(const ChunkedVector<Event> &events, int ranks);
CheckResult checkFinalWeights(const std::vector<WeightsByLayer> &finalWeights, int layers);

} // namespace rankstep::core
