// SPDX-License-Identifier: MIT
#include "core/explain/formulas.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

namespace rankstep::explain {
namespace {

TEST(Formulas, TheBubbleIsStagesMinusOneOverMicroBatchesPlusStagesMinusOne)
{
    EXPECT_DOUBLE_EQ(bubbleFormula(4, 4), 3.0 / 7.0);
    EXPECT_DOUBLE_EQ(bubbleFormula(4, 1), 3.0 / 4.0);
    EXPECT_DOUBLE_EQ(bubbleFormula(1, 8), 0.0);
}

// Each rank of the DDP lesson holds two layers' weights and optimizer states, 262144 B each;
// FSDP's four ranks share six layers.
TEST(Formulas, ModelStateMemoryIsTwoSquaresPerLayerDividedAmongItsSharers)
{
    core::RunConfig ddp;
    ddp.layers = 2;
    EXPECT_EQ(modelStateBytes(ddp, 1), 4 * 262144);
    core::RunConfig fsdp;
    fsdp.layers = 6;
    EXPECT_EQ(modelStateBytes(fsdp, 4), 3 * 262144);
}

TEST(Formulas, GpipesMeasuredIdleShareStandsBesideTheFormula)
{
    const core::Trace trace = testing::runReference("gpipe");
    // (15.2 + 13.6 + 13.6 + 15.2) / 4 / 33.8 of the time idle.
    EXPECT_NEAR(measuredIdleShare(trace), 14.4 / 33.8, 1e-9);
    EXPECT_EQ(bubbleSentence(trace),
              "Idle 43% of the time on average; the bubble formula "
              "(p-1)/(m+p-1) with p = 4, m = 4 gives 43%.");
}

TEST(Formulas, EachLessonGroupGetsItsOwnFormula)
{
    const core::Trace ddp = testing::runReference("ddp");
    EXPECT_EQ(lessonFormulaSentence(ddp, "ddp"),
              "Each rank should hold 1048576 B of weights and optimizer states (2 layers × 2 × "
              "512²: every rank holds all of them).");
    const core::Trace fsdp = testing::runReference("fsdp");
    EXPECT_NE(lessonFormulaSentence(fsdp, "fsdp").find("786432 B"), std::string::npos);
    EXPECT_NE(lessonFormulaSentence(fsdp, "fsdp").find("divided among 4 ranks that share them"),
              std::string::npos);
    EXPECT_EQ(lessonFormulaSentence(testing::runReference("gpipe"), "gpipe").rfind("Idle 43%", 0),
              0U);
    EXPECT_EQ(lessonFormulaSentence(ddp, "allreduce"), ""); // no formula for that lesson
}

} // namespace
} // namespace rankstep::explain
