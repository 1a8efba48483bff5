// SPDX-License-Identifier: MIT
// What the state view fades in and out between two states of the DDP run.
#include "statechanges.h"
#include "statetestsupport.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gui = rankstep::gui;
using rankstep::core::MapKind;

namespace {

int countFlags(const rankstep::replay::RankState &rank, int index,
               bool (gui::StateChanges::*test)(int, MapKind, std::size_t) const,
               const gui::StateChanges &changes)
{
    int count = 0;
    for (int m = 0; m < rankstep::core::kMapCount; ++m)
        for (std::size_t i = 0; i < rank.map(MapKind(m)).size(); ++i)
            count += (changes.*test)(index, MapKind(m), i) ? 1 : 0;
    return count;
}

TEST(StateChanges, EverythingRankZeroMadeInItsFirstSliceIsFresh)
{
    gui::testing::ReplayedRun run("ddp");
    const auto home = run.afterSlices(0), first = run.afterSlices(1);
    const gui::StateChanges changes(home, first, run.trace().get());
    EXPECT_TRUE(changes.any());
    EXPECT_EQ(countFlags(first.ranks[0], 0, &gui::StateChanges::fresh, changes), 8);
    EXPECT_EQ(countFlags(first.ranks[1], 1, &gui::StateChanges::fresh, changes), 0);
    EXPECT_EQ(countFlags(home.ranks[0], 0, &gui::StateChanges::gone, changes), 0);
    EXPECT_FALSE(changes.arrived(0, MapKind::Weights, 0)); // loaded, not received
}

TEST(StateChanges, GoingBackLetsThemGoAndTheSameStateChangesNothing)
{
    gui::testing::ReplayedRun run("ddp");
    const auto home = run.afterSlices(0), first = run.afterSlices(1);
    const gui::StateChanges back(first, home, run.trace().get());
    EXPECT_TRUE(back.any());
    EXPECT_EQ(countFlags(first.ranks[0], 0, &gui::StateChanges::gone, back), 8);
    EXPECT_FALSE(gui::StateChanges(first, first, run.trace().get()).any());
    EXPECT_FALSE(back.fresh(0, MapKind::Weights, 99)); // out of range is simply not fresh
    EXPECT_FALSE(back.gone(7, MapKind::Weights, 0));
}

TEST(StateChanges, ComparesOnlyTheRanksItIsGiven)
{
    gui::testing::ReplayedRun run("ddp");
    const auto home = run.afterSlices(0), first = run.afterSlices(1);
    const gui::StateChanges others(home, first, run.trace().get(), {1, 2, 42});
    EXPECT_FALSE(others.any()); // only rank 0 worked in the first slice
    EXPECT_EQ(countFlags(first.ranks[0], 0, &gui::StateChanges::fresh, others), 0);
    const gui::StateChanges rankZero(home, first, run.trace().get(), {0});
    EXPECT_TRUE(rankZero.any());
    EXPECT_EQ(countFlags(first.ranks[0], 0, &gui::StateChanges::fresh, rankZero), 8);
}

TEST(StateChanges, AReducedGradientReplacesTheLocalOneAndCameByCommunication)
{
    gui::testing::ReplayedRun run("ddp");
    const auto before = run.afterSlices(4), after = run.afterSlices(5);
    const gui::StateChanges changes(before, after, run.trace().get());
    const auto &grads = after.ranks[0].map(MapKind::GradWeights);
    const auto reduced = std::find_if(grads.begin(), grads.end(), [](const auto &entry) {
        return entry.key() == rankstep::core::Key(0);
    });
    ASSERT_NE(reduced, grads.end());
    EXPECT_EQ(reduced->object().batches.size(), 4); // every rank's batch summed
    const auto index = std::size_t(reduced - grads.begin());
    EXPECT_TRUE(changes.fresh(0, MapKind::GradWeights, index));
    EXPECT_TRUE(changes.arrived(0, MapKind::GradWeights, index)); // stored after the allreduce
    const auto &local = before.ranks[0].map(MapKind::GradWeights);
    for (std::size_t i = 0; i < local.size(); ++i) // the local gradient fades out under it
        EXPECT_EQ(changes.gone(0, MapKind::GradWeights, i),
                  local[i].key() == rankstep::core::Key(0));
    const auto &weights = after.ranks[0].map(MapKind::Weights);
    ASSERT_FALSE(weights.empty());
    EXPECT_TRUE(changes.fresh(0, MapKind::Weights, 0));    // updated ...
    EXPECT_FALSE(changes.arrived(0, MapKind::Weights, 0)); // ... by rank 0 itself
}

} // namespace
