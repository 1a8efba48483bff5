// SPDX-License-Identifier: MIT
// The report of a PyTorch lesson (core/io/torchlessonreport.h): the gradient norms and the
// clipping norm the checklist lesson adds are read, a report without them (every other lesson's,
// and those written before) reads as before, and a norm that is not a number names its member.
#include "core/io/torchlessonreport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace rankstep::io {
namespace {

std::string report(const std::string &extra, const std::string &rankExtra)
{
    return R"({"format": "rankstep-torch-lesson", "version": 1, "check": "checklist",
               "solved": true, "wall_seconds": 3.5, "init_loss": 3.61,
               "expected_init_loss": 2.302585, "checks": [], "hints": [],
               "reference_losses": [2.3, 2.2])" +
           extra + R"(, "ranks": [{"rank": 0, "losses": [2.3, 2.2], "seconds": 1.0,
               "optimizer_steps": 2, "all_reduces": 0, "forward_dtypes": {})" +
           rankExtra + "}]}";
}

TEST(TorchLessonReport, ReadsTheGradientNormsAndTheClippingNorm)
{
    const auto read = torchLessonReportFromJson(
        report(R"(, "reference_grad_norms": [0.5, 31.25], "clip_norm": 1.0)",
               R"(, "grad_norms": [0.5, null])"));
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_EQ(read->referenceGradNorms, (std::vector<double>{0.5, 31.25}));
    EXPECT_EQ(read->clipNorm, 1.0);
    ASSERT_EQ(read->ranks.size(), 1U);
    ASSERT_EQ(read->ranks[0].gradNorms.size(), 2U);
    EXPECT_EQ(read->ranks[0].gradNorms[0], 0.5);
    EXPECT_TRUE(std::isnan(read->ranks[0].gradNorms[1])); // not finite: the curve leaves it out
}

TEST(TorchLessonReport, AReportWithoutGradientNormsReadsAsBefore)
{
    const auto read = torchLessonReportFromJson(report("", ""));
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_TRUE(read->referenceGradNorms.empty());
    EXPECT_EQ(read->clipNorm, 0.0);
    EXPECT_TRUE(read->ranks.at(0).gradNorms.empty());
}

TEST(TorchLessonReport, AGradientNormThatIsNoNumberNamesItsMember)
{
    const auto read = torchLessonReportFromJson(report("", R"(, "grad_norms": ["big"])"));
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message.find("ranks[0].grad_norms[0]"), std::string::npos)
        << read.error().message;
}

} // namespace
} // namespace rankstep::io
