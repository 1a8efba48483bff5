// SPDX-License-Identifier: MIT
// What a trace holds for viewers: slices, storage changes that replay to the event memories,
// and the final-weight check.
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace rankstep::testing {
namespace {

using core::IndexSet;
using core::SliceEnd;

TEST(TraceSlices, DataParallelRunSuspendsAtEachAllreduceInSchedulerOrder)
{
    const core::Trace trace = runProgram(makeConfig(4, 2, 4), ddp);
    ASSERT_EQ(trace.status, core::RunStatus::Ok);
    // Ranks start in order 0..3; rank 3 completes allreduce(layer 0) and runs on to layer 1;
    // rank 2 completes allreduce(layer 1) and finishes; then 0, 1, 3 as their waits completed.
    struct Expected {
        int rank;
        SliceEnd end;
        const char *detail;
    };
    const Expected expected[] = {
        {0, SliceEnd::Collective, "allreduce(layer 0)"},
        {1, SliceEnd::Collective, "allreduce(layer 0)"},
        {2, SliceEnd::Collective, "allreduce(layer 0)"},
        {3, SliceEnd::Collective, "allreduce(layer 1)"},
        {0, SliceEnd::Collective, "allreduce(layer 1)"},
        {1, SliceEnd::Collective, "allreduce(layer 1)"},
        {2, SliceEnd::Finished, ""},
        {0, SliceEnd::Finished, ""},
        {1, SliceEnd::Finished, ""},
        {3, SliceEnd::Finished, ""},
    };
    ASSERT_EQ(trace.slices.size(), std::size(expected));
    for (std::size_t i = 0; i < trace.slices.size(); ++i) {
        EXPECT_EQ(trace.slices[i].rank, expected[i].rank) << "slice " << i;
        EXPECT_EQ(trace.slices[i].end, expected[i].end) << "slice " << i;
        EXPECT_EQ(trace.detail(trace.slices[i]), expected[i].detail) << "slice " << i;
    }
    // Rank 0's first slice: 2 forwards, the loss and 2 backwards.
    EXPECT_EQ(trace.slices[0].eventEnd - trace.slices[0].eventBegin, 5U);
    // 4 ranks * (2 forward + loss + 2 backward + 2 allreduce + 2 update).
    EXPECT_EQ(trace.events.size(), 36U);
}

// Pairs of ranks allreduce the same layer in their own group, then receive from a named rank
// and from any rank: every wait has its own words, though the engine makes each text once.
// (GCC 12 refuses a braced list in a coroutine's body: the values are made outside.)
std::vector<int> pairOf(int rank)
{
    return rank < 2 ? std::vector<int>{0, 1} : std::vector<int>{2, 3};
}

core::RankTask groupsThenMessages(core::Model &m)
{
    const core::IndexSet own = core::IndexSet::range(m.rank, m.rank + 1);
    co_await m.allreduce(m.fakeGrad(0, own), 0, pairOf(m.rank));
    if (m.rank == 0) {
        co_await m.passTo(1, m.fakeGrad(1, own));
        co_await m.passTo(3, m.fakeGrad(1, own));
    } else if (m.rank == 1) {
        co_await m.receive(0);
    } else if (m.rank == 3) {
        co_await m.receive();
    }
}

TEST(TraceSlices, EachGroupAndSourceOfAWaitHasItsOwnText)
{
    const core::Trace trace = runProgram(makeConfig(4, 2, 4), groupsThenMessages);
    ASSERT_EQ(trace.status, core::RunStatus::Ok) << (trace.error ? trace.error->message : "");
    std::vector<std::pair<int, std::string>> waits;
    for (const core::Slice &slice : trace.slices)
        if (slice.end != SliceEnd::Finished)
            waits.emplace_back(slice.rank, trace.detail(slice));
    const std::vector<std::pair<int, std::string>> expected{
        {0, "allreduce(layer 0) of group {0, 1}"},
        {1, "receive from rank 0"},
        {2, "allreduce(layer 0) of group {2, 3}"},
        {3, "receive from any rank"},
    };
    EXPECT_EQ(waits, expected);
}

TEST(SliceDetails, InternFindsATextAddedWithoutALookup)
{
    core::SliceDetails details;
    EXPECT_EQ(details.intern(""), 0U);
    EXPECT_EQ(details.addNew("allreduce(layer 0)"), 1U);
    EXPECT_EQ(details.intern("rank 1 failed"), 2U);
    EXPECT_EQ(details.addNew("allgather(layer 1)"), 3U);
    EXPECT_EQ(details.intern("allgather(layer 1)"), 3U);
    EXPECT_EQ(details.intern("allreduce(layer 0)"), 1U);
    EXPECT_EQ(details.intern("rank 1 failed"), 2U);
    EXPECT_EQ(details.intern("receive from rank 0"), 4U);
    EXPECT_EQ(details.size(), 5U);
    EXPECT_EQ(details[3], "allgather(layer 1)");
    EXPECT_EQ(details[4], "receive from rank 0");
}

class TraceOfReference : public ::testing::TestWithParam<PuzzleCase>
{};

// The engine adds a wait's text without looking it up (SliceDetails::addNew): each must still be
// there once.
TEST_P(TraceOfReference, EachSliceTextIsThereOnce)
{
    const core::Trace trace = runReference(GetParam().name);
    std::vector<std::string> texts;
    for (std::uint32_t id = 1; id < trace.details.size(); ++id)
        texts.push_back(trace.details[id]);
    ASSERT_FALSE(texts.empty() && GetParam().ranks > 1);
    std::sort(texts.begin(), texts.end());
    EXPECT_EQ(std::adjacent_find(texts.begin(), texts.end()), texts.end());
}

TEST_P(TraceOfReference, SlicesPartitionTheEventsAndChanges)
{
    const PuzzleCase &puzzle = GetParam();
    const core::Trace trace =
        runProgram(makeConfig(puzzle.ranks, puzzle.layers, puzzle.batches), puzzle.program);
    ASSERT_FALSE(trace.slices.empty());
    std::size_t event = 0;
    std::size_t change = 0;
    for (const core::Slice &slice : trace.slices) {
        EXPECT_EQ(slice.eventBegin, event);
        EXPECT_EQ(slice.changeBegin, change);
        EXPECT_LE(slice.eventBegin, slice.eventEnd);
        EXPECT_LE(slice.changeBegin, slice.changeEnd);
        event = slice.eventEnd;
        change = slice.changeEnd;
    }
    EXPECT_EQ(event, trace.events.size());
    EXPECT_EQ(change, trace.changes.size());
    EXPECT_EQ(trace.slices.back().end, SliceEnd::Finished);
}

TEST_P(TraceOfReference, ReplayingTheChangesGivesEveryEventsMemory)
{
    const PuzzleCase &puzzle = GetParam();
    const core::Trace trace =
        runProgram(makeConfig(puzzle.ranks, puzzle.layers, puzzle.batches), puzzle.program);
    std::vector<core::Storage> replay(std::size_t(puzzle.ranks));
    std::size_t next = 0;
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        // Changes made before event i was recorded.
        for (; next < trace.changes.size() && trace.changes[next].eventCount <= i; ++next) {
            const core::StorageChange &c = trace.changes[next];
            core::Storage &storage = replay[std::size_t(c.rank)];
            if (const core::Object *object = trace.changes.object(c)) {
                storage.set(c.map, c.key, object);
            } else {
                ASSERT_TRUE(storage.erase(c.map, c.key)) << "change " << next;
            }
            ASSERT_EQ(storage.memory(), c.memoryAfter) << "change " << next;
        }
        const core::Event &e = trace.events[i];
        ASSERT_EQ(e.memory, replay[std::size_t(e.rank)].memory()) << "event " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Reference, TraceOfReference, ::testing::ValuesIn(referencePuzzles()),
                         [](const ::testing::TestParamInfo<PuzzleCase> &param) {
                             std::string name = param.param.name;
                             std::erase(name, '_');
                             return name;
                         });

TEST(TraceChanges, RecordWhatWasSetOrDeletedWithLineAndMemory)
{
    const core::Trace trace = runProgram(makeConfig(1, 2, 4), basic);
    ASSERT_FALSE(trace.changes.empty());
    const core::StorageChange &first = trace.changes.front();
    EXPECT_EQ(first.map, core::MapKind::Weights);
    EXPECT_EQ(first.key, core::Key(0));
    ASSERT_TRUE(first.isSet());
    EXPECT_EQ(trace.changes.object(first)->kind, core::ObjectKind::Weight);
    EXPECT_EQ(first.eventCount, 0U);
    EXPECT_EQ(first.memoryAfter, 262144);
    EXPECT_GT(first.line, 0);
    // Basic training deletes every activation and gradient; weights and optimizer states of
    // 2 layers stay, plus the 2 weight gradients: 6 full layers' worth.
    EXPECT_EQ(trace.changes.back().memoryAfter, 6 * 262144);
    const auto deletes = std::count_if(trace.changes.begin(), trace.changes.end(),
                                       [](const core::StorageChange &c) { return !c.isSet(); });
    EXPECT_EQ(deletes, 6); // activations 2, 1, 0 and gradients 2, 1, 0
}

// A rank's storage holds the very object its set recorded (one object, not two copies), and the
// record keeps it after a delete and after the trace leaves the engine.
TEST(TraceChanges, TheStorageHoldsTheObjectTheRecordKept)
{
    core::Engine engine(makeConfig(1, 2, 4));
    const core::CallSite at{0, 7};
    ASSERT_TRUE(engine.store(at, core::MapKind::Weights, 0, weight(0)));
    const core::ChangeLog &log = engine.trace().changes;
    const core::Object *kept = log.object(log.back());
    ASSERT_NE(kept, nullptr);
    EXPECT_EQ(engine.storage(0).find(core::MapKind::Weights, 0), kept);
    ASSERT_TRUE(engine.store(at, core::MapKind::Weights, 0, weight(0, {1}, 2)));
    const core::Object *replacement = log.object(log.back());
    EXPECT_NE(replacement, kept);
    EXPECT_EQ(engine.storage(0).find(core::MapKind::Weights, 0), replacement);
    ASSERT_TRUE(engine.erase(at, core::MapKind::Weights, 0));
    EXPECT_EQ(engine.storage(0).find(core::MapKind::Weights, 0), nullptr);
    const core::Trace trace = engine.takeTrace();
    ASSERT_EQ(trace.changes.size(), 3U);
    EXPECT_EQ(trace.changes.object(trace.changes[0]), kept);
    EXPECT_EQ(*trace.changes.object(trace.changes[0]), weight(0));
    EXPECT_EQ(*trace.changes.object(trace.changes[1]), weight(0, {1}, 2));
    EXPECT_EQ(trace.changes.object(trace.changes[2]), nullptr);
}

TEST(FinalWeightCheck, NamesALayerNoRankSet)
{
    const auto result = core::checkFinalWeights({{{0, weight(0, {0}, 1, 1)}}}, 2);
    EXPECT_FALSE(result.passed);
    EXPECT_EQ(result.message,
              "layer 1: no rank set a final weight (no weights[layer] when the code ends)");
}

TEST(FinalWeightCheck, NamesARankWhoseWeightWasNotUpdated)
{
    const auto result =
        core::checkFinalWeights({{{0, weight(0, {0}, 2, 1)}}, {{0, weight(0, {1}, 2, 0)}}}, 1);
    EXPECT_FALSE(result.passed);
    EXPECT_EQ(result.message,
              "layer 0: the final weight of rank 1 is at step 0, but every final "
              "weight must be updated once (step 1)");
}

TEST(FinalWeightCheck, SaysOnceInOneLineThatNoLayerWasUpdated)
{
    // A pipeline's untouched starter: each rank holds its own layers, none updated.
    std::vector<core::WeightsByLayer> finals(4);
    for (int layer = 0; layer < 8; ++layer)
        finals[std::size_t(layer / 2)][layer] = weight(layer, {0}, 1, 0);

    const auto result = core::checkFinalWeights(finals, 8);

    EXPECT_FALSE(result.passed);
    EXPECT_EQ(result.message,
              "layers 0-7: the final weights were never updated (step 0), but "
              "every final weight must be updated once (step 1)");
}

TEST(FinalWeightCheck, ListsLayersOfEachProblemOnce)
{
    const auto result =
        core::checkFinalWeights({{{0, weight(0, {0}, 1, 1)}, {2, weight(2, {0}, 1, 1)}}}, 5);

    EXPECT_EQ(result.message,
              "layers 1, 3, 4: no rank set a final weight (no weights[layer] when the code ends)");
}

TEST(FinalWeightCheck, NamesShardsNoRankUpdated)
{
    const auto result =
        core::checkFinalWeights({{{0, weight(0, {0}, 4, 1)}}, {{0, weight(0, {1}, 4, 1)}}}, 1);
    EXPECT_FALSE(result.passed);
    EXPECT_EQ(result.message,
              "layer 0: the final weights of all ranks together hold shards "
              "{0, 1} of 4; shards {2, 3} were never updated");
}

TEST(FinalWeightCheck, PassesWhenShardsTogetherAreComplete)
{
    std::vector<core::WeightsByLayer> finals(4);
    for (int r = 0; r < 4; ++r)
        finals[std::size_t(r)][0] = weight(0, {r}, 4, 1);
    const auto result = core::checkFinalWeights(finals, 1);
    EXPECT_TRUE(result.passed) << result.message;
    EXPECT_EQ(result.message, "Correct!");
}

// The check as it was first written, a layer at a time with a lookup per rank: the one-pass
// check must say exactly what it said.
std::string layerByLayer(const std::vector<core::WeightsByLayer> &finals, int layers)
{
    std::vector<std::pair<std::string, std::vector<int>>> problems;
    for (int layer = 0; layer < layers; ++layer) {
        std::string problem;
        IndexSet shards;
        int total = -1;
        bool complete = false, any = false, anyUpdated = false;
        for (const auto &rank : finals)
            if (auto it = rank.find(layer); it != rank.end())
                anyUpdated = anyUpdated || it->second.step == 1;
        for (std::size_t r = 0; r < finals.size() && problem.empty(); ++r) {
            auto it = finals[r].find(layer);
            if (it == finals[r].end())
                continue;
            const core::Object &w = it->second;
            any = true;
            if (w.step == 0 && !anyUpdated)
                problem =
                    "the final weights were never updated (step 0), but every final weight "
                    "must be updated once (step 1)";
            else if (w.step != 1)
                problem = "the final weight of rank " + std::to_string(r) + " is at step " +
                          std::to_string(w.step) +
                          ", but every final weight must be updated once (step 1)";
            complete = complete || w.isComplete();
            if (total < 0 || w.total == total) {
                total = w.total;
                shards |= w.shards;
            }
        }
        if (problem.empty() && !any)
            problem = "no rank set a final weight (no weights[layer] when the code ends)";
        else if (problem.empty() && !complete && !(shards == IndexSet::range(0, total)))
            problem = "the final weights of all ranks together hold shards " +
                      core::formatSet(shards) + " of " + std::to_string(total) + "; shards " +
                      core::formatSet(IndexSet::range(0, total).minus(shards)) +
                      " were never updated";
        if (problem.empty())
            continue;
        auto same = std::find_if(problems.begin(), problems.end(),
                                 [&](const auto &p) { return p.first == problem; });
        if (same == problems.end())
            problems.push_back({problem, {layer}});
        else
            same->second.push_back(layer);
    }
    std::string message;
    for (const auto &[problem, where] : problems) {
        std::string layersText = where.size() == 1 ? "layer " : "layers ";
        const bool contiguous = where.back() - where.front() + 1 == int(where.size());
        if (where.size() > 1 && contiguous)
            layersText += std::to_string(where.front()) + "-" + std::to_string(where.back());
        else
            for (std::size_t i = 0; i < where.size(); ++i)
                layersText += (i == 0 ? "" : ", ") + std::to_string(where[i]);
        message += (message.empty() ? "" : "; ") + layersText + ": " + problem;
    }
    return message.empty() ? "Correct!" : message;
}

TEST(FinalWeightCheck, SaysWhatALayerByLayerCheckSaysForRandomFinalWeights)
{
    std::mt19937 random(20261126);
    auto pick = [&](int low, int high) {
        return std::uniform_int_distribution<int>(low, high)(random);
    };
    int failing = 0;
    for (int round = 0; round < 3000; ++round) {
        const int ranks = pick(1, 5), layers = pick(1, 4);
        std::vector<core::WeightsByLayer> finals(static_cast<std::size_t>(ranks));
        for (auto &rank : finals)
            for (int layer = -1; layer <= layers; ++layer) {
                if (pick(0, 2) == 0)
                    continue;
                const int total = pick(1, 3);
                IndexSet shards;
                for (int s = 0; s < total; ++s)
                    if (pick(0, 2) != 0)
                        shards.insert(s);
                const int step = pick(0, 5) == 0 ? pick(0, 2) : 1;
                rank[layer] = weight(layer, shards, total, step);
            }
        const core::CheckResult result = core::checkFinalWeights(finals, layers);
        ASSERT_EQ(result.message, layerByLayer(finals, layers)) << "round " << round;
        EXPECT_EQ(result.passed, result.message == "Correct!");
        failing += result.passed ? 0 : 1;
    }
    // Both outcomes, and so every kind of problem, came up many times.
    EXPECT_GT(failing, 300);
    EXPECT_LT(failing, 2700);
}

} // namespace
} // namespace rankstep::testing
