// SPDX-License-Identifier: MIT
// The report of `rankstep-cli real --json`, read back for the app's "For real" tab: where each
// rank's seconds went, the verdict per layer, and a clear message for a damaged file.
#include "core/io/realreport.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::io {
namespace {

// As rankstep_real.verify writes it (core/real/rankstep_real/verify.py), cut down to two ranks.
std::string report(const std::string &match, const std::string &firstWrong)
{
    return R"({"format": "rankstep-trace", "version": 1, "clock": "seconds", "memory": "bytes",
 "config": {"ranks": 2, "layers": 2, "batches": 2, "hidden": 16, "length": 4, "seed": 0},
 "result": {"status": "ok", "correct": )" +
           match + R"(, "weights_match": )" + match +
           R"(, "max_abs_diff": 3.4e-07, "wall_seconds": 5.5, "first_wrong_layer": )" + firstWrong +
           R"(,
  "layers": [{"layer": 0, "steps": [1], "ranks_disagree_by": 0.0, "max_abs_diff": 3.4e-07,
              "problem": "differs from one process trained on every batch"},
             {"layer": 1, "steps": [], "ranks_disagree_by": 0.0, "max_abs_diff": null}]},
 "ranks": [{"rank": 0, "events": [
    {"op": "forward", "layer": 0, "start": 0.5, "duration": 0.25, "memory": 10, "line": 3},
    {"op": "allreduce", "layer": 0, "start": 1.0, "duration": 2.0, "memory": 10, "line": 4}]},
  {"rank": 1, "events": [
    {"op": "backward", "layer": 1, "start": 0.0, "duration": 1.5, "memory": 10, "line": 3}]}]}
)";
}

TEST(RealReport, ReadsTheVerdictAndWhereEachRanksSecondsWent)
{
    const auto read = realReportFromJson(report("false", "0"));
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_FALSE(read->weightsMatch);
    ASSERT_TRUE(read->firstWrongLayer.has_value());
    EXPECT_EQ(*read->firstWrongLayer, 0);
    EXPECT_DOUBLE_EQ(read->wallSeconds, 5.5);
    EXPECT_EQ(read->hidden, 16);
    ASSERT_EQ(read->perLayer.size(), 2U);
    EXPECT_DOUBLE_EQ(read->perLayer[0].maxAbsDiff.value(), 3.4e-07);
    EXPECT_FALSE(read->perLayer[0].problem.empty());
    EXPECT_FALSE(read->perLayer[1].maxAbsDiff.has_value());
    ASSERT_EQ(read->perRank.size(), 2U);
    EXPECT_DOUBLE_EQ(read->perRank[0].compute, 0.25);
    EXPECT_DOUBLE_EQ(read->perRank[0].communication, 2.0);
    EXPECT_DOUBLE_EQ(read->perRank[0].end, 3.0);
    EXPECT_DOUBLE_EQ(read->perRank[1].compute, 1.5);
    EXPECT_DOUBLE_EQ(read->perRank[1].communication, 0.0);

    const auto matching = realReportFromJson(report("true", "null"));
    ASSERT_TRUE(matching) << matching.error().message;
    EXPECT_TRUE(matching->weightsMatch);
    EXPECT_FALSE(matching->firstWrongLayer.has_value());
}

TEST(RealReport, ADamagedOrForeignFileIsRefusedNamingWhatIsWrong)
{
    std::string text = report("true", "null");
    text.replace(text.find("\"wall_seconds\": 5.5"), 19, "\"wall_seconds\": \"x\"");
    const auto damaged = realReportFromJson(text);
    ASSERT_FALSE(damaged);
    EXPECT_NE(damaged.error().message.find("wall_seconds"), std::string::npos)
        << damaged.error().message;

    const auto simulated = realReportFromJson(R"({"format": "rankstep-trace", "version": 1})");
    ASSERT_FALSE(simulated);
    EXPECT_NE(simulated.error().message.find("rankstep-cli real"), std::string::npos)
        << simulated.error().message;
    EXPECT_FALSE(realReportFromJson("{not json"));
}

} // namespace
} // namespace rankstep::io
