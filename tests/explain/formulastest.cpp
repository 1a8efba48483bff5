// SPDX-License-Identifier: MIT
#include "core/explain/formulas.h"
#include "core/lessons/builtin.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <map>

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

// Pipeline + FSDP lays its 16 ranks out itself: stage rank % 4 of 4 lanes, each lane one batch.
// Counting every rank a stage and every batch a micro-batch said p = 16, m = 4 and 79%.
TEST(Formulas, ACodeLaidPipelineCountsItsStagesAndEachLanesBatches)
{
    const core::Trace trace = testing::runReference("pipeline_fsdp");
    const std::string said = bubbleSentence(trace);
    EXPECT_NE(said.find("with p = 4, m = 1 gives 75%."), std::string::npos) << said;
}

TEST(Formulas, EachLessonGroupGetsItsOwnFormula)
{
    using lessons::Parallelism;
    const core::Trace ddp = testing::runReference("ddp");
    EXPECT_EQ(lessonFormulaSentence(ddp, Parallelism::DataParallel),
              "Each rank should hold 1048576 B of weights and optimizer states (2 layers × 2 × "
              "512²: every rank holds all of them).");
    const core::Trace fsdp = testing::runReference("fsdp");
    EXPECT_NE(lessonFormulaSentence(fsdp, Parallelism::Sharded).find("786432 B"),
              std::string::npos);
    EXPECT_NE(lessonFormulaSentence(fsdp, Parallelism::Sharded)
                  .find("divided among 4 ranks that share them"),
              std::string::npos);
    EXPECT_EQ(lessonFormulaSentence(testing::runReference("gpipe"), Parallelism::Pipeline)
                  .rfind("Idle 43%", 0),
              0U);
    EXPECT_EQ(lessonFormulaSentence(ddp, Parallelism::None), ""); // no formula for that lesson
}

// Each lesson's formula as it was when this file knew the lessons by name, before lesson.json
// said it ("parallelism"): the pipeline lessons get the bubble, the data-parallel ones one copy of
// the model a rank, the sharded ones the model divided among every rank, the others nothing.
TEST(Formulas, EveryLessonKeepsTheFormulaItHadByName)
{
    enum Formula { None, Bubble, WholeModel, SharedModel };
    const std::map<std::string, Formula> before = {{"walkthrough", None},
                                                   {"basic", WholeModel},
                                                   {"grad_accum", WholeModel},
                                                   {"allreduce", None},
                                                   {"broadcast", None},
                                                   {"hang", None},
                                                   {"ddp", WholeModel},
                                                   {"ddp_overlap", None},
                                                   {"allgather", None},
                                                   {"wsdp", SharedModel},
                                                   {"scatterreduce", None},
                                                   {"zero1", None},
                                                   {"zero2", None},
                                                   {"fsdp", SharedModel},
                                                   {"pass_along", None},
                                                   {"pipeline", Bubble},
                                                   {"gpipe", Bubble},
                                                   {"pipeline_fsdp", Bubble},
                                                   {"ddp_accum", WholeModel},
                                                   {"checkpointing", None},
                                                   {"one_f_one_b", Bubble},
                                                   {"pipeline_fsdp_groups", Bubble},
                                                   {"bubble", Bubble},
                                                   {"torch_loop", None},
                                                   {"torch_amp", None},
                                                   {"torch_ddp", None},
                                                   {"torch_ddp_accum", None}};
    const auto loaded = lessons::loadLessons(lessons::builtinLessonFiles());
    ASSERT_TRUE(loaded) << loaded.error().message;
    std::size_t seen = 0;
    for (const lessons::Lesson &lesson : *loaded) {
        const auto expected = before.find(lesson.id);
        if (expected == before.end())
            continue; // a lesson added since: its lesson.json alone says
        ++seen;
        const lessons::Parallelism parallelism = lesson.parallelism;
        EXPECT_EQ(parallelism == lessons::Parallelism::Pipeline, expected->second == Bubble)
            << lesson.id;
        for (const int ranks : {1, 4, 8}) {
            const int sharers = expected->second == WholeModel    ? 1
                                : expected->second == SharedModel ? ranks
                                                                  : 0;
            EXPECT_EQ(modelSharers(parallelism, ranks), sharers) << lesson.id << " at " << ranks;
        }
    }
    EXPECT_EQ(seen, before.size()) << "a lesson of the list is no longer built in";
}

} // namespace
} // namespace rankstep::explain
