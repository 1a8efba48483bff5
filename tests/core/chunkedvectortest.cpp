// SPDX-License-Identifier: MIT
// The trace's chunked sequence: appending never moves an element, indexing crosses chunks, and
// the standard algorithms the views use work on it as on a vector.
#include "core/chunkedvector.h"
#include "core/trace.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace rankstep::core {
namespace {

using Small = ChunkedVector<int, 8>; // chunks of 8: a few hundred elements cross many

TEST(ChunkedVector, AppendingNeverMovesAnElementPastTheFirstChunk)
{
    Small values;
    values.push_back(0);
    std::vector<const int *> addresses;
    for (int i = 1; i < 300; ++i) {
        values.push_back(i);
        if (i >= int(Small::kChunk)) // the first chunk grows as a vector does
            addresses.push_back(&values[std::size_t(i)]);
    }
    for (std::size_t k = 0; k < addresses.size(); ++k)
        EXPECT_EQ(addresses[k], &values[Small::kChunk + k]) << k;
    ASSERT_EQ(values.size(), 300U);
    for (std::size_t i = 0; i < values.size(); ++i)
        EXPECT_EQ(values[i], int(i));
    EXPECT_EQ(values.back(), 299);
    EXPECT_EQ(values.indexOf(&values[157]), 157U);
    const int elsewhere = 7;
    EXPECT_EQ(values.indexOf(&elsewhere), values.size());
}

TEST(ChunkedVector, WorksWithTheStandardAlgorithms)
{
    Small values;
    for (int i = 0; i < 100; ++i)
        values.push_back(2 * i);
    EXPECT_EQ(std::accumulate(values.begin(), values.end(), 0), 9900);
    const auto it = std::lower_bound(values.begin(), values.end(), 77);
    EXPECT_EQ(it - values.begin(), 39);
    EXPECT_EQ(*it, 78);
    EXPECT_EQ(std::distance(values.rbegin(), values.rend()), 100);
    EXPECT_EQ(*values.rbegin(), 198);
    const auto found =
        std::partition_point(values.begin(), values.end(), [](int v) { return v < 21; });
    EXPECT_EQ(*found, 22);

    Small copy = values;
    EXPECT_EQ(copy, values);
    copy[63] = -1;
    EXPECT_FALSE(copy == values);
    copy.resize(0);
    EXPECT_TRUE(copy.empty());
    copy.resize(20);
    EXPECT_EQ(copy.size(), 20U);
    EXPECT_EQ(copy[19], 0);
    EXPECT_THROW(static_cast<void>(copy.at(20)), std::out_of_range);
}

// The default chunk fills 4 MiB, which is no power of two elements for most records.
TEST(ChunkedVector, ChunksNeedNotHoldAPowerOfTwoElements)
{
    ChunkedVector<int, 7> values;
    for (int i = 0; i < 50; ++i)
        values.push_back(i);
    const int *eighth = &values[7];
    for (int i = 50; i < 100; ++i)
        values.push_back(i);
    EXPECT_EQ(&values[7], eighth);
    for (std::size_t i = 0; i < values.size(); ++i)
        EXPECT_EQ(values[i], int(i)) << i;
    EXPECT_EQ(values.indexOf(&values[48]), 48U);
    EXPECT_EQ(*std::lower_bound(values.begin(), values.end(), 66), 66);
    EXPECT_EQ(ChunkedVector<Event>::kChunk * sizeof(Event),
              (std::size_t(4) << 20) / sizeof(Event) * sizeof(Event));
}

// An element that counts how many of its kind live: each one made is destroyed once.
struct Counted {
    static inline int live = 0;
    Counted() : value(-1) { ++live; }
    explicit Counted(int v) : value(v) { ++live; }
    Counted(const Counted &other) : value(other.value) { ++live; }
    Counted(Counted &&other) noexcept : value(other.value) { ++live; }
    Counted &operator=(const Counted &) = default;
    Counted &operator=(Counted &&) noexcept = default;
    ~Counted() { --live; }
    bool operator==(const Counted &) const = default;
    int value;
};

// A run's record starts its lists in one block of its own (core/placedvector.h).
TEST(ChunkedVector, AVectorInGivenRoomGrowsOutOfItAndACopyOutlivesTheRoom)
{
    using Texts = ChunkedVector<std::string, 8>;
    const std::size_t bytes = Texts::roomFor(5);
    auto room = std::make_unique<std::byte[]>(bytes);
    const auto inRoom = [&](const void *at) {
        return at >= room.get() && at < room.get() + bytes;
    };
    const auto text = [](int i) { // past the small-string buffer: each its own allocation
        return "element number " + std::to_string(i) + " of the vector in its room";
    };
    Texts placed;
    placed.reserve(5, room.get());
    for (int i = 0; i < 5; ++i)
        placed.push_back(text(i));
    EXPECT_TRUE(inRoom(&placed[0]));
    EXPECT_TRUE(inRoom(&placed[4]));
    for (int i = 5; i < 100; ++i) // past the room, and past the first chunk
        placed.push_back(text(i));
    EXPECT_FALSE(inRoom(&placed[0]));
    EXPECT_EQ(placed.back(), text(99));
    EXPECT_EQ(placed.indexOf(&placed[42]), 42U);

    const Texts copy = placed;
    Texts moved = std::move(placed);
    EXPECT_TRUE(placed.empty()); // NOLINT(bugprone-use-after-move): a moved-from is empty
    EXPECT_EQ(moved, copy);
    moved = Texts(); // the last user of the room goes; its owner then reuses it
    std::fill(room.get(), room.get() + bytes, std::byte{0xff});
    ASSERT_EQ(copy.size(), 100U);
    for (std::size_t i = 0; i < copy.size(); ++i)
        EXPECT_EQ(copy[i], text(int(i))) << i;
}

TEST(ChunkedVector, EachElementMadeIsDestroyedOnce)
{
    using Values = ChunkedVector<Counted, 8>;
    {
        auto room = std::make_unique<std::byte[]>(Values::roomFor(3));
        Values placed;
        placed.reserve(3, room.get());
        for (int i = 0; i < 30; ++i)
            placed.emplace_back(i);
        EXPECT_EQ(Counted::live, 30);
        Values grown; // the first chunk grows as a vector does, then chunks are added
        for (int i = 0; i < 30; ++i)
            grown.emplace_back(i);
        EXPECT_EQ(grown, placed);
        EXPECT_EQ(Counted::live, 60);
        grown = placed;
        EXPECT_EQ(Counted::live, 60);
        grown.resize(0);
        grown.resize(12);
        EXPECT_EQ(grown[11].value, -1);
        EXPECT_EQ(Counted::live, 42);
        Values moved = std::move(placed);
        EXPECT_EQ(Counted::live, 42);
        moved.clear();
        EXPECT_EQ(Counted::live, 12);
        moved.emplace_back(7); // a cleared vector starts again
        EXPECT_EQ(moved.back().value, 7);
    }
    EXPECT_EQ(Counted::live, 0);
}

TEST(ChunkedVector, ReleasingWithoutDestroyingEmptiesItAndDestroysNothing)
{
    using Values = ChunkedVector<Counted, 8>;
    Values values;
    for (int i = 0; i < 30; ++i) // across chunks
        values.emplace_back(i);
    values.releaseWithoutDestroying();
    EXPECT_EQ(Counted::live, 30); // not one destructor ran
    Counted::live = 0;
    EXPECT_TRUE(values.empty());
    EXPECT_EQ(values.begin(), values.end());
    values.emplace_back(5); // and it starts again
    ASSERT_EQ(values.size(), 1U);
    EXPECT_EQ(values[0].value, 5);
}

TEST(ChunkedVector, DrainingVisitsEachElementInOrderDestroysItOnceAndEndsEmpty)
{
    using Values = ChunkedVector<Counted, 8>;
    Values values;
    for (int i = 0; i < 30; ++i) // across chunks
        values.emplace_back(i);
    std::vector<int> seen;
    values.drain([&](const Counted &c) {
        seen.push_back(c.value);
        // Each chunk goes back once its elements are visited: those before this one's are gone.
        EXPECT_EQ(Counted::live, 30 - c.value / 8 * 8) << c.value;
    });
    std::vector<int> expected(30);
    std::iota(expected.begin(), expected.end(), 0);
    EXPECT_EQ(seen, expected);
    EXPECT_EQ(Counted::live, 0);
    EXPECT_TRUE(values.empty());
    values.emplace_back(5); // and it starts again
    ASSERT_EQ(values.size(), 1U);
    EXPECT_EQ(values[0].value, 5);
}

TEST(ChunkedVector, AVisitThatThrowsWhileDrainingStillReleasesEveryElement)
{
    using Values = ChunkedVector<Counted, 8>;
    {
        Values values;
        for (int i = 0; i < 30; ++i)
            values.emplace_back(i);
        EXPECT_THROW(values.drain([](const Counted &c) {
            if (c.value == 12)
                throw std::bad_alloc();
        }),
                     std::bad_alloc);
        EXPECT_EQ(Counted::live, 0);
        EXPECT_TRUE(values.empty());
    } // and its destructor finds nothing left to free
    EXPECT_EQ(Counted::live, 0);
}

} // namespace
} // namespace rankstep::core

namespace rankstep::core {
namespace {

// A long run records millions of these; the members are ordered so that no padding is
// wasted (136 and 64 bytes before, with Key at 32; then 56 and 64, with Key at 24 and a slice's
// text in the slice). An IndexSet is one word, which makes an object 40 bytes and, with the
// event's narrower link and peer, an event 64.
TEST(RecordSizes, TheRecordKeepsItsCompactLayout)
{
    EXPECT_LE(sizeof(Key), 16U);
    EXPECT_LE(sizeof(IndexSet), 8U);
    EXPECT_LE(sizeof(Object), 40U);
    EXPECT_LE(sizeof(StorageChange), 40U);
    EXPECT_LE(sizeof(Event), 64U);
    EXPECT_LE(sizeof(Slice), 32U);
}

const Object *objectOf(const ChangeLog &log, std::size_t i)
{
    return log.object(log[i]);
}

Object weightOf(int layer)
{
    Object weight;
    weight.layer = layer;
    weight.layers = 4;
    weight.shards = IndexSet{0};
    return weight;
}

TEST(ChangeLog, AChangeSetsTheObjectTheLogKeepsAndADeleteNone)
{
    ChangeLog log;
    StorageChange set;
    set.key = Key(2);
    log.append(set, weightOf(2));
    log.append(set, std::nullopt);
    ASSERT_EQ(log.size(), 2U);
    ASSERT_NE(objectOf(log, 0), nullptr);
    EXPECT_EQ(*objectOf(log, 0), weightOf(2));
    EXPECT_EQ(objectOf(log, 1), nullptr);
    EXPECT_TRUE(sameObject(nullptr, nullptr));
    EXPECT_FALSE(sameObject(objectOf(log, 0), nullptr));
}

TEST(ChangeLog, ACopyPointsIntoItsOwnObjectsAndOutlivesTheOriginal)
{
    auto original = std::make_unique<ChangeLog>();
    for (int layer = 0; layer < 300; ++layer) // crosses chunks of the objects' sequence
        original->append(StorageChange{}, layer % 3 == 0 ? std::optional<Object>()
                                                         : std::optional<Object>(weightOf(layer)));
    const ChangeLog copy = *original;
    ChangeLog assigned;
    assigned.append(StorageChange{}, weightOf(99));
    assigned = copy;
    for (std::size_t i = 0; i < copy.size(); ++i) {
        EXPECT_TRUE(sameObject(objectOf(copy, i), objectOf(*original, i))) << i;
        if (objectOf(copy, i)) {
            EXPECT_NE(objectOf(copy, i), objectOf(*original, i)) << i;
        }
    }
    original.reset(); // the copies' objects are their own
    for (std::size_t i = 0; i < copy.size(); ++i) {
        const int layer = int(i);
        if (layer % 3 == 0) {
            EXPECT_EQ(objectOf(copy, i), nullptr);
            EXPECT_EQ(objectOf(assigned, i), nullptr);
        } else {
            ASSERT_NE(objectOf(copy, i), nullptr);
            EXPECT_EQ(objectOf(copy, i)->layer, layer);
            EXPECT_EQ(objectOf(assigned, i)->layer, layer);
        }
    }
    ChangeLog moved = std::move(assigned); // moving keeps every object where it is
    EXPECT_EQ(objectOf(moved, 1)->layer, 1);
}

// The ranks of a tensor group set the same activation one after another: the log keeps it once.
TEST(ChangeLog, AnObjectEqualToOneKeptLatelyIsKeptOnce)
{
    ChangeLog log;
    for (int rank = 0; rank < 8; ++rank) {
        StorageChange set;
        set.rank = rank;
        log.append(set, weightOf(2));
        log.append(set, weightOf(3));
    }
    log.append(StorageChange{}, std::nullopt);
    for (std::size_t i = 2; i < 16; ++i)
        EXPECT_EQ(objectOf(log, i), objectOf(log, i % 2)) << i;
    EXPECT_NE(objectOf(log, 0), objectOf(log, 1));
    EXPECT_EQ(*objectOf(log, 1), weightOf(3));
    EXPECT_EQ(objectOf(log, 16), nullptr);
    Object other = weightOf(2);
    other.step = 1; // any field apart makes another object
    EXPECT_NE(log.object(log.append(StorageChange{}, other)), objectOf(log, 0));

    // A copy keeps its own, shared as in the original; a cleared log finds none of the old ones.
    const ChangeLog copy = log;
    EXPECT_EQ(objectOf(copy, 0), objectOf(copy, 2));
    EXPECT_NE(objectOf(copy, 0), objectOf(log, 0));
    log.clear();
    const Object *again = log.object(log.append(StorageChange{}, weightOf(2)));
    EXPECT_EQ(*again, weightOf(2));
    EXPECT_EQ(objectOf(copy, 0)->layer, 2);
}

TEST(ChangeLog, DrainingHandsOverEveryChangeWithItsObjectAndEmptiesTheLog)
{
    ChangeLog log;
    for (int layer = 0; layer < 300; ++layer)
        log.append(StorageChange{}, layer % 3 == 0 ? std::optional<Object>()
                                                   : std::optional<Object>(weightOf(layer)));
    int visited = 0;
    log.drain([&](const StorageChange &change) {
        const Object *object = log.object(change); // the objects stay until the end
        if (visited % 3 == 0)
            EXPECT_EQ(object, nullptr) << visited;
        else if (object == nullptr)
            ADD_FAILURE() << visited;
        else
            EXPECT_EQ(object->layer, visited);
        ++visited;
    });
    EXPECT_EQ(visited, 300);
    EXPECT_TRUE(log.empty());
    EXPECT_EQ(log.object(log.append(StorageChange{}, weightOf(7)))->layer, 7);
}

// A change names its object by a number in the log: the numbers go on across the log's blocks
// (the first ones small, then 4 MiB each), and each names the object its change set.
TEST(ChangeLog, EachChangeNamesItsObjectAcrossTheLogsBlocks)
{
    ChangeLog log;
    const int count = 2 * int(kChunkElements<Object>) + 1000; // into a third whole block
    for (int layer = 0; layer < count; ++layer) {
        StorageChange change;
        change.rank = layer;
        log.append(change, layer % 5 == 4 ? std::optional<Object>()
                                          : std::optional<Object>(weightOf(layer)));
    }
    ASSERT_EQ(log.size(), std::size_t(count));
    for (int layer = 0; layer < count; ++layer) {
        const StorageChange &change = log[std::size_t(layer)];
        ASSERT_EQ(change.isSet(), layer % 5 != 4) << layer;
        if (change.isSet()) {
            ASSERT_EQ(log.objectAt(change.objectId).layer, layer) << layer;
            ASSERT_EQ(log.object(change), &log.objectAt(change.objectId)) << layer;
        } else {
            ASSERT_EQ(log.object(change), nullptr) << layer;
        }
    }
}

// Asking the kept objects answers for the changes: every one, the last block's last one too,
// and nothing in a log without sets.
TEST(ChangeLog, AnyObjectFindsTheObjectOfEverySet)
{
    ChangeLog log;
    const auto layerIs = [&log](int layer) {
        return log.anyObject([layer](const Object &object) { return object.layer == layer; });
    };
    EXPECT_FALSE(layerIs(0));
    log.append(StorageChange{}, std::nullopt);
    EXPECT_FALSE(layerIs(0));
    for (int layer = 0; layer < 300; ++layer) // blocks of 64, 128 and 256 objects
        log.append(StorageChange{}, weightOf(layer));
    EXPECT_TRUE(layerIs(0));
    EXPECT_TRUE(layerIs(63));
    EXPECT_TRUE(layerIs(64));
    EXPECT_TRUE(layerIs(299));
    EXPECT_FALSE(layerIs(300));
    EXPECT_FALSE(layerIs(-1));
}

// The map sits in the key's padding: setting the key, of any length, leaves it as it was.
TEST(RecordSizes, AChangesMapOutlastsItsKeysAssignment)
{
    StorageChange change;
    change.map = MapKind::GradWeights;
    for (const Key &key : {Key(1), Key(1, 2), Key(1, 2, 3), Key::ofTuple({1, 2, 3, 4})}) {
        change.key = key;
        EXPECT_EQ(change.map, MapKind::GradWeights) << formatKey(key);
        EXPECT_EQ(change.key, key);
    }
    StorageChange copy = change;
    copy.key = Key(7);
    EXPECT_EQ(copy.map, MapKind::GradWeights);
    EXPECT_EQ(change.key, Key::ofTuple({1, 2, 3, 4}));
}

TEST(ChangeLog, ALogInGivenRoomNeverMovesAnObjectAndACopyOutlivesTheRoom)
{
    const std::size_t bytes = ChangeLog::roomFor(4);
    auto room = std::make_unique<std::byte[]>(bytes);
    auto placed = std::make_unique<ChangeLog>();
    placed->reserve(4, room.get());
    std::vector<const Object *> kept;
    for (int layer = 0; layer < 300; ++layer) { // out of the room, then across blocks
        const StorageChange &change = placed->append(StorageChange{}, weightOf(layer));
        kept.push_back(placed->object(change));
    }
    EXPECT_GE(static_cast<const void *>(kept[0]), static_cast<const void *>(room.get()));
    EXPECT_LT(static_cast<const void *>(kept[0]), static_cast<const void *>(room.get() + bytes));
    for (std::size_t i = 0; i < kept.size(); ++i) {
        EXPECT_EQ(objectOf(*placed, i), kept[i]) << i;
        EXPECT_EQ(kept[i]->layer, int(i));
    }
    const ChangeLog copy = *placed;
    ChangeLog moved = std::move(*placed);
    EXPECT_EQ(objectOf(moved, 299), kept[299]); // moving keeps every object where it is
    placed.reset();
    moved = ChangeLog();
    std::fill(room.get(), room.get() + bytes, std::byte{0xff});
    ASSERT_EQ(copy.size(), 300U);
    for (std::size_t i = 0; i < copy.size(); ++i)
        EXPECT_EQ(objectOf(copy, i)->layer, int(i)) << i;
}

// Clearing a log destroys each change and object only when one holds memory on the heap (a key
// of more than two ints, a set that is no range); a run of the puzzles' keys and ranges holds
// none. The sanitizer build checks that a log that does frees all of it.
TEST(ChangeLog, OnlyAKeyOrASetOnTheHeapMakesClearingDestroyEachChangeAndObject)
{
    ChangeLog plain;
    for (int layer = 0; layer < 300; ++layer) {
        StorageChange change;
        change.key = layer % 2 ? Key(layer) : Key(layer, 0);
        plain.append(change, weightOf(layer));
    }
    EXPECT_FALSE(plain.ownsHeap());

    ChangeLog longKey = plain;
    EXPECT_FALSE(longKey.ownsHeap());
    StorageChange tuple;
    tuple.key = Key::ofTuple({1, 2, 3, 4}); // three ints are held in the key, four on the heap
    longKey.append(tuple, std::nullopt);
    EXPECT_TRUE(longKey.ownsHeap());

    ChangeLog sparse = plain;
    Object gradient = weightOf(1);
    gradient.batches = IndexSet{0, 2, 5}; // no range: a bitset on the heap
    sparse.append(StorageChange{}, gradient);
    EXPECT_TRUE(sparse.ownsHeap());

    const ChangeLog copy = sparse; // copies, moves and swaps carry it
    EXPECT_TRUE(copy.ownsHeap());
    EXPECT_EQ(*copy.object(copy.back()), gradient);
    ChangeLog moved = std::move(longKey);
    EXPECT_TRUE(moved.ownsHeap());
    moved.swap(plain);
    EXPECT_FALSE(moved.ownsHeap());
    EXPECT_TRUE(plain.ownsHeap());
    sparse.clear();
    EXPECT_FALSE(sparse.ownsHeap());
    EXPECT_TRUE(sparse.empty());
    sparse.append(StorageChange{}, weightOf(3)); // a cleared log starts again
    EXPECT_EQ(sparse.object(sparse.back())->layer, 3);
}

// A run's record owns the block its lists start in: assigning one record to another, then
// dropping the first, leaves the second whole (the sanitizer build checks every read).
TEST(RecordRoom, AnAssignedRecordOutlivesTheOneItCameFrom)
{
    const Trace basic = testing::runReference("basic");
    Trace target = testing::runReference("ddp");
    {
        Trace source = testing::runReference("basic");
        target = std::move(source);
    }
    ASSERT_EQ(target.events.size(), basic.events.size());
    ASSERT_EQ(target.changes.size(), basic.changes.size());
    ASSERT_EQ(target.slices.size(), basic.slices.size());
    for (std::size_t i = 0; i < basic.changes.size(); ++i)
        EXPECT_TRUE(sameObject(objectOf(target.changes, i), objectOf(basic.changes, i))) << i;
    EXPECT_EQ(target.events.back().start, basic.events.back().start);
    Trace copy = target;
    target = Trace();
    EXPECT_EQ(copy.changes.size(), basic.changes.size());
    EXPECT_TRUE(sameObject(objectOf(copy.changes, 0), objectOf(basic.changes, 0)));
}

} // namespace
} // namespace rankstep::core
