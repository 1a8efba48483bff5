// SPDX-License-Identifier: MIT
// IndexSet keeps contiguous sets as ranges and others as bitsets: every operation must give the
// members a plain std::set gives, and equal sets must compare equal whichever way they were built.
#include "core/indexset.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <limits>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace rankstep::testing {
namespace {

using core::IndexSet;
using Members = std::set<int>;

Members membersOf(const IndexSet &set)
{
    const std::vector<int> items = set.toVector();
    return Members(items.begin(), items.end());
}

IndexSet build(const Members &members)
{
    IndexSet set;
    for (int m : members)
        set.insert(m);
    return set;
}

// Runs, single members and gaps around word boundaries (64, 128) and far away (1000).
Members randomMembers(std::mt19937 &random)
{
    Members out;
    const int runs = std::uniform_int_distribution<int>(0, 3)(random);
    for (int r = 0; r < runs; ++r) {
        const int begin = std::uniform_int_distribution<int>(0, 200)(random);
        const int length = std::uniform_int_distribution<int>(1, 90)(random);
        for (int i = begin; i < begin + length; ++i)
            out.insert(i);
    }
    if (std::uniform_int_distribution<int>(0, 4)(random) == 0)
        out.insert(1000);
    return out;
}

void expectSame(const IndexSet &set, const Members &expected)
{
    EXPECT_EQ(membersOf(set), expected);
    EXPECT_EQ(set.size(), int(expected.size()));
    EXPECT_EQ(set.empty(), expected.empty());
    EXPECT_EQ(set.first(), expected.empty() ? -1 : *expected.begin());
    EXPECT_EQ(set.last(), expected.empty() ? -1 : *expected.rbegin());
    EXPECT_EQ(set, build(expected)); // the same set built member by member
    std::vector<std::pair<int, int>> runs, expectedRuns;
    set.forEachRun([&](int begin, int end) { runs.emplace_back(begin, end); });
    for (int m : expected) {
        if (!expectedRuns.empty() && expectedRuns.back().second == m)
            ++expectedRuns.back().second;
        else
            expectedRuns.emplace_back(m, m + 1);
    }
    EXPECT_EQ(runs, expectedRuns);
}

TEST(IndexSet, EveryOperationAgreesWithAPlainSet)
{
    std::mt19937 random(16);
    for (int round = 0; round < 2000; ++round) {
        const Members a = randomMembers(random);
        const Members b = randomMembers(random);
        const IndexSet x = build(a);
        const IndexSet y = build(b);
        Members both, either, onlyA;
        std::set_intersection(a.begin(), a.end(), b.begin(), b.end(),
                              std::inserter(both, both.end()));
        std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::inserter(either, either.end()));
        std::set_difference(a.begin(), a.end(), b.begin(), b.end(),
                            std::inserter(onlyA, onlyA.end()));
        expectSame(x, a);
        expectSame(x | y, either);
        expectSame(x & y, both);
        expectSame(x.minus(y), onlyA);
        IndexSet grown = x;
        grown |= y;
        expectSame(grown, either);
        EXPECT_EQ(x.isSubsetOf(y), std::includes(b.begin(), b.end(), a.begin(), a.end()));
        EXPECT_EQ(x.intersects(y), !both.empty());
        EXPECT_EQ(x == y, a == b);
        for (int probe : {0, 63, 64, 127, 128, 150, 999, 1000, 1001})
            EXPECT_EQ(x.contains(probe), a.count(probe) == 1);
        if (HasFailure())
            FAIL() << "round " << round << ": " << core::formatSet(x) << " and "
                   << core::formatSet(y);
    }
}

TEST(IndexSet, SetsThatBecomeContiguousEqualTheirRange)
{
    IndexSet gaps{0, 2, 65};
    gaps.insert(1);
    EXPECT_NE(gaps, IndexSet::range(0, 3));
    for (int i = 3; i < 65; ++i)
        gaps.insert(i);
    EXPECT_EQ(gaps, IndexSet::range(0, 66));
    EXPECT_TRUE(gaps.isPrefix(66));
    EXPECT_EQ(IndexSet({5, 7}) | IndexSet{6}, IndexSet::range(5, 8));
    EXPECT_EQ(IndexSet::range(0, 10).minus(IndexSet::range(3, 5)) | IndexSet::range(2, 6),
              IndexSet::range(0, 10));
    EXPECT_EQ(IndexSet::range(0, 4) & IndexSet::range(4, 8), IndexSet());
    EXPECT_FALSE(IndexSet{1}.isPrefix(1));
    EXPECT_TRUE(IndexSet().isPrefix(0));
}

// The binary trace writes a set as its runs (core/io/binarycodec.cpp): every shard of 1024 ranks
// is one run, found without visiting its members.
TEST(IndexSet, AContiguousSetIsOneRunAndScatteredOnesAreTheirRuns)
{
    std::vector<std::pair<int, int>> runs;
    const auto collect = [&](int begin, int end) {
        runs.emplace_back(begin, end);
    };
    IndexSet::range(0, 1024).forEachRun(collect);
    EXPECT_EQ(runs, (std::vector<std::pair<int, int>>{{0, 1024}}));
    runs.clear();
    IndexSet().forEachRun(collect);
    EXPECT_TRUE(runs.empty());
    (IndexSet::range(60, 70) | IndexSet{72, 200}).forEachRun(collect);
    EXPECT_EQ(runs, (std::vector<std::pair<int, int>>{{60, 70}, {72, 73}, {200, 201}}));
}

TEST(IndexSet, CopiesAndMovesKeepTheirMembers)
{
    IndexSet scattered{1, 3, 200};
    IndexSet copy = scattered;
    IndexSet moved = std::move(scattered);
    EXPECT_EQ(copy, moved);
    EXPECT_EQ(formatSet(moved), "{1, 3, 200}");
    copy = IndexSet::range(4, 6);
    moved = copy;
    EXPECT_EQ(formatSet(moved), "{4, 5}");
    copy = copy; // NOLINT: self-assignment keeps the set
    EXPECT_EQ(formatSet(copy), "{4, 5}");
}

// A range is one word: begin in 31 bits, end in 32 (core/indexset.h). Every range of ints fits,
// the largest begin and end included, and neither half leaks into the other or the heap bit.
TEST(IndexSet, TheWordHoldsTheLargestRangesOfInts)
{
    constexpr int kMost = std::numeric_limits<int>::max();
    const IndexSet whole = IndexSet::range(0, kMost);
    EXPECT_FALSE(whole.onHeap());
    EXPECT_EQ(whole.size(), kMost);
    EXPECT_EQ(whole.first(), 0);
    EXPECT_EQ(whole.last(), kMost - 1);
    EXPECT_TRUE(whole.isPrefix(kMost));
    EXPECT_TRUE(whole.contains(kMost - 1));
    EXPECT_FALSE(whole.contains(kMost));
    EXPECT_EQ(whole.rangeHint(), std::uint64_t(unsigned(kMost)));

    const IndexSet top = IndexSet::range(kMost - 1, kMost); // the largest begin
    EXPECT_FALSE(top.onHeap());
    EXPECT_EQ(top.size(), 1);
    EXPECT_EQ(top.first(), kMost - 1);
    EXPECT_EQ(top.last(), kMost - 1);
    EXPECT_EQ(top, IndexSet{kMost - 1});
    EXPECT_EQ(top.rangeHint(), std::uint64_t(unsigned(kMost - 1)) << 32 | unsigned(kMost));
    EXPECT_NE(top, whole);
    EXPECT_TRUE(top.isSubsetOf(whole));
    EXPECT_EQ(whole & top, top);
    EXPECT_EQ(whole.minus(IndexSet::range(0, kMost - 1)), top);

    // The bits next to each half's edge: begin's highest (2^30) and end's (2^30, 2^31 - 1).
    const IndexSet high = IndexSet::range(1 << 30, (1 << 30) + 2);
    EXPECT_EQ(high.first(), 1 << 30);
    EXPECT_EQ(high.last(), (1 << 30) + 1);
    EXPECT_NE(high, IndexSet::range(0, 2));
    EXPECT_FALSE(high.intersects(IndexSet::range(0, 2)));
    EXPECT_NE(IndexSet::range(0, 1 << 30), IndexSet::range(0, kMost));

    // Grown in place up to the largest end, by a member and by a touching range.
    IndexSet grown = IndexSet::range(5, kMost - 1);
    grown.insert(kMost - 1);
    EXPECT_EQ(grown, IndexSet::range(5, kMost));
    IndexSet united = IndexSet::range(0, 3);
    united |= IndexSet::range(3, kMost);
    EXPECT_EQ(united, whole);
    EXPECT_FALSE(united.onHeap());
}

// A negative index is no member: inserting one changes nothing (a range's word has no sign).
TEST(IndexSet, ANegativeIndexIsNoMember)
{
    IndexSet set = IndexSet::range(0, 3);
    set.insert(-1);
    EXPECT_EQ(set, IndexSet::range(0, 3));
    EXPECT_EQ(set.first(), 0);
    EXPECT_EQ(set.size(), 3);
    IndexSet none;
    none.insert(-5);
    EXPECT_TRUE(none.empty());
    EXPECT_FALSE(set.contains(-1));
    EXPECT_EQ(IndexSet{-2}, IndexSet());
}

// The bitset form: its word count on the heap beside its members. Sets of different lengths,
// and a bitset beside a range, never compare equal; equal sets hash alike however they were made.
TEST(IndexSet, BitsetsCompareAndHashByTheirMembers)
{
    const IndexSet scattered{1, 3, 200};
    EXPECT_TRUE(scattered.onHeap());
    EXPECT_EQ(scattered.size(), 3);
    EXPECT_EQ(scattered.last(), 200);
    const IndexSet built = (IndexSet{1} | IndexSet{200}) | IndexSet::range(3, 4);
    EXPECT_EQ(scattered, built);
    EXPECT_EQ(scattered.rangeHint(), built.rangeHint());
    EXPECT_EQ(scattered, IndexSet::fromVector({200, 3, 1}));
    EXPECT_NE(scattered, (IndexSet{1, 3}));      // fewer words
    EXPECT_NE(scattered, (IndexSet{1, 3, 300})); // more words
    EXPECT_NE(scattered, (IndexSet{1, 4, 200})); // as many
    EXPECT_NE(scattered.rangeHint(), (IndexSet{1, 3, 300}).rangeHint());

    // Made contiguous, a bitset is its range again: the same word, equal and hashed alike.
    IndexSet filled{0, 2};
    EXPECT_TRUE(filled.onHeap());
    EXPECT_NE(filled, IndexSet::range(0, 3));
    filled.insert(1);
    EXPECT_FALSE(filled.onHeap());
    EXPECT_EQ(filled, IndexSet::range(0, 3));
    EXPECT_EQ(filled.rangeHint(), IndexSet::range(0, 3).rangeHint());
    EXPECT_EQ((IndexSet{0, 2, 70}).minus(IndexSet{2, 70}), IndexSet{0});
    EXPECT_FALSE((IndexSet{0, 2, 70}).minus(IndexSet{2, 70}).onHeap());
}

// Copies and moves of both forms into both forms, and each onto itself.
TEST(IndexSet, CopiesMovesAndSelfAssignmentOfBothForms)
{
    const IndexSet bitset{1, 3, 200};
    const IndexSet range = IndexSet::range(4, 6);
    for (const IndexSet *from : {&bitset, &range}) {
        for (const IndexSet *into : {&bitset, &range}) {
            IndexSet copied = *into;
            copied = *from;
            EXPECT_EQ(copied, *from);
            EXPECT_EQ(copied.onHeap(), from->onHeap());
            IndexSet source = *from;
            IndexSet moved = *into;
            moved = std::move(source);
            EXPECT_EQ(moved, *from);
            EXPECT_TRUE(source.empty()); // NOLINT: a moved-from set is empty
            EXPECT_FALSE(source.onHeap());
            IndexSet constructed(std::move(moved));
            EXPECT_EQ(constructed, *from);
            EXPECT_TRUE(moved.empty()); // NOLINT: a moved-from set is empty
        }
        IndexSet self = *from;
        IndexSet &alias = self;
        self = alias;
        EXPECT_EQ(self, *from);
        self = std::move(alias);
        EXPECT_EQ(self, *from);
    }
    IndexSet changed = bitset; // a copy owns its bitset: changing it leaves the original
    changed.insert(2);
    EXPECT_EQ(formatSet(bitset), "{1, 3, 200}");
    EXPECT_EQ(formatSet(changed), "{1, 2, 3, 200}");
}

} // namespace
} // namespace rankstep::testing
