// SPDX-License-Identifier: MIT
// Per-rank storage: memory kept up to date, Python dict iteration order, int and tuple keys.
#include "testsupport.h"

#include "core/storage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

namespace rankstep::testing {
namespace {

using core::IndexSet;
using core::Key;
using core::MapKind;
using core::Object;
using core::Storage;

constexpr MapKind kMaps[] = {MapKind::Weights, MapKind::OptStates, MapKind::Activations,
                             MapKind::GradActivations, MapKind::GradWeights};

// A storage points at objects kept elsewhere (the engine's record keeps them): the tests keep
// theirs here, for as long as the test program runs.
const Object *held(Object object)
{
    static std::deque<Object> kept;
    return &kept.emplace_back(std::move(object));
}

std::int64_t rescan(const Storage &storage)
{
    std::int64_t total = 0;
    for (MapKind map : kMaps)
        for (const auto &[key, object] : storage.entries(map))
            total += core::memoryOf(*object, storage.sizes());
    return total;
}

Object randomObject(std::mt19937 &random)
{
    std::uniform_int_distribution<int> pick(0, 4);
    const int total = pick(random) + 1;
    const IndexSet shards =
        IndexSet::range(0, std::uniform_int_distribution<int>(1, total)(random));
    const IndexSet batches = IndexSet::range(0, pick(random) + 1);
    switch (pick(random)) {
        case 0:
            return weight(1, shards, total);
        case 1:
            return optState(1, shards, total);
        case 2:
            return activation(1, batches);
        case 3:
            return activationGrad(1, batches);
        default:
            return weightGrad(1, batches, shards, total);
    }
}

TEST(Storage, MemoryMatchesARescanAfterRandomSetsReplacesAndErases)
{
    std::mt19937 random(20240601);
    Storage storage;
    std::uniform_int_distribution<int> mapIndex(0, 4);
    std::uniform_int_distribution<int> keyPart(0, 5);
    std::uniform_int_distribution<int> action(0, 2);
    int erased = 0;
    for (int i = 0; i < 3000; ++i) {
        const MapKind map = kMaps[mapIndex(random)];
        const Key key =
            keyPart(random) % 2 == 0 ? Key(keyPart(random)) : Key(keyPart(random), keyPart(random));
        if (action(random) == 0)
            erased += storage.erase(map, key) ? 1 : 0;
        else
            storage.set(map, key, held(randomObject(random)));
        ASSERT_EQ(storage.memory(), rescan(storage)) << "after operation " << i;
    }
    EXPECT_GT(erased, 100); // the sequence really exercised erase
    EXPECT_GT(storage.memory(), 0);
}

TEST(Storage, MemoryIsTheSumOfTheSizesOfEverythingHeld)
{
    Storage storage;
    storage.set(MapKind::Weights, 0, held(weight(0)));                       // 262144
    storage.set(MapKind::OptStates, 0, held(optState(0, {1}, 4)));           // 65536
    storage.set(MapKind::Activations, Key(1, 0), held(activation(1, {0})));  // 131072
    storage.set(MapKind::GradWeights, 0, held(weightGrad(0, {0, 1, 2, 3}))); // 262144
    EXPECT_EQ(storage.memory(), 720896);
    storage.set(MapKind::Weights, 0, held(weight(0, {2}, 4))); // replaced: 262144 -> 65536
    EXPECT_EQ(storage.memory(), 524288);
    EXPECT_TRUE(storage.erase(MapKind::Activations, Key(1, 0)));
    EXPECT_FALSE(storage.erase(MapKind::Activations, Key(1, 0)));
    EXPECT_EQ(storage.memory(), 393216);
}

std::vector<std::string> keysOf(const Storage &storage, MapKind map)
{
    std::vector<std::string> keys;
    for (const auto &[key, object] : storage.entries(map))
        keys.push_back(core::formatKey(key));
    return keys;
}

TEST(Storage, IteratesInInsertionOrderAndAReplacementKeepsItsPlace)
{
    Storage storage;
    storage.set(MapKind::Activations, 5, held(activation(5, {0})));
    storage.set(MapKind::Activations, Key(0, 1), held(activation(0, {1})));
    storage.set(MapKind::Activations, 2, held(activation(2, {0})));
    EXPECT_EQ(keysOf(storage, MapKind::Activations),
              (std::vector<std::string>{"5", "(0, 1)", "2"}));

    storage.set(MapKind::Activations, 5, held(activation(5, {0, 1})));
    EXPECT_EQ(keysOf(storage, MapKind::Activations),
              (std::vector<std::string>{"5", "(0, 1)", "2"}));
    EXPECT_EQ(storage.find(MapKind::Activations, 5)->batches, (IndexSet{0, 1}));

    // Deleted and set again: the key goes to the end, as in a Python dict.
    storage.erase(MapKind::Activations, 5);
    storage.set(MapKind::Activations, 5, held(activation(5, {0})));
    EXPECT_EQ(keysOf(storage, MapKind::Activations),
              (std::vector<std::string>{"(0, 1)", "2", "5"}));
}

TEST(Storage, IntAndOneElementTupleAreDifferentKeys)
{
    Storage storage;
    storage.set(MapKind::Weights, 3, held(weight(3)));
    EXPECT_EQ(storage.find(MapKind::Weights, Key::ofTuple({3})), nullptr);
    storage.set(MapKind::Weights, Key::ofTuple({3}), held(weight(3, {0}, 2)));
    EXPECT_EQ(storage.size(MapKind::Weights), 2U);
    EXPECT_EQ(storage.find(MapKind::Weights, 3)->total, 1);
    EXPECT_EQ(storage.find(MapKind::Weights, Key::ofTuple({3}))->total, 2);
    EXPECT_EQ(core::formatKey(Key(3)), "3");
    EXPECT_EQ(core::formatKey(Key::ofTuple({3})), "(3,)");
}

TEST(Storage, PairKeyEqualsTheTupleOfTheSameInts)
{
    EXPECT_EQ(Key(0, 2), Key::ofTuple({0, 2}));
    EXPECT_NE(Key(0, 2), Key(2, 0));
    EXPECT_EQ(core::formatKey(Key(0, 2)), "(0, 2)");
}

// A key of one, two or three ints is made with its first two in one write (core/storage.h,
// KeyParts::inlineInts): each int keeps its sign and its place, whatever the other holds.
TEST(Storage, KeysOfOneOrTwoIntsHoldExactlyTheirInts)
{
    constexpr int kMost = std::numeric_limits<int>::max(), kLeast = std::numeric_limits<int>::min();
    for (const auto &[a, b] :
         {std::pair{-1, kMost}, {kMost, -1}, {kLeast, 0}, {0, kLeast}, {3, 7}}) {
        const Key pair(a, b);
        ASSERT_EQ(pair.parts.size(), 2U);
        EXPECT_EQ(pair.parts[0], a);
        EXPECT_EQ(pair.parts[1], b);
        EXPECT_EQ(pair, Key::ofTuple({a, b}));
        const Key triple(a, b, a);
        ASSERT_EQ(triple.parts.size(), 3U);
        EXPECT_EQ(triple.parts[0], a);
        EXPECT_EQ(triple.parts[1], b);
        EXPECT_EQ(triple.parts[2], a);
        EXPECT_EQ(triple, Key::ofTuple({a, b, a}));
        const Key one(a);
        ASSERT_EQ(one.parts.size(), 1U);
        EXPECT_EQ(one.parts[0], a);
        EXPECT_EQ(one, Key(a));
        EXPECT_NE(one, Key::ofTuple({a}));
        EXPECT_EQ(core::formatKey(one), std::to_string(a));
    }
    EXPECT_LT(Key(-1, 0), Key(0, -1));
}

// Keys hold up to three ints in themselves and longer tuples on the heap: both kinds copy, move,
// compare and order like the tuples they stand for.
TEST(Storage, LongTupleKeysCopyMoveAndOrderLikeShortOnes)
{
    const Key triple = Key::ofTuple({1, 2, 3});
    Key copy = triple;
    EXPECT_EQ(copy, triple);
    EXPECT_EQ(core::formatKey(copy), "(1, 2, 3)");
    Key moved = std::move(copy);
    EXPECT_EQ(moved, triple);
    EXPECT_EQ(moved.parts.size(), 3U);
    EXPECT_EQ(moved.parts.at(2), 3);
    EXPECT_THROW(moved.parts.at(3), std::out_of_range);
    moved = Key(1, 2);
    EXPECT_LT(moved, triple); // (1, 2) < (1, 2, 3), as Python orders tuples
    EXPECT_LT(Key::ofTuple({1, 2, 3}), Key::ofTuple({1, 2, 4}));
    moved = triple;
    EXPECT_EQ(moved, triple);
    EXPECT_NE(Key::ofTuple({1, 2, 3}), Key::ofTuple({1, 2}));
    EXPECT_EQ(Key(1, 2, 3), triple);
    const Key four = Key::ofTuple({1, 2, 3, -4});
    Key fourCopy = four;
    EXPECT_EQ(fourCopy.parts.size(), 4U);
    EXPECT_EQ(fourCopy.parts.at(3), -4);
    EXPECT_LT(triple, fourCopy);
    fourCopy = triple;
    EXPECT_EQ(fourCopy, triple);
    fourCopy = four;
    EXPECT_EQ(core::formatKey(fourCopy), "(1, 2, 3, -4)");

    Storage storage;
    storage.set(MapKind::Activations, Key::ofTuple({0, 1, 2}), held(activation(1, {0})));
    storage.set(MapKind::Activations, Key(0, 1), held(activation(1, {1})));
    EXPECT_TRUE(storage.find(MapKind::Activations, Key::ofTuple({0, 1, 2}))->batches.contains(0));
    EXPECT_TRUE(storage.find(MapKind::Activations, Key(0, 1))->batches.contains(1));
    EXPECT_EQ(keysOf(storage, MapKind::Activations),
              (std::vector<std::string>{"(0, 1, 2)", "(0, 1)"}));
}

// Entries sit side by side and an erase moves the last one into the freed place: every key must
// still find its own object, and iteration must keep Python's insertion order.
TEST(Storage, FindsEveryKeyAndKeepsInsertionOrderAfterRandomErases)
{
    Storage storage;
    std::vector<std::pair<Key, int>> expected; // key, layer of its object, in insertion order
    std::mt19937 random(7);
    for (int step = 0; step < 3000; ++step) {
        const int a = int(random() % 12);
        const Key key = random() % 3 == 0 ? Key(a, int(random() % 3)) : Key(a);
        auto it = std::find_if(expected.begin(), expected.end(),
                               [&](const auto &item) { return item.first == key; });
        if (random() % 2 == 0) {
            storage.set(MapKind::GradWeights, key, held(weight(step)));
            if (it == expected.end())
                expected.emplace_back(key, step);
            else
                it->second = step;
        } else {
            EXPECT_EQ(storage.erase(MapKind::GradWeights, key), it != expected.end());
            if (it != expected.end())
                expected.erase(it);
        }
        const auto entries = storage.entries(MapKind::GradWeights);
        ASSERT_EQ(entries.size(), expected.size()) << "step " << step;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            EXPECT_EQ(entries[i].first, expected[i].first) << "step " << step;
            const Object *found = storage.find(MapKind::GradWeights, expected[i].first);
            ASSERT_NE(found, nullptr) << "step " << step;
            EXPECT_EQ(found->layer, expected[i].second) << "step " << step;
        }
    }
}

// Keys no table indexes (triples, longer tuples, negative parts) go to an open-addressing
// table whose erase moves later keys of a probe back into the freed slot: after any sequence
// of sets and erases, growing it past several sizes, every key still finds its own object.
TEST(Storage, HashedKeysAreFoundAfterRandomSetsAndErases)
{
    Storage storage;
    std::map<Key, int> expected; // key, layer of its object
    std::mt19937 random(11);
    const auto randomKey = [&random] {
        const int a = int(random() % 40), b = int(random() % 6);
        switch (random() % 4) {
            case 0:
                return Key(a, b, int(random() % 3));
            case 1:
                return Key::ofTuple({a, b, 1, int(random() % 3)});
            case 2:
                return Key(-1 - a);
            default:
                return Key(a, -1 - b);
        }
    };
    for (int step = 0; step < 6000; ++step) {
        const Key key = randomKey();
        // Sets win early and erases late: the table grows, then empties through every shape.
        if (int(random() % 6000) >= step) {
            storage.set(MapKind::Activations, key, held(weight(step)));
            expected[key] = step;
        } else {
            EXPECT_EQ(storage.erase(MapKind::Activations, key), expected.erase(key) == 1);
        }
        if (step % 7 != 0)
            continue;
        ASSERT_EQ(storage.size(MapKind::Activations), expected.size()) << "step " << step;
        for (const auto &[known, layer] : expected) {
            const Object *found = storage.find(MapKind::Activations, known);
            ASSERT_NE(found, nullptr) << core::formatKey(known) << " at step " << step;
            EXPECT_EQ(found->layer, layer) << core::formatKey(known) << " at step " << step;
        }
        EXPECT_EQ(storage.find(MapKind::Activations, Key(99, 99, 99)), nullptr);
    }
    const Storage copy = storage; // a copy holds its own table
    storage.set(MapKind::Activations, Key(98, 98, 98), held(weight(1)));
    EXPECT_EQ(copy.find(MapKind::Activations, Key(98, 98, 98)), nullptr);
    for (const auto &[known, layer] : expected)
        EXPECT_EQ(copy.find(MapKind::Activations, known)->layer, layer);
}

// Keys on both sides of every fast path's bounds (int keys below 65,536, pairs (a, b) with a
// below 256 and b below 32, looked up by index; every other key hashed) behave as one dict.
// The pairs' table has one stride for every row and widens it when a larger second part comes:
// each widening must carry every row stored before it to its new place.
TEST(Storage, PairsStoredBeforeTheTableWidensAreStillFound)
{
    const std::vector<Key> keys{Key(0, 0), Key(1, 1), Key(2, 3), Key(3, 9), Key(4, 20), Key(5, 31)};
    Storage storage;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        storage.set(MapKind::Activations, keys[i], held(weight(int(i))));
        for (std::size_t j = 0; j <= i; ++j) {
            const Object *found = storage.find(MapKind::Activations, keys[j]);
            ASSERT_NE(found, nullptr) << core::formatKey(keys[j]) << " after " << i + 1 << " sets";
            EXPECT_EQ(found->layer, int(j)) << core::formatKey(keys[j]);
        }
        EXPECT_EQ(storage.find(MapKind::Activations, Key(int(i), 0)) != nullptr, i == 0);
    }
}

TEST(Storage, TheTrailKeepsTheKeysATableHoldsUpToItsRoom)
{
    core::KeyTrail trail;
    Storage::addToTrail(trail, MapKind::Weights, Key(3));
    Storage::addToTrail(trail, MapKind::Weights, Key(-1));    // a hashed key
    Storage::addToTrail(trail, MapKind::Weights, Key(65536)); // beyond the int table
    Storage::addToTrail(trail, MapKind::Activations, Key(2, 1));
    Storage::addToTrail(trail, MapKind::Activations, Key(2, 32)); // beyond the pair table
    Storage::addToTrail(trail, MapKind::Activations, Key::ofTuple({1, 2, 3}));
    ASSERT_EQ(trail.count, 2);
    EXPECT_EQ(trail.items[0].map, MapKind::Weights);
    EXPECT_FALSE(trail.items[0].pair);
    EXPECT_EQ(trail.items[0].a, 3);
    EXPECT_EQ(trail.items[1].map, MapKind::Activations);
    EXPECT_TRUE(trail.items[1].pair);
    EXPECT_EQ(trail.items[1].a, 2);
    EXPECT_EQ(trail.items[1].b, 1);
    for (int i = 0; i < 2 * core::KeyTrail::kMost; ++i)
        Storage::addToTrail(trail, MapKind::GradWeights, Key(i));
    EXPECT_EQ(trail.count, core::KeyTrail::kMost);
}

// Looking a trail's keys up ahead reads only what is there (the sanitizer build checks it), at
// every depth, whether the keys are there, absent, or past the end of their tables, and changes
// nothing.
TEST(Storage, LookingAheadReadsOnlyWhatIsThereAndChangesNothing)
{
    Storage storage;
    storage.set(MapKind::Weights, Key(1), held(weight(1)));
    storage.set(MapKind::Weights, Key(3), held(weight(3)));
    storage.set(MapKind::Activations, Key(0, 1), held(activation(0, {1})));
    storage.erase(MapKind::Weights, Key(1));
    core::KeyTrail trail;
    for (const Key &key : {Key(1), Key(3), Key(5000), Key(0, 1), Key(0, 2), Key(200, 0)})
        for (MapKind map : {MapKind::Weights, MapKind::Activations})
            if (trail.count < core::KeyTrail::kMost)
                Storage::addToTrail(trail, map, key);
    Storage::addToTrail(trail, MapKind::OptStates, Key(7)); // a map with no table yet
    const auto before = storage.entries(MapKind::Weights);
    const std::int64_t memory = storage.memory();
    for (int depth = 1; depth <= 3; ++depth)
        storage.lookAhead(trail, depth);
    EXPECT_EQ(storage.entries(MapKind::Weights), before);
    EXPECT_EQ(storage.memory(), memory);
    EXPECT_EQ(storage.find(MapKind::Weights, Key(1)), nullptr);
    EXPECT_EQ(storage.find(MapKind::Activations, Key(0, 1))->layer, 0);
}

TEST(Storage, KeysOnBothSidesOfTheIndexedRangesAreOneDictionary)
{
    const std::vector<Key> keys{Key(0),
                                Key(65535),
                                Key(65536),
                                Key(-1),
                                Key(3, 0),
                                Key(3, 255),
                                Key(3, 256),
                                Key(3, -1),
                                Key(-1, 0),
                                Key(1023, 1),
                                Key(1024, 1),
                                Key(60000, 0),
                                Key(65535, 1),
                                Key(65536, 1),
                                Key(0, 0),
                                Key(255, 1),
                                Key(256, 1),
                                Key(3, 31),
                                Key(3, 32),
                                Key(5, 2),
                                Key(7, 9),
                                Key::ofTuple({3}),
                                Key::ofTuple({3, 0, 0}),
                                Key::ofTuple({})};
    Storage storage;
    std::vector<std::pair<Key, int>> expected;
    std::mt19937 random(11);
    for (int step = 0; step < 4000; ++step) {
        const Key &key = keys[random() % keys.size()];
        auto it = std::find_if(expected.begin(), expected.end(),
                               [&](const auto &item) { return item.first == key; });
        if (random() % 3 != 0) {
            storage.set(MapKind::Activations, key, held(weight(step)));
            if (it == expected.end())
                expected.emplace_back(key, step);
            else
                it->second = step;
        } else {
            EXPECT_EQ(storage.erase(MapKind::Activations, key), it != expected.end());
            if (it != expected.end())
                expected.erase(it);
        }
        const auto entries = storage.entries(MapKind::Activations);
        ASSERT_EQ(entries.size(), expected.size()) << "step " << step;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            EXPECT_EQ(entries[i].first, expected[i].first) << "step " << step;
            const Object *found = storage.find(MapKind::Activations, expected[i].first);
            ASSERT_NE(found, nullptr) << "step " << step;
            EXPECT_EQ(found->layer, expected[i].second) << "step " << step;
        }
        for (const Key &other : keys)
            EXPECT_EQ(storage.find(MapKind::Activations, other) != nullptr,
                      std::any_of(expected.begin(), expected.end(),
                                  [&](const auto &item) { return item.first == other; }))
                << "step " << step << " key " << core::formatKey(other);
    }
}

// A copy of a storage is its own dictionary, hashed keys included (the hash map of keys no
// table indexes is made only when such a key comes, and copied with the storage).
TEST(Storage, ACopyKeepsItsHashedKeysWhenTheOriginalChanges)
{
    Storage original;
    original.set(MapKind::Activations, Key(70000), held(weight(1)));
    original.set(MapKind::Activations, Key::ofTuple({1, 2, 3}), held(weight(2)));
    Storage copy = original;
    ASSERT_TRUE(original.erase(MapKind::Activations, Key(70000)));
    original.set(MapKind::Activations, Key::ofTuple({1, 2, 3}), held(weight(3)));
    ASSERT_NE(copy.find(MapKind::Activations, Key(70000)), nullptr);
    EXPECT_EQ(copy.find(MapKind::Activations, Key(70000))->layer, 1);
    EXPECT_EQ(copy.find(MapKind::Activations, Key::ofTuple({1, 2, 3}))->layer, 2);
    EXPECT_EQ(original.find(MapKind::Activations, Key(70000)), nullptr);
    EXPECT_EQ(original.find(MapKind::Activations, Key::ofTuple({1, 2, 3}))->layer, 3);
    Storage assigned;
    assigned = copy;
    copy.erase(MapKind::Activations, Key::ofTuple({1, 2, 3}));
    EXPECT_EQ(assigned.size(MapKind::Activations), 2U);
    EXPECT_NE(assigned.find(MapKind::Activations, Key::ofTuple({1, 2, 3})), nullptr);
}

// A storage given room for its first places (an engine's block for all its ranks) grows out of
// it as it fills; a copy owns its places, so it outlives the room; a moved storage keeps them.
TEST(Storage, AStorageInGivenRoomGrowsOutOfItAndACopyOutlivesTheRoom)
{
    const std::size_t bytes = Storage::roomFor(2);
    auto room = std::make_unique<std::byte[]>(bytes);
    Storage placed;
    placed.reserve(2, room.get());
    for (int layer = 0; layer < 10; ++layer) // past the room: the weights' table grows
        placed.set(MapKind::Weights, layer, held(weight(layer)));
    placed.set(MapKind::Activations, 1, held(activation(1, {0})));
    placed.set(MapKind::Activations, 0, held(activation(0, {0})));
    ASSERT_TRUE(placed.erase(MapKind::Activations, 1));
    // Pairs: optimizer states' table stays in the room; gradients' widens out of it.
    placed.set(MapKind::OptStates, Key(1, 0), held(optState(1)));
    placed.set(MapKind::OptStates, Key(0, 0), held(optState(0)));
    placed.set(MapKind::GradActivations, Key(1, 0), held(activationGrad(1, {0})));
    placed.set(MapKind::GradActivations, Key(1, 9), held(activationGrad(1, {9})));
    const Storage copy = placed;
    Storage moved = std::move(placed);
    for (const Storage *storage : {&copy, static_cast<const Storage *>(&moved)}) {
        EXPECT_EQ(storage->size(MapKind::Weights), 10U);
        EXPECT_EQ(storage->find(MapKind::Weights, 9)->layer, 9);
        EXPECT_EQ(storage->find(MapKind::Activations, 0)->layer, 0);
        EXPECT_EQ(storage->find(MapKind::Activations, 1), nullptr);
        EXPECT_EQ(storage->find(MapKind::OptStates, Key(1, 0))->layer, 1);
        EXPECT_EQ(storage->find(MapKind::GradActivations, Key(1, 0))->batches, IndexSet{0});
        EXPECT_EQ(storage->find(MapKind::GradActivations, Key(1, 9))->batches, IndexSet{9});
        EXPECT_EQ(storage->memory(), rescan(*storage));
    }
    moved = Storage(); // the last storage placed in the room goes; its owner then reuses it
    std::fill(room.get(), room.get() + bytes, std::byte{0xff});
    EXPECT_EQ(copy.find(MapKind::Activations, 0)->layer, 0);
    EXPECT_EQ(copy.entries(MapKind::Activations).size(), 1U);
    EXPECT_EQ(copy.find(MapKind::OptStates, Key(0, 0))->layer, 0);
    EXPECT_EQ(copy.find(MapKind::OptStates, Key(1, 1)), nullptr);
    EXPECT_EQ(copy.memory(), rescan(copy));
}

// A storage's own room goes with the maps placed in it: assigning one storage to another, then
// dropping the first, leaves the second whole (the sanitizer build checks every read).
TEST(Storage, AnAssignedStorageOutlivesTheOneItCameFrom)
{
    Storage target;
    target.reserve(3);
    target.set(MapKind::OptStates, 2, held(optState(2)));
    Storage copied;
    {
        Storage source;
        source.reserve(3);
        source.set(MapKind::Weights, 0, held(weight(0)));
        source.set(MapKind::Weights, 1, held(weight(1)));
        copied = source;
        target = std::move(source);
    }
    for (const Storage *storage : {&target, &copied}) {
        EXPECT_EQ(storage->find(MapKind::OptStates, 2), nullptr);
        EXPECT_EQ(storage->find(MapKind::Weights, 1)->layer, 1);
        EXPECT_EQ(storage->size(MapKind::Weights), 2U);
        EXPECT_EQ(storage->memory(), rescan(*storage));
    }
    target.set(MapKind::Weights, 2, held(weight(2)));
    EXPECT_EQ(target.size(MapKind::Weights), 3U);
}

TEST(Storage, MapsAreSeparate)
{
    Storage storage;
    storage.set(MapKind::Weights, 0, held(weight(0)));
    EXPECT_EQ(storage.find(MapKind::OptStates, 0), nullptr);
    EXPECT_EQ(storage.size(MapKind::Weights), 1U);
    EXPECT_EQ(storage.size(MapKind::OptStates), 0U);
    EXPECT_STREQ(core::mapName(MapKind::GradActivations), "grad_activations");
}

// The storage holds the object it was given, not a copy of it: a replacement points at the new
// object and an entry's place in iteration order is the key's.
TEST(Storage, EntriesAreTheObjectsGivenNotCopies)
{
    Storage storage;
    const Object *first = held(weight(0));
    const Object *second = held(weight(0, {1}, 2));
    storage.set(MapKind::Weights, 0, first);
    storage.set(MapKind::Weights, Key(0, 1), held(weight(1)));
    EXPECT_EQ(storage.find(MapKind::Weights, 0), first);
    storage.set(MapKind::Weights, 0, second);
    EXPECT_EQ(storage.find(MapKind::Weights, 0), second);
    EXPECT_EQ(storage.entries(MapKind::Weights).front().second, second);
    EXPECT_EQ(storage.memory(), core::memoryOf(*second, storage.sizes()) +
                                    core::memoryOf(weight(1), storage.sizes()));
}

} // namespace
} // namespace rankstep::testing
