// SPDX-License-Identifier: MIT
#pragma once

#include "objects.h"
#include "placedvector.h"

#include <bit>
#include <compare>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rankstep::core {

// The five dictionaries of model.storage(), in the notebook's order.
enum class MapKind : std::uint8_t { Weights, OptStates, Activations, GradActivations, GradWeights };
inline constexpr int kMapCount = 5;
// "weights", "opt_states", "activations", "grad_activations", "grad_weights". Inline: every
// store and delete names its map to the engine's admission check.
inline const char *mapName(MapKind map)
{
    constexpr const char *kNames[kMapCount] = {"weights", "opt_states", "activations",
                                               "grad_activations", "grad_weights"};
    return std::size_t(map) < std::size_t(kMapCount) ? kNames[std::size_t(map)] : "?";
}

// The ints of a key, held in the key itself up to three (every key the puzzles use:
// `weights[3]`, `activations[0, mb]`, a tensor block's `activations[layer, mb, 1]`), on the heap
// beyond. Reads like a const std::vector<int>. The three ints and the heap pointer share their
// place: 16 bytes with Key's flag (a long run records 1.38 million keys in its storage changes;
// four_d at 16,384 ranks made a heap block for each of its 6 million three-int keys).
class KeyParts
{
public:
    KeyParts() = default;
    KeyParts(std::initializer_list<int> items) : KeyParts(items.begin(), items.size()) {}
    explicit KeyParts(const std::vector<int> &items) : KeyParts(items.data(), items.size()) {}
    // One, two or three ints, inline: the keys every operation makes.
    explicit KeyParts(int a) : m_held(inlineInts(a, 0, 0)), m_size(1) {}
    KeyParts(int a, int b) : m_held(inlineInts(a, b, 0)), m_size(2) {}
    KeyParts(int a, int b, int c) : m_held(inlineInts(a, b, c)), m_size(3) {}
    // Inline, as IndexSet's: every stored object's change copies its key.
    KeyParts(const KeyParts &other) : m_held(other.m_held), m_size(other.m_size)
    {
        if (other.onHeap()) [[unlikely]]
            copyHeap(other);
    }
    KeyParts(KeyParts &&other) noexcept : m_held(other.m_held), m_size(other.m_size)
    {
        other.m_size = 0;
    }
    KeyParts &operator=(const KeyParts &other)
    {
        if (this != &other)
            *this = KeyParts(other);
        return *this;
    }
    KeyParts &operator=(KeyParts &&other) noexcept
    {
        if (this != &other) {
            if (onHeap())
                delete[] heap();
            m_held = other.m_held;
            m_size = other.m_size;
            other.m_size = 0;
        }
        return *this;
    }
    ~KeyParts()
    {
        if (onHeap())
            delete[] heap();
    }

    std::size_t size() const { return onHeap() ? std::uint32_t(heap()[0]) : m_size; }
    bool empty() const { return m_size == 0; }
    const int *begin() const { return onHeap() ? heap() + 1 : m_held.ints; }
    const int *end() const { return begin() + size(); }
    int operator[](std::size_t i) const { return begin()[i]; }
    int at(std::size_t i) const; // throws std::out_of_range past the end
    int front() const { return at(0); }

    std::strong_ordering operator<=>(const KeyParts &other) const;
    bool operator==(const KeyParts &other) const;
    bool onHeap() const { return m_size > kInline; } // the destructor frees the ints

private:
    static constexpr std::uint16_t kInline = 3;
    KeyParts(const int *items, std::size_t count);
    void copyHeap(const KeyParts &other); // the ints of a key of more than three
    // The three ints, or (a longer key) in their first eight bytes the pointer to its count and
    // then all its ints: int-aligned, so that the size (up to 65535; a longer key's is its
    // block's) fits in the two bytes after them and Key's flag after it.
    struct Held {
        int ints[kInline] = {0, 0, 0};
    };
    int *heap() const
    {
        int *pointer = nullptr;
        std::memcpy(&pointer, m_held.ints, sizeof pointer);
        return pointer;
    }
    void setHeap(int *pointer) { std::memcpy(m_held.ints, &pointer, sizeof pointer); }
    // The first two ints in one 8-byte write: the key is read back as 8 bytes right after it is
    // made (in a rank's coroutine frame, cold by the rank's turn), and a read of two pending
    // 4-byte writes waits for the frame's line to come from memory (docs/benchmarks.md,
    // "What keeps them there").
    static Held inlineInts(int a, int b, int c)
    {
        constexpr bool little = std::endian::native == std::endian::little;
        const std::uint64_t first = std::uint32_t(little ? a : b);
        const std::uint64_t second = std::uint32_t(little ? b : a);
        const std::uint64_t both = first | second << 32;
        Held held;
        std::memcpy(held.ints, &both, sizeof both);
        held.ints[2] = c;
        return held;
    }
    Held m_held;
    std::uint16_t m_size = 0; // last, so that Key's flag fits in the padding after it; > 3: heap
};

// A dictionary key: an int (`weights[3]`) or a tuple of ints (`activations[0, mb]`).
struct Key {
    Key() = default;
    Key(int scalar) : parts(scalar) {} // NOLINT(google-explicit-constructor)
    Key(int a, int b) : parts(a, b), tuple(true) {}
    Key(int a, int b, int c) : parts(a, b, c), tuple(true) {}
    static Key ofTuple(const std::vector<int> &items);

    [[no_unique_address]] KeyParts parts; // its tail padding holds `tuple`: 16 bytes, not 24
    bool tuple = false;

    auto operator<=>(const Key &) const = default;
    bool operator==(const Key &) const = default;
};
std::string formatKey(const Key &key); // "3", "(0, 2)"

struct KeyHash {
    std::size_t operator()(const Key &key) const noexcept
    {
        std::size_t h = key.tuple ? 0x9e3779b97f4a7c15ULL : 0;
        for (int part : key.parts)
            h = (h ^ std::size_t(unsigned(part))) * 0x100000001b3ULL;
        return h;
    }
};

// The keys a rank's slice looked up, in order, up to kMost: the scheduler looks them up ahead in
// the ranks that run next (Engine::lookAhead), which in a many-rank run mostly do the same steps
// on the same keys. Only keys a table holds (an int, or a pair of small ints).
struct KeyTrail {
    static constexpr int kMost = 8;
    struct Item {
        MapKind map = MapKind::Weights;
        bool pair = false;
        std::int32_t a = 0;
        std::int32_t b = 0;
    };
    Item items[kMost];
    int count = 0;
};

// One rank's storage. Memory is kept up to date on every set and erase, never rescanned.
// The storage holds no object: each entry points at an object kept elsewhere, which must stay
// where it is while the entry is there. The engine's are the objects its record keeps (a set's
// object, core/trace.h ChangeLog), so every stored object is made and held once, not twice (at
// 1024 ranks x 96 layers the storages' entries took 46 MB, 21 MB with pointers).
class Storage
{
public:
    explicit Storage(Sizes sizes = {}) : m_sizes(sizes) {}

    // Null when absent: the object given to set(), which lasts as long as its owner keeps it (for
    // the engine's storages, as long as the run's record).
    const Object *find(MapKind map, const Key &key) const
    {
        const Map &m = slot(map);
        const std::int32_t at = position(m, key);
        return at < 0 ? nullptr : m.entries[std::size_t(at)].object;
    }
    // Stores `object` under key (replacing, and keeping the key's place in iteration order). The
    // storage keeps the pointer, not a copy: the object must outlive the entry.
    void set(MapKind map, const Key &key, const Object *object);
    // Removes key; false when it was not there.
    bool erase(MapKind map, const Key &key);
    std::size_t size(MapKind map) const { return slot(map).entries.size(); }
    // Entries in insertion order, as a Python dict iterates.
    std::vector<std::pair<Key, const Object *>> entries(MapKind map) const;

    std::int64_t memory() const { return m_memory; }
    const Sizes &sizes() const { return m_sizes; }

    // A number the storage's user keeps with an entry, 0 until set: the Python runtime's, which
    // of its objects the entry holds (docs/simulation.md, "Storage of a rank"). No figure and no
    // record reads it, so it may change through a read-only storage; set() keeps an entry's note
    // when it replaces the entry's object, and erase() forgets it.
    // The key's note, 0 when the key is absent.
    std::uint32_t note(MapKind map, const Key &key) const
    {
        const Map &m = slot(map);
        const std::int32_t at = position(m, key);
        return at < 0 ? 0 : m.entries[std::size_t(at)].note;
    }
    // Sets the note of a present key and gives the one it had; 0 and nothing set when absent.
    std::uint32_t swapNote(MapKind map, const Key &key, std::uint32_t note) const
    {
        const Map &m = slot(map);
        const std::int32_t at = position(m, key);
        if (at < 0)
            return 0;
        return std::exchange(m.entries[std::size_t(at)].note, note);
    }
    // Each entry's note that is not 0, in no order.
    template <typename Visit>
    void forEachNote(Visit &&visit) const
    {
        for (const Map &m : m_maps)
            for (const Entry &entry : m.entries)
                if (entry.note != 0)
                    visit(entry.note);
    }
    // Room for `keys` entries in each dictionary (and int keys below it): a small run's maps
    // grow without reallocating (a reference puzzle made about 40 allocations a run growing them).
    // The room is one block: `room` when given, which holds roomFor(keys) bytes, is aligned for
    // any object and outlives this storage (an engine's block for all its ranks); else its own.
    void reserve(int keys, std::byte *room = nullptr);
    // The bytes reserve(keys) takes, a multiple of alignof(std::max_align_t).
    static std::size_t roomFor(int keys);

    // Adds `key` to `trail` when a table holds it and the trail has room.
    static void addToTrail(KeyTrail &trail, MapKind map, const Key &key)
    {
        if (trail.count == KeyTrail::kMost)
            return;
        if (isDirect(key))
            trail.items[trail.count++] = {map, false, key.parts[0], 0};
        else if (isDirectPair(key))
            trail.items[trail.count++] = {map, true, key.parts[0], key.parts[1]};
    }
    // Asks the processor for what a lookup of each key in `trail` reads at step `depth` (1: the
    // key's place in its table, 2: its entry, or where a set would append it, and the last entry,
    // which a delete moves; 3: the object), reading what the steps before read.
    // Asked a step deeper at each slice closer to the rank's turn, every step finds what it reads
    // in the cache (Engine::lookAhead). Changes nothing.
    void lookAhead(const KeyTrail &trail, int depth) const;

private:
    // The ints reserve(keys) places a pair table in: room for FSDP's weights[layer, 0] and a
    // pipeline's activations[layer, mb] up to 4 micro-batches, at `keys` layers.
    static constexpr int kPairRoomPerKey = 4;
    // The positions of keys that no table indexes, by key: an open-addressing table made when
    // the first such key comes. Most storages never hold one, and five empty std::unordered_maps
    // took 280 of the bytes of every rank's state (at 1024 ranks each rank's state is out of the
    // cache when its turn comes: the smaller, the fewer places a slice reads). Its slots sit side
    // by side: a std::unordered_map made and freed a node for every key set and deleted (four_d's
    // `activations[layer, mb, 1]`, 6 million at 16,384 ranks).
    class HashedKeys
    {
    public:
        HashedKeys() = default;
        HashedKeys(const HashedKeys &other) { copyFrom(other); }
        HashedKeys &operator=(const HashedKeys &other)
        {
            if (this != &other)
                copyFrom(other);
            return *this;
        }
        HashedKeys(HashedKeys &&) noexcept = default;
        HashedKeys &operator=(HashedKeys &&) noexcept = default;
        ~HashedKeys() = default;

        std::int32_t position(const Key &key) const; // -1 when absent
        void set(const Key &key, std::int32_t position);
        void erase(const Key &key);

    private:
        struct Slot {
            Key key;
            std::int32_t position = -1; // -1: empty
        };
        // The slot a key's probe starts at: the high bits of its hash times the golden ratio
        // (KeyHash's low bits hold little more than its last part's).
        std::size_t home(const Key &key) const
        {
            return std::size_t((std::uint64_t(KeyHash{}(key)) * 0x9e3779b97f4a7c15ULL) >>
                               (64 - m_bits));
        }
        std::size_t find(
            const Key &key) const; // the key's slot, or the empty slot ending its probe
        void grow();
        void copyFrom(const HashedKeys &other);
        std::unique_ptr<Slot[]> m_slots;
        std::uint32_t m_count = 0;
        std::uint32_t m_bits = 0; // 2^m_bits slots, at most half of them full
    };
    struct Entry {
        Key key;
        const Object *object = nullptr;
        // Insertion order, in 32 bits: a trace holds fewer changes than that (kMostTraceEvents).
        std::uint32_t order = 0;
        mutable std::uint32_t note = 0; // note(): beside `order`, where it costs no byte
        std::int64_t bytes = 0;
    };
    // One dictionary's entries side by side; an int key below kDirectKeys finds its entry by
    // indexing (a layer number: one memory access instead of a hash chain), and so does a pair
    // (a, b) with a below kDirectFirsts and b below kDirectSeconds (`weights[layer, 0]`,
    // `activations[layer, mb]`: FSDP's and the pipelines' keys); any other key goes through the
    // hash map. All hold positions in `entries`.
    struct Map {
        PlacedVector<Entry> entries;
        PlacedVector<std::int32_t> direct; // by int key: position + 1, 0 when absent
        // By a * pairStride + b: position + 1, 0 when absent. One table for every pair (a table
        // per first part took an allocation per layer, rank and map); the stride, a power of
        // two, grows when a larger b comes.
        PlacedVector<std::int32_t> pairs;
        std::size_t pairStride = 0;
        HashedKeys hashed;
    };
    static constexpr int kDirectKeys = 1 << 16;
    // A pair's parts are small (a layer; a shard or a micro-batch): the bounds keep a sparse key
    // (weights[60000, 0] alone) from costing a table where a hash entry would do. The table
    // holds (largest a + 1) x (largest b + 1, rounded up to a power of two) ints, one stride for
    // every row: at most 32 kB per map and rank (x[255, 31]), 384 bytes for FSDP's
    // weights[layer, 0] at 96 layers. With wider bounds a learner's x[rank, step] at 1024 ranks
    // would have cost every rank a row per lower rank, half a GB in all.
    static constexpr int kDirectFirsts = 256;
    static constexpr int kDirectSeconds = 32;
    Map &slot(MapKind map) { return m_maps[std::size_t(map)]; }
    const Map &slot(MapKind map) const { return m_maps[std::size_t(map)]; }
    static bool isDirect(const Key &key)
    {
        return !key.tuple && key.parts.size() == 1 && key.parts[0] >= 0 &&
               key.parts[0] < kDirectKeys;
    }
    static bool isDirectPair(const Key &key)
    {
        return key.tuple && key.parts.size() == 2 && key.parts[0] >= 0 &&
               key.parts[0] < kDirectFirsts && key.parts[1] >= 0 && key.parts[1] < kDirectSeconds;
    }
    // -1 when absent. Inline with the tables' lookups: every get, set and delete asks it.
    static std::int32_t position(const Map &m, const Key &key)
    {
        if (isDirect(key)) {
            const auto index = std::size_t(key.parts[0]);
            return index < m.direct.size() ? m.direct[index] - 1 : -1;
        }
        if (isDirectPair(key)) {
            const auto a = std::size_t(key.parts[0]), b = std::size_t(key.parts[1]);
            const std::size_t at = a * m.pairStride + b;
            return b < m.pairStride && at < m.pairs.size() ? m.pairs[at] - 1 : -1;
        }
        return m.hashed.position(key);
    }
    // -1 removes. Inline where the key's table has its place already (every set and delete of a
    // key seen before); setPositionGrowing() makes the place, or uses the hash map.
    void setPosition(Map &m, const Key &key, std::int32_t position)
    {
        if (isDirect(key)) {
            if (const auto index = std::size_t(key.parts[0]); index < m.direct.size()) {
                m.direct[index] = position + 1;
                return;
            }
        } else if (isDirectPair(key)) {
            const auto a = std::size_t(key.parts[0]), b = std::size_t(key.parts[1]);
            if (const std::size_t at = a * m.pairStride + b;
                b < m.pairStride && at < m.pairs.size()) {
                m.pairs[at] = position + 1;
                return;
            }
        }
        setPositionGrowing(m, key, position);
    }
    void setPositionGrowing(Map &m, const Key &key, std::int32_t position);

    // reserve()'s block when no room was given. First, so that it goes after the maps placed in
    // it (core/placedvector.h).
    PlacedRoom m_ownRoom;
    Sizes m_sizes;
    Map m_maps[kMapCount];
    std::int64_t m_memory = 0;
    std::uint64_t m_nextOrder = 0;
    int m_reservedKeys = 0; // reserve()'s: a pair table's first rows take room for as many
};

} // namespace rankstep::core
