// SPDX-License-Identifier: MIT
// A rank's final weights by layer: what the trace's readers ask of it, as of the std::map it
// replaced.
#include "testsupport.h"

#include "core/weightsbylayer.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <stdexcept>
#include <vector>

namespace rankstep::testing {
namespace {

using core::WeightsByLayer;

std::vector<int> layersOf(const WeightsByLayer &weights)
{
    std::vector<int> layers;
    for (const auto &[layer, weight] : weights)
        layers.push_back(layer);
    return layers;
}

TEST(WeightsByLayer, BehavesAsAMapForLayersInAnyOrder)
{
    std::mt19937 random(5);
    for (int round = 0; round < 200; ++round) {
        WeightsByLayer weights;
        std::map<int, core::Object> expected;
        for (int step = 0; step < 30; ++step) {
            const int layer = int(random() % 12) - 2;
            const core::Object w = weight(layer, {0}, 1, step);
            if (random() % 2 == 0) {
                weights[layer] = w;
                expected[layer] = w;
            } else {
                EXPECT_EQ(weights.emplace(layer, w).second, expected.emplace(layer, w).second);
            }
        }
        ASSERT_EQ(weights.size(), expected.size());
        auto it = weights.begin();
        for (const auto &[layer, w] : expected) {
            EXPECT_EQ(it->first, layer);
            EXPECT_EQ(it->second, w);
            ++it;
        }
        for (int layer = -3; layer < 11; ++layer) {
            EXPECT_EQ(weights.find(layer) != weights.end(), expected.count(layer) == 1) << layer;
            if (expected.count(layer) == 1) {
                EXPECT_EQ(weights.at(layer), expected.at(layer));
            }
        }
    }
}

TEST(WeightsByLayer, AnExistingLayerKeepsItsWeightOnEmplaceAndTakesTheNewOneOnAssignment)
{
    WeightsByLayer weights{{2, weight(2)}, {0, weight(0)}};
    EXPECT_EQ(layersOf(weights), (std::vector<int>{0, 2}));
    const auto [it, added] = weights.emplace(2, weight(2, {0}, 1, 1));
    EXPECT_FALSE(added);
    EXPECT_EQ(it->second.step, 0);
    weights[2] = weight(2, {0}, 1, 1);
    EXPECT_EQ(weights.at(2).step, 1);
    weights[1] = weight(1);
    EXPECT_EQ(layersOf(weights), (std::vector<int>{0, 1, 2}));
    EXPECT_THROW((void)weights.at(5), std::out_of_range);
    EXPECT_EQ(weights, (WeightsByLayer{{0, weight(0)}, {1, weight(1)}, {2, weight(2, {0}, 1, 1)}}));
}

} // namespace
} // namespace rankstep::testing
