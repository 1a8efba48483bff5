// SPDX-License-Identifier: MIT
// rankstep-cli lesson and lessons as a learner and a lesson author use them: exit codes
// (cli/runreport.h), the verdict, and messages that name the lesson, the file and the field.
#include "cli/runreport.h"
#include "core/lessons/builtin.h"
#include "lessontestsupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace rankstep::lessontests {
namespace {

using cli::ExitCode;

std::vector<lessons::Lesson> builtinLessons()
{
    auto loaded = lessons::loadLessons(lessons::builtinLessonFiles());
    EXPECT_TRUE(loaded) << loaded.error().message;
    return loaded ? std::move(*loaded) : std::vector<lessons::Lesson>{};
}

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

class LessonCli : public ::testing::Test
{
protected:
    TempDir m_dir;
};

TEST_F(LessonCli, SolvesDdpWithItsSolution)
{
    const CliResult result = runCli({"lesson", "ddp", "--solution"}, m_dir);

    EXPECT_EQ(result.exitCode, ExitCode::kSolved) << result.err;
    EXPECT_TRUE(contains(result.out, "Solved!")) << result.out;
}

// A learner's DDP: the reference algorithm, written out here so that the test does not depend on
// the lesson's files. {UPDATED} is the layers it updates, {FREE} what it frees after backward.
std::string learnerDdp(const std::string &updated, const std::string &freed)
{
    std::string code = R"py(from lib import Model


async def ddp(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        {FREE}
    for layer in {UPDATED}:
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
)py";
    code.replace(code.find("{FREE}"), 6, freed);
    code.replace(code.find("{UPDATED}"), 9, updated);
    return code;
}

TEST_F(LessonCli, ExitsWithOneWhenTheCheckFails)
{
    const std::string file =
        m_dir.write("my-ddp.py", learnerDdp("range(model.LAYERS - 1)",
                                            "del grad_activations[layer + 1], activations[layer]"));

    const CliResult result = runCli({"lesson", "ddp", file, "--quiet"}, m_dir);

    EXPECT_EQ(result.exitCode, ExitCode::kNotSolved) << result.out << result.err;
    EXPECT_TRUE(contains(result.out, "Not solved yet: ")) << result.out;
    EXPECT_FALSE(contains(result.out, "Solved!")) << result.out;
}

TEST_F(LessonCli, ExitsWithOneWhenATargetIsMissed)
{
    // Correct, but every activation is kept until the end.
    const std::string file = m_dir.write("my-ddp.py", learnerDdp("range(model.LAYERS)", "pass"));

    const CliResult result = runCli({"lesson", "ddp", file, "--quiet"}, m_dir);

    EXPECT_EQ(result.exitCode, ExitCode::kNotSolved) << result.out << result.err;
    EXPECT_TRUE(contains(result.out, "Correct, but not solved yet: Maximum Memory")) << result.out;
}

// The starter as a learner first runs it: the same verdict and exit code as in-process.
TEST_F(LessonCli, ExitsAsTheStarterRunsForACopyOfIt)
{
    const std::vector<lessons::Lesson> all = builtinLessons();
    const lessons::Lesson *ddp = lessons::findLesson(all, "ddp");
    ASSERT_NE(ddp, nullptr);
    const std::string file = m_dir.write("my-ddp.py", ddp->starter);
    const core::Trace trace = runLessonCode(*ddp, ddp->starter, file);

    const CliResult result = runCli({"lesson", "ddp", file, "--quiet"}, m_dir);

    EXPECT_EQ(result.exitCode, cli::exitCodeFor(trace)) << result.out << result.err;
    EXPECT_TRUE(result.exitCode == ExitCode::kNotSolved ||
                result.exitCode == ExitCode::kLearnerError)
        << result.exitCode;
    EXPECT_TRUE(contains(result.out, "Not solved yet")) << result.out;
    EXPECT_FALSE(contains(result.out, "Solved!")) << result.out;
}

TEST_F(LessonCli, WritesTheSolutionTraceUnderTheLessonsFileName)
{
    const std::string json = (m_dir.path() / "ddp.json").string();

    const CliResult result =
        runCli({"lesson", "ddp", "--solution", "--quiet", "--json", json}, m_dir);

    ASSERT_EQ(result.exitCode, ExitCode::kSolved) << result.err;
    EXPECT_TRUE(contains(readText(json), "\"file\": \"30-ddp/solution.py\"")) << readText(json);
}

TEST_F(LessonCli, ListsTheLessonsForAnUnknownName)
{
    const CliResult result = runCli({"lesson", "no_such_lesson", "--solution"}, m_dir);

    EXPECT_EQ(result.exitCode, ExitCode::kUsage);
    EXPECT_TRUE(contains(result.err, "no_such_lesson")) << result.err;
    const std::vector<lessons::Lesson> all = builtinLessons();
    ASSERT_FALSE(all.empty());
    for (const lessons::Lesson &lesson : all)
        EXPECT_TRUE(contains(result.err, lesson.id)) << lesson.id << " is not in: " << result.err;
}

TEST_F(LessonCli, ListsEveryBuiltInLesson)
{
    const CliResult result = runCli({"lessons"}, m_dir);

    EXPECT_EQ(result.exitCode, ExitCode::kSolved) << result.err;
    const std::vector<lessons::Lesson> all = builtinLessons();
    ASSERT_FALSE(all.empty());
    for (const lessons::Lesson &lesson : all)
        EXPECT_TRUE(contains("\n" + result.out, "\n" + lesson.id + "\t" + lesson.title + "\t"))
            << lesson.id << " is not listed:\n"
            << result.out;
}

TEST_F(LessonCli, ListsEachLessonsSettingInItsOwnTerms)
{
    const CliResult result = runCli({"lessons"}, m_dir);

    EXPECT_EQ(result.exitCode, ExitCode::kSolved) << result.err;
    // One rank is "1 rank"; a PyTorch lesson has no puzzle layers or batches to list.
    EXPECT_FALSE(contains(result.out, "\t1 ranks")) << result.out;
    bool sawTorch = false;
    for (const lessons::Lesson &lesson : builtinLessons()) {
        const std::string::size_type at = result.out.find(lesson.id + "\t" + lesson.title + "\t");
        ASSERT_NE(at, std::string::npos) << lesson.id;
        const std::string row = result.out.substr(at, result.out.find('\n', at) - at);
        const std::string ranks = std::to_string(lesson.config.ranks) +
                                  (lesson.config.ranks == 1 ? " rank, " : " ranks, ");
        EXPECT_TRUE(contains(row, "\t" + ranks)) << row;
        if (lesson.isTorch()) {
            sawTorch = true;
            EXPECT_TRUE(contains(row, "PyTorch, " + std::to_string(lesson.torch->steps) + " steps"))
                << row;
            EXPECT_FALSE(contains(row, "layer")) << row;
            EXPECT_FALSE(contains(row, "batches")) << row;
        } else {
            EXPECT_TRUE(contains(row, "layer")) << row;
        }
    }
    EXPECT_TRUE(sawTorch) << "no PyTorch lesson among the built-in ones";
}

TEST_F(LessonCli, ListsEveryLessonOfTheSourceTree)
{
    const CliResult result = runCli({"lessons", "--lessons", lessonsRoot()}, m_dir);

    EXPECT_EQ(result.exitCode, ExitCode::kSolved) << result.err;
    const std::vector<std::string> folders = lessonFolders();
    ASSERT_FALSE(folders.empty());
    for (const std::string &folder : folders) {
        const std::string id = folder.substr(folder.find('-') + 1);
        EXPECT_TRUE(contains("\n" + result.out, "\n" + id + "\t")) << id << " is not listed";
    }
}

TEST_F(LessonCli, NamesTheFileAndFieldOfABrokenLessonsFolder)
{
    lessons::LessonFiles files = validLesson("30-ddp", "ddp");
    files["30-ddp/lesson.json"] = lessonJsonWith("ddp", "batches", "\"many\"");
    for (const auto &[name, text] : files)
        m_dir.write("lessons/" + name, text);

    const std::string folder = (m_dir.path() / "lessons").string();
    const CliResult listed = runCli({"lessons", "--lessons", folder}, m_dir);
    const CliResult run = runCli({"lesson", "ddp", "--solution", "--lessons", folder}, m_dir);

    for (const CliResult &result : {listed, run}) {
        EXPECT_EQ(result.exitCode, ExitCode::kUsage);
        EXPECT_TRUE(contains(result.err, "30-ddp/lesson.json")) << result.err;
        EXPECT_TRUE(contains(result.err, "batches")) << result.err;
        EXPECT_TRUE(contains(result.err, "many")) << result.err;
    }
}

TEST_F(LessonCli, RunsALessonFromAnAuthorsFolder)
{
    for (const auto &[name, text] : validLesson("05-warmup", "warmup"))
        m_dir.write("lessons/" + name, text);

    const std::string folder = (m_dir.path() / "lessons").string();
    const CliResult result = runCli({"lesson", "warmup", "--starter", "--lessons", folder}, m_dir);

    // The test lesson's code does nothing: the run finishes and the check fails.
    EXPECT_EQ(result.exitCode, ExitCode::kNotSolved) << result.err;
    EXPECT_TRUE(contains(result.out, "A lesson for the tests (warmup)")) << result.out;
}

} // namespace
} // namespace rankstep::lessontests
