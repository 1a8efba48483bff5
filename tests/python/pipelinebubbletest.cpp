// SPDX-License-Identifier: MIT
// The bubble of a pipeline run read from its trace (docs/explain.md, "The pipeline bubble"):
// GPipe, 1F1B, interleaved 1F1B and ZB-H1 against their papers' formulas.
#include "pythontestsupport.h"

#include "core/explain/explainjson.h"
#include "core/explain/formulas.h"
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
        {"95-interleaved_1f1b", "interleaved_1f1b", 8, PipelineSchedule::Interleaved, 2, 3.0 / 16},
        {"95-interleaved_1f1b", "interleaved_1f1b", 4, PipelineSchedule::Interleaved, 2, 3.0 / 8},
        {"96-zero_bubble", "zero_bubble", 8, PipelineSchedule::ZeroBubble, 1, 1.0 / 8},
        {"96-zero_bubble", "zero_bubble", 16, PipelineSchedule::ZeroBubble, 1, 1.0 / 16},
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

// ZB-H1's bubble is a third of 1F1B's when F, B and W cost the same (Qi et al., 2023).
TEST(PipelineBubble, ZeroBubbleIsAThirdOfOneFOneB)
{
    const auto zb =
        explain::pipelineShape(runLesson("96-zero_bubble", "zero_bubble", 8, "uniform"));
    const auto plain =
        explain::pipelineShape(runLesson("92-one_f_one_b", "one_f_one_b", 8, "uniform"));
    ASSERT_TRUE(zb && plain);
    EXPECT_DOUBLE_EQ(zb->forward, zb->backwardInput);
    EXPECT_DOUBLE_EQ(zb->forward, zb->backwardWeight);
    EXPECT_DOUBLE_EQ(zb->measured * 3, plain->measured);
}

TEST(PipelineBubble, ExplainJsonCarriesThePipelineOfAPipelineRunOnly)
{
    const core::Trace plain = runLesson("92-one_f_one_b", "one_f_one_b", 8, "uniform");
    EXPECT_NE(explain::explainJson(plain, {}).find(
                  "\"pipeline\": {\"schedule\": \"1f1b\", \"stages\": 4, "
                  "\"micro_batches\": 8, \"virtual_stages\": 1, \"bubble_measured\": 0.375, "
                  "\"bubble_formula\": 0.375, \"formula\": \"(p-1)/m\"}"),
              std::string::npos);
    const core::Trace interleaved =
        runLesson("95-interleaved_1f1b", "interleaved_1f1b", 8, "uniform");
    const std::string json = explain::explainJson(interleaved, {});
    EXPECT_NE(json.find("\"pipeline\": {\"schedule\": \"interleaved_1f1b\", \"stages\": 4, "
                        "\"micro_batches\": 8, \"virtual_stages\": 2, \"bubble_measured\": 0.1875, "
                        "\"bubble_formula\": 0.1875, \"formula\": \"(p-1)/(v*m)\"}"),
              std::string::npos)
        << json;
    python::Runtime runtime;
    const core::Trace ddp =
        runtime.run(makeRequest(readSourceFile("lessons/30-ddp/solution.py"), "ddp", 4, 2, 4))
            .trace;
    ASSERT_TRUE(isCorrect(ddp));
    EXPECT_FALSE(explain::pipelineShape(ddp));
    EXPECT_EQ(explain::explainJson(ddp, {}).find("\"pipeline\""), std::string::npos);
}

// The lessons' Why tab: the new schedules show the measured bubble beside their formula; GPipe's
// and 1F1B's lessons keep their sentence.
TEST(PipelineBubble, TheWhyTabShowsTheMeasuredBubbleBesideTheFormula)
{
    using lessons::Parallelism;
    EXPECT_EQ(
        explain::lessonFormulaSentence(
            runLesson("95-interleaved_1f1b", "interleaved_1f1b", 8, "uniform"),
            Parallelism::Pipeline),
        "Measured bubble 19% of the ideal time (idle or communicating, against m micro-batches "
        "of one stage's work); the interleaved 1F1B formula (p-1)/(v*m) with p = 4, v = 2, m = 8 "
        "gives 19%.");
    EXPECT_EQ(
        explain::lessonFormulaSentence(runLesson("96-zero_bubble", "zero_bubble", 8, "uniform"),
                                       Parallelism::Pipeline),
        "Measured bubble 13% of the ideal time (idle or communicating, against m micro-batches "
        "of one stage's work); the zero-bubble (ZB-H1) formula (p-1)(F+B-W)/(m(F+B+W)) with p = 4, "
        "m = 8 and F, B, W "
        "as measured gives 13%.");
    EXPECT_EQ(explain::lessonFormulaSentence(
                  runLesson("92-one_f_one_b", "one_f_one_b", 4, "notebook"), Parallelism::Pipeline)
                  .rfind("Idle ", 0),
              0U);
}

} // namespace
} // namespace rankstep::pythontests
