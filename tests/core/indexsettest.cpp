// SPDX-License-Identifier: MIT
// IndexSet keeps contiguous sets as ranges and others as bitsets: every operation must give the
// members a plain std::set gives, and equal sets must compare equal whichever way they were built.
#include "core/indexset.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
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

} // namespace
} // namespace rankstep::testing
