// SPDX-License-Identifier: MIT
// The bubble figures the experiments view plots: measured idle share and GPipe's formula.
#include "core/bubble.h"

#include <gtest/gtest.h>

namespace rankstep::core {
namespace {

TEST(Bubble, FormulaIsTheShareOfFillAndDrainSlots)
{
    EXPECT_DOUBLE_EQ(bubbleFormula(4, 1), 0.75);
    EXPECT_DOUBLE_EQ(bubbleFormula(4, 4), 3.0 / 7.0);
    EXPECT_DOUBLE_EQ(bubbleFormula(1, 8), 0.0);
}

TEST(Bubble, IdleShareIsIdleTimeOverEveryRanksTime)
{
    Trace trace;
    trace.figures.endTime = SimTime::steps(10);
    trace.figures.ranks.resize(2);
    trace.figures.ranks[0].idle = SimTime::steps(5);
    trace.figures.ranks[1].idle = SimTime::steps(0);

    EXPECT_DOUBLE_EQ(idleShare(trace), 0.25);
    EXPECT_DOUBLE_EQ(idleShare(Trace{}), 0.0);
}

} // namespace
} // namespace rankstep::core
