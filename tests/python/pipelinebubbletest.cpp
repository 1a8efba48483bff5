// SPDX-License-Identifier: MIT
// The bubble of a pipeline run read from its trace (docs/explain.md, "The pipeline bubble"):
// GPipe and 1F1B against their papers' formula, (p-1)/m of the ideal time.
#include "pythontestsupport.h"

#include "core/explain/explainjson.h"
#include "core/explain/pipelineshape.h"
#include "core/io/costfile.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rankstep::pythontests {
namespace {

core::Trace runLesson(const std::string &folder, const std::string &function, int batches,
                      const std::string &cost)
{
    python::RunRequest request =
        makeRequest(readSourceFile("lessons/" + folder + "/solution.py"), function, 4, 8, batches);
    const auto recipe = io::loadCostRecipe(cost);
    EXPECT_TRUE(recipe) << recipe.error().message;
    request.config.cost = io::resolveCost(*recipe, 8);
    python::Runtime runtime;
    return runtime.run(request).trace;
}

struct ScheduleCase {
    const char *folder, *function;
    int batches;
    explain::PipelineSchedule schedule;
    int virtualStages;
    double bubble; // the paper's formula at p = 4
};

// Under the unit costs of the preset `uniform` the measured bubble is the formula, exactly.
TEST(PipelineBubble, EachScheduleMeasuresItsPapersFormulaUnderUniformCosts)
{
    using explain::PipelineSchedule;
    const std::vector<ScheduleCase> cases = {
        {"92-one_f_one_b", "one_f_one_b", 8, PipelineSchedule::OneFOneB, 1, 3.0 / 8},
        {"70-gpipe", "gpipe", 8, PipelineSchedule::GPipe, 1, 3.0 / 8},
    };
    for (const ScheduleCase &c : cases) {
        const core::Trace trace = runLesson(c.folder, c.function, c.batches, "uniform");
        ASSERT_TRUE(isCorrect(trace)) << c.function;
        const auto shape = explain::pipelineShape(trace);
        ASSERT_TRUE(shape) << c.function;
        EXPECT_EQ(shape->schedule, c.schedule) << c.function;
        EXPECT_EQ(shape->stages, 4) << c.function;
        EXPECT_EQ(shape->microBatches, c.batches) << c.function;
        EXPECT_EQ(shape->virtualStages, c.virtualStages) << c.function;
        EXPECT_DOUBLE_EQ(shape->formula, c.bubble) << c.function;
        EXPECT_DOUBLE_EQ(shape->measured, c.bubble) << c.function << " at m " << c.batches;
    }
}

TEST(PipelineBubble, ExplainJsonCarriesThePipelineOfAPipelineRunOnly)
{
    const core::Trace plain = runLesson("92-one_f_one_b", "one_f_one_b", 8, "uniform");
    EXPECT_NE(explain::explainJson(plain, {}).find(
                  "\"pipeline\": {\"schedule\": \"1f1b\", \"stages\": 4, "
                  "\"micro_batches\": 8, \"virtual_stages\": 1, \"bubble_measured\": 0.375, "
                  "\"bubble_formula\": 0.375, \"formula\": \"(p-1)/m\"}"),
              std::string::npos);
    python::Runtime runtime;
    const core::Trace ddp =
        runtime.run(makeRequest(readSourceFile("lessons/30-ddp/solution.py"), "ddp", 4, 2, 4))
            .trace;
    ASSERT_TRUE(isCorrect(ddp));
    EXPECT_FALSE(explain::pipelineShape(ddp));
    EXPECT_EQ(explain::explainJson(ddp, {}).find("\"pipeline\""), std::string::npos);
}

} // namespace
} // namespace rankstep::pythontests
