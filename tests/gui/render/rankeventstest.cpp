// SPDX-License-Identifier: MIT
// The timeline's per-rank index against the four plain lists it stands for, built here the plain
// way, on simulated runs (whose ranks keep their indices only) and on random hand-made traces
// (whose ranks break the start order, overlap and tie).
#include "tests/core/referencepuzzles.h"
#include "timelinegeometry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using rankstep::core::Event;
using rankstep::core::OpKind;
using rankstep::core::SimTime;
using rankstep::core::Trace;
using namespace rankstep::gui;

namespace {

struct PlainRank {
    std::vector<std::size_t> byStart, byIndex, firstLater;
    std::vector<std::int64_t> endSoFar;
};

std::vector<PlainRank> plainIndex(const Trace &trace)
{
    int count = std::max(0, trace.config.ranks);
    for (const Event &event : trace.events)
        count = std::max(count, event.rank + 1);
    std::vector<PlainRank> ranks(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < trace.events.size(); ++i)
        if (trace.events[i].rank >= 0)
            ranks[std::size_t(trace.events[i].rank)].byIndex.push_back(i);
    for (PlainRank &rank : ranks) {
        rank.byStart = rank.byIndex;
        std::stable_sort(rank.byStart.begin(), rank.byStart.end(), [&](auto a, auto b) {
            return trace.events[a].start < trace.events[b].start;
        });
        std::int64_t latest = std::numeric_limits<std::int64_t>::min();
        for (const std::size_t i : rank.byStart) {
            latest = std::max(latest, trace.events[i].end().ticks());
            rank.endSoFar.push_back(latest);
        }
        rank.firstLater.resize(rank.byIndex.size());
        for (std::size_t k = rank.byIndex.size(); k-- > 0;) {
            const std::size_t i = rank.byIndex[k];
            const bool later = k + 1 < rank.byIndex.size() &&
                               trace.events[rank.firstLater[k + 1]].start <= trace.events[i].start;
            rank.firstLater[k] = later ? rank.firstLater[k + 1] : i;
        }
    }
    return ranks;
}

// Every list and every search of the index against the plain lists.
void expectSameAsPlain(const Trace &trace)
{
    const std::vector<RankEvents> ranks = indexByRank(trace);
    const std::vector<PlainRank> plain = plainIndex(trace);
    ASSERT_EQ(ranks.size(), plain.size());
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const RankEvents &rank = ranks[r];
        const PlainRank &expected = plain[r];
        ASSERT_EQ(rank.size(), expected.byIndex.size()) << "rank " << r;
        for (std::size_t k = 0; k < rank.size(); ++k) {
            ASSERT_EQ(rank.byIndex(k), expected.byIndex[k]) << "rank " << r << " at " << k;
            ASSERT_EQ(rank.byStart(k), expected.byStart[k]) << "rank " << r << " at " << k;
            ASSERT_EQ(rank.endSoFar(k), expected.endSoFar[k]) << "rank " << r << " at " << k;
            ASSERT_EQ(rank.firstLater(k), expected.firstLater[k]) << "rank " << r << " at " << k;
        }
        for (std::size_t applied = 0; applied <= trace.events.size(); ++applied) {
            const auto next =
                std::lower_bound(expected.byIndex.begin(), expected.byIndex.end(), applied);
            const auto k = std::size_t(next - expected.byIndex.begin());
            const std::optional<std::size_t> ghost =
                k < expected.byIndex.size() ? std::optional(expected.firstLater[k]) : std::nullopt;
            const std::optional<std::size_t> last =
                k > 0 ? std::optional(expected.byIndex[k - 1]) : std::nullopt;
            ASSERT_EQ(firstGhost(rank, applied), ghost) << "rank " << r << " after " << applied;
            ASSERT_EQ(lastApplied(rank, applied), last) << "rank " << r << " after " << applied;
        }
        const std::int64_t end = trace.figures.endTime.ticks() + 2000;
        for (std::int64_t from = -500; from < end; from += 250) {
            for (const double reach : {0.0, 300.0}) {
                const double to = double(from) + 700.0;
                // The plain searches: the first whose latest end reaches from, up to the first
                // that starts after to.
                std::size_t first = 0;
                while (first < expected.endSoFar.size() &&
                       double(expected.endSoFar[first]) < double(from) - reach)
                    ++first;
                std::size_t last = 0;
                while (last < expected.byStart.size() &&
                       double(trace.events[expected.byStart[last]].start.ticks()) <= to + reach)
                    ++last;
                ASSERT_EQ(eventsBetween(trace, rank, double(from), to, reach),
                          (std::pair{first, std::max(first, last)}))
                    << "rank " << r << " from " << from << " reach " << reach;
            }
        }
    }
}

Trace randomTrace(std::mt19937 &random, int ranks, int events, bool inOrder)
{
    Trace trace;
    trace.config.ranks = ranks;
    std::vector<std::int64_t> clock(std::size_t(ranks), 0);
    std::int64_t endTime = 0;
    for (int i = 0; i < events; ++i) {
        Event e;
        e.rank = int(random() % unsigned(ranks));
        e.op = OpKind::Forward;
        std::int64_t &at = clock[std::size_t(e.rank)];
        // Zero-length marks and ties in both; out of order and overlapping only when asked.
        at += std::int64_t(random() % 3) * 500;
        if (!inOrder && random() % 3 == 0)
            at = std::max<std::int64_t>(0, at - std::int64_t(random() % 4) * 500);
        e.start = SimTime::fromTicks(at);
        e.duration = SimTime::fromTicks(std::int64_t(random() % 3) * 500);
        if (inOrder || random() % 2 == 0)
            at += e.duration.ticks();
        endTime = std::max(endTime, e.end().ticks());
        trace.events.push_back(e);
    }
    trace.figures.hasEvents = events > 0;
    trace.figures.endTime = SimTime::fromTicks(endTime);
    return trace;
}

} // namespace

TEST(RankEvents, ARankOfASimulatedRunKeepsOnlyItsIndicesAndFindsWhatThePlainListsFind)
{
    for (const std::string name : {"gpipe", "pipeline_fsdp", "ddp"}) {
        SCOPED_TRACE(name);
        Trace trace;
        for (const auto &puzzle : rankstep::testing::referencePuzzles())
            if (puzzle.name == name)
                trace = rankstep::testing::runProgram(
                    {puzzle.ranks, puzzle.layers, puzzle.batches, {}}, puzzle.program);
        ASSERT_FALSE(trace.events.empty());
        for (const RankEvents &rank : indexByRank(trace))
            EXPECT_TRUE(rank.compact());
        expectSameAsPlain(trace);
    }
}

TEST(RankEvents, RandomTracesInAndOutOfStartOrderFindWhatThePlainListsFind)
{
    std::mt19937 random(20261128);
    for (int round = 0; round < 60; ++round) {
        const bool inOrder = round % 2 == 0;
        SCOPED_TRACE("round " + std::to_string(round));
        const Trace trace =
            randomTrace(random, 1 + round % 5, round % 7 == 0 ? 0 : 5 + round, inOrder);
        expectSameAsPlain(trace);
        if (inOrder) {
            for (const RankEvents &rank : indexByRank(trace))
                EXPECT_TRUE(rank.compact());
        }
    }
}

TEST(RankEvents, ARankWithAnEventOutOfStartOrderKeepsItsLists)
{
    Trace trace;
    trace.config.ranks = 1;
    for (const auto &[start, duration] : {std::pair{2000, 500}, {0, 1000}, {1000, 0}}) {
        Event e;
        e.start = SimTime::fromTicks(start);
        e.duration = SimTime::fromTicks(duration);
        trace.events.push_back(e);
    }
    const auto ranks = indexByRank(trace);
    ASSERT_EQ(ranks.size(), 1U);
    EXPECT_FALSE(ranks[0].compact());
    EXPECT_EQ(ranks[0].byStart(0), 1U);
    EXPECT_EQ(ranks[0].firstLater(0), 1U);
    EXPECT_EQ(ranks[0].endSoFar(2), 2500);
}
