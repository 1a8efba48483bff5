// SPDX-License-Identifier: MIT
// The Llama 3 405B layout under its preset (docs/cost-models.md, "The paper's layout"): one lane
// of the paper's shape, tensor 8 x pipeline 16 over 126 layers, 16 micro-batches, 128 ranks. The
// program beside the four_d lesson (lessons/99-four_d/paper_layout.py) adds Megatron's sequence
// parallelism to the four_d solution, and its variant recomputes each stage in the backward. The
// device's memory is the preset's own figure; every other figure comes from the runs.
#include "core/explain/memoryexplain.h"
#include "core/io/costfile.h"
#include "core/lessons/builtin.h"
#include "lessontestsupport.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::lessontests {
namespace {

class PaperLayout : public ::testing::Test
{
protected:
    void SetUp() override
    {
        const auto recipe = io::loadCostRecipe("llama3-405b");
        ASSERT_TRUE(recipe) << recipe.error().message;
        m_deviceBytes = recipe->memoryBytes;
        ASSERT_GT(m_deviceBytes, 0) << "the preset declares its device's memory";
        const auto all = lessons::loadLessons(lessons::builtinLessonFiles());
        ASSERT_TRUE(all) << all.error().message;
        const lessons::Lesson *fourD = lessons::findLesson(*all, "four_d");
        ASSERT_NE(fourD, nullptr);
        m_lesson = *fourD;
        m_lesson.config.ranks = 128;
        m_lesson.config.layers = 126;
        m_lesson.config.batches = 16;
        m_lesson.config.layout.tensor = 8;
        m_lesson.config.layout.pipeline = 16;
        m_lesson.config.cost = io::resolveCost(*recipe, m_lesson.config.layers);
    }

    // The run's peak by kind; the run must be correct.
    explain::MemoryMoment peakOf(const std::string &file, const std::string &function)
    {
        lessons::Lesson lesson = m_lesson;
        lesson.function = function;
        const std::string path = lessonsRoot() + "/99-four_d/" + file;
        const core::Trace trace = runLessonCode(lesson, readText(path), path);
        EXPECT_EQ(trace.status, core::RunStatus::Ok)
            << function << ": " << (trace.error ? trace.error->message : std::string());
        EXPECT_TRUE(trace.check.passed) << function << ": " << trace.check.message;
        const auto peak = explain::peakMemory(trace);
        EXPECT_TRUE(peak.has_value()) << function;
        return peak.value_or(explain::MemoryMoment{});
    }

    double m_deviceBytes = 0;
    lessons::Lesson m_lesson;
};

TEST_F(PaperLayout, RecomputingEachStageFitsTheDeviceTheFourDSolutionDoesNot)
{
    const explain::MemoryMoment fourD = peakOf("solution.py", "four_d");
    const explain::MemoryMoment recompute = peakOf("paper_layout.py", "paper_layout_recompute");
    EXPECT_GT(double(fourD.bytes), m_deviceBytes) << describeMoment(fourD);
    EXPECT_LT(double(recompute.bytes), m_deviceBytes) << describeMoment(recompute);
}

TEST_F(PaperLayout, SequenceParallelismKeepsOnlyShardsOfTheSameActivations)
{
    using core::ObjectKind;
    const explain::MemoryMoment fourD = peakOf("solution.py", "four_d");
    const explain::MemoryMoment paper = peakOf("paper_layout.py", "paper_layout");
    // The same stage at its peak, with the same slices of weights, gradients and optimizer
    // states: nothing is sharded over the data group.
    EXPECT_EQ(paper.rank, fourD.rank);
    for (const ObjectKind kind : {ObjectKind::Weight, ObjectKind::OptState})
        EXPECT_EQ(paper.byKind.of(kind), fourD.byKind.of(kind)) << core::kindName(kind);
    // As many activations kept (1F1B's micro-batches in flight, two a layer), each a shard of
    // the sequence: a smaller peak, though still above the device (docs/cost-models.md).
    int fourDActivations = 0, paperActivations = 0;
    for (const explain::LiveObject &live : fourD.objects)
        fourDActivations += live.object.kind == ObjectKind::Activation ? 1 : 0;
    for (const explain::LiveObject &live : paper.objects)
        if (live.object.kind == ObjectKind::Activation) {
            ++paperActivations;
            EXPECT_TRUE(live.object.isSequenceShard()) << core::describe(live.object);
        }
    EXPECT_GT(paperActivations, 0);
    EXPECT_EQ(paperActivations, fourDActivations);
    EXPECT_LT(paper.byKind.of(ObjectKind::Activation), fourD.byKind.of(ObjectKind::Activation));
    EXPECT_LT(paper.bytes, fourD.bytes);
}

} // namespace
} // namespace rankstep::lessontests
