// SPDX-License-Identifier: MIT
#include "core/explain/compare.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

namespace rankstep::explain {
namespace {

core::Trace referenceRun(const std::string &name)
{
    return testing::runReference(name);
}

// The pipeline against GPipe: same settings, GPipe ends earlier because its ranks idle less,
// and its peak is higher, most of it activations.
TEST(Compare, GpipeAgainstThePipelineSaysWhyItIsFasterAndHeavier)
{
    const core::Trace pipeline = referenceRun("pipeline");
    const core::Trace gpipe = referenceRun("gpipe");
    const Comparison c = compare(pipeline, gpipe);
    EXPECT_TRUE(c.settings.empty());
    EXPECT_EQ(c.time.rfind("End time " + pipeline.figures.endTime.toString() + " (A) against " +
                               gpipe.figures.endTime.toString() + " (B): B ends ",
                           0),
              0U)
        << c.time;
    EXPECT_NE(c.time.find(" earlier"), std::string::npos) << c.time;
    EXPECT_NE(c.time.find("idle "), std::string::npos) << c.time;
    EXPECT_NE(c.memory.find("Peak 3145728 B (A, rank 0 at t 58.4) against 4194304 B (B, rank 1 "
                            "at t 30.4): B's is 1048576 B higher"),
              std::string::npos)
        << c.memory;
}

TEST(Compare, DifferentSettingsAreNamedAndTheRunsStillCompare)
{
    const Comparison c = compare(referenceRun("ddp"), referenceRun("fsdp"));
    ASSERT_EQ(c.settings.size(), 1U);
    EXPECT_EQ(c.settings.front(), "layers: 2 against 6");
    EXPECT_FALSE(c.time.empty());
    EXPECT_FALSE(c.memory.empty());
}

TEST(Compare, ARunAgainstItselfIsTheSame)
{
    const core::Trace ddp = referenceRun("ddp");
    const Comparison c = compare(ddp, ddp);
    EXPECT_TRUE(c.settings.empty());
    EXPECT_NE(c.time.find(": the same."), std::string::npos);
    EXPECT_NE(c.memory.find(": the same."), std::string::npos);
}

// A run that raised is no slower or faster than the solution: it stopped. The comparison says
// where and why, and compares no end times or Timesteps.
TEST(Compare, ARunThatFailedSaysWhatHappenedInsteadOfAnEndTime)
{
    const core::Trace solution = referenceRun("ddp");
    core::Trace failed = solution;
    failed.status = core::RunStatus::Error;
    failed.error = core::Error(core::ErrorKind::Exception, 1, 23, "KeyError: 5\nTraceback ...");
    failed.figures.endTime = core::SimTime::steps(2);
    const Comparison c = compare(failed, solution);
    EXPECT_EQ(c.time,
              "A stopped with an error at t 2 (rank 1, line 23: KeyError: 5); B finished "
              "at t " +
                  solution.figures.endTime.toString() +
                  ". End times compare only when both runs finish.");
    const std::string text = compareText(failed, solution);
    EXPECT_EQ(text.find("later"), std::string::npos) << text;
    EXPECT_EQ(text.find("Timesteps"), std::string::npos) << text;
    EXPECT_NE(text.find("Differs in status: error against ok."), std::string::npos) << text;
}

} // namespace
} // namespace rankstep::explain
