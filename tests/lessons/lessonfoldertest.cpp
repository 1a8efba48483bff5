// SPDX-License-Identifier: MIT
// Every lesson folder in lessons/, read at test time: the configuration validates, the reference
// solution reaches exactly its targets, the starter runs to a clear "not solved yet", the
// solution's trace matches its golden file, and the program ships the folder as it is on disk.
#include "cli/lessonvalidation.h"
#include "core/io/tracejson.h"
#include "core/lessons/builtin.h"
#include "core/lessons/pictures.h"
#include "lessontestsupport.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>

namespace rankstep::lessontests {
namespace {

using core::ErrorKind;

// A PyTorch lesson is not simulated: tests/hostile/torchlessonstest.cpp runs its solution and its
// starter for real.
#define SKIP_IF_TORCH(lesson)                                                         \
    do {                                                                              \
        if ((lesson).isTorch())                                                       \
            GTEST_SKIP() << "a PyTorch lesson, run for real by hostile.TorchLessons"; \
    } while (false)

class LessonFolder : public ::testing::TestWithParam<std::string>
{
protected:
    // The lesson of this folder, loaded from disk on its own; a failure when it does not load.
    ::testing::AssertionResult load(lessons::Lesson &lesson) const
    {
        const auto files = lessons::readLessonFolder(lessonsRoot());
        if (!files)
            return ::testing::AssertionFailure() << files.error().message;
        const auto loaded = lessons::loadLessons(filesOfFolder(*files, GetParam()));
        if (!loaded)
            return ::testing::AssertionFailure() << loaded.error().message;
        lesson = loaded->front();
        return ::testing::AssertionSuccess();
    }
};

// The first line where two texts differ, numbered from 1, with both versions.
std::string firstDifference(const std::string &expected, const std::string &actual)
{
    std::istringstream a(expected), b(actual);
    std::string lineA, lineB;
    for (int line = 1;; ++line) {
        const bool moreA = bool(std::getline(a, lineA)), moreB = bool(std::getline(b, lineB));
        if (!moreA && !moreB)
            return "the texts differ only in their last newline";
        if (!moreA || !moreB || lineA != lineB)
            return "first difference at line " + std::to_string(line) +
                   ":\n  golden: " + (moreA ? lineA : "<end of file>") +
                   "\n  now:    " + (moreB ? lineB : "<end of file>");
    }
}

TEST_P(LessonFolder, ConfigurationValidates)
{
    const auto files = lessons::readLessonFolder(lessonsRoot());
    ASSERT_TRUE(files) << files.error().message;

    for (const std::string &problem : cli::validateLessons(filesOfFolder(*files, GetParam())))
        ADD_FAILURE() << problem;
}

TEST_P(LessonFolder, SolutionReachesExactlyItsTargets)
{
    lessons::Lesson lesson;
    ASSERT_TRUE(load(lesson));
    SKIP_IF_TORCH(lesson);

    const core::Trace trace =
        runLessonCode(lesson, lesson.solution, lesson.folder + "/solution.py");

    ASSERT_EQ(trace.status, core::RunStatus::Ok)
        << (trace.error ? trace.error->message : std::string("no error recorded"));
    if (lesson.goal == lessons::Goal::Train) {
        EXPECT_TRUE(trace.check.passed) << trace.check.message;
    }
    if (lesson.targets) {
        ASSERT_TRUE(trace.figures.hasEvents);
        EXPECT_EQ(trace.figures.timesteps.toString(), lesson.targets->time.toString())
            << "lesson.json: targets.time must be what solution.py reaches";
        EXPECT_EQ(trace.figures.maxMemory, lesson.targets->memory)
            << "lesson.json: targets.memory must be what solution.py reaches";
    }
    const lessons::Verdict verdict = lessons::judge(lesson, trace);
    EXPECT_TRUE(verdict.solved) << verdict.summary;
}

TEST_P(LessonFolder, SolutionFinishesAtEveryExperiment)
{
    lessons::Lesson lesson;
    ASSERT_TRUE(load(lesson));
    SKIP_IF_TORCH(lesson);

    for (const lessons::Experiment &experiment : lesson.experiments) {
        lessons::Lesson at = lesson;
        at.config.ranks = experiment.ranks;
        at.config.layers = experiment.layers;
        at.config.batches = experiment.batches;
        const core::Trace trace =
            runLessonCode(at, lesson.solution, lesson.folder + "/solution.py");
        EXPECT_EQ(trace.status, core::RunStatus::Ok)
            << experiment.label << ": "
            << (trace.error ? trace.error->message : std::string("no error recorded"));
        EXPECT_TRUE(trace.figures.hasEvents) << experiment.label;
    }
}

TEST_P(LessonFolder, StarterRunsToNotSolvedYet)
{
    lessons::Lesson lesson;
    ASSERT_TRUE(load(lesson));
    SKIP_IF_TORCH(lesson);

    const core::Trace trace = runLessonCode(lesson, lesson.starter, lesson.folder + "/starter.py");
    const lessons::Verdict verdict = lessons::judge(lesson, trace);

    EXPECT_FALSE(verdict.solved) << "the starter already solves the lesson";
    std::string summary = verdict.summary;
    for (char &c : summary)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_NE(summary.find("not solved yet"), std::string::npos) << verdict.summary;
    if (trace.error) {
        const ErrorKind kind = trace.error->kind;
        // What a learner can act on; a stop means the starter hangs the time budget, Usage and
        // Internal mean Rankstep or the lesson's settings are broken.
        EXPECT_TRUE(kind == ErrorKind::Check || kind == ErrorKind::Exception ||
                    kind == ErrorKind::Syntax || kind == ErrorKind::Deadlock ||
                    kind == ErrorKind::Mismatch)
            << "error of kind " << core::errorKindName(kind) << ": " << trace.error->message;
        EXPECT_FALSE(trace.error->message.empty());
    } else if (lesson.goal == lessons::Goal::Train) {
        EXPECT_EQ(trace.status, core::RunStatus::Ok);
        EXPECT_FALSE(trace.check.passed);
        EXPECT_FALSE(trace.check.message.empty());
    } else {
        EXPECT_TRUE(!verdict.timeMet || !verdict.memoryMet) << verdict.summary;
    }
}

// The source line `line` (from 1) of `text`, or "" past its end.
std::string sourceLine(const std::string &text, int line)
{
    std::istringstream in(text);
    std::string current;
    for (int i = 1; std::getline(in, current); ++i)
        if (i == line)
            return current;
    return {};
}

TEST_P(LessonFolder, StarterSaysInOneLineWhatIsMissing)
{
    lessons::Lesson lesson;
    ASSERT_TRUE(load(lesson));
    SKIP_IF_TORCH(lesson);

    const core::Trace trace = runLessonCode(lesson, lesson.starter, lesson.folder + "/starter.py");
    const lessons::Verdict verdict = lessons::judge(lesson, trace);

    EXPECT_EQ(verdict.summary.find('\n'), std::string::npos) << verdict.summary;
    EXPECT_LT(verdict.summary.size(), 260U) << verdict.summary;
    if (trace.error && trace.error->line > 0) {
        // The provided epilogue hands the final weights over; it must not fail on its own.
        EXPECT_EQ(sourceLine(lesson.starter, trace.error->line).find("set_final_weight"),
                  std::string::npos)
            << trace.error->message;
    }
}

TEST_P(LessonFolder, SolutionTraceMatchesGoldenFile)
{
    lessons::Lesson lesson;
    ASSERT_TRUE(load(lesson));
    SKIP_IF_TORCH(lesson);
    const std::filesystem::path golden = goldenPath(lesson.id);
    ASSERT_TRUE(std::filesystem::exists(golden))
        << golden << " is missing: run scripts/refresh-golden.sh and review the new file";

    // The file name rankstep-cli records for `lesson NAME --solution`, which writes the golden
    // files.
    const std::string file = lesson.folder + "/solution.py";
    const core::Trace trace = runLessonCode(lesson, lesson.solution, file);
    const std::string now = io::traceToJson(trace, {file, lesson.function});
    const std::string expected = readText(golden);

    EXPECT_TRUE(now == expected) << golden << " differs from the solution's trace; "
                                 << firstDifference(expected, now)
                                 << "\nAfter a deliberate change run scripts/refresh-golden.sh and "
                                    "review the diff.";
}

TEST_P(LessonFolder, BuiltinCopyMatchesTheFolder)
{
    lessons::Lesson disk;
    ASSERT_TRUE(load(disk));
    const auto builtin = lessons::loadLessons(lessons::builtinLessonFiles());
    ASSERT_TRUE(builtin) << builtin.error().message;

    const lessons::Lesson *shipped = lessons::findLesson(*builtin, disk.id);
    ASSERT_NE(shipped, nullptr) << disk.folder
                                << " is not built in: list it in RANKSTEP_LESSON_FOLDERS of "
                                   "lessons/CMakeLists.txt and rebuild";
    const std::string stale = ": the built-in copy differs from the folder; rebuild the project";
    EXPECT_EQ(shipped->folder, disk.folder);
    for (const char *name : {"lesson.json", "text.md", "starter.py", "solution.py", "hints.md"}) {
        const std::string path = disk.folder + "/" + name;
        const auto &files = lessons::builtinLessonFiles();
        ASSERT_EQ(files.count(path), 1U) << path << stale;
        EXPECT_TRUE(files.at(path) == readText(lessonsRoot() + "/" + path)) << path << stale;
    }
    // Its texts in other languages too (text.de.md), and its pictures: CMake globs them, and a new
    // one needs a configure step to be built in.
    for (const auto &entry :
         std::filesystem::directory_iterator(lessonsRoot() + "/" + disk.folder)) {
        const std::string name = entry.path().filename().string();
        const bool translation = (name.size() == 10 || name.size() == 11) &&
                                 (name.rfind("text.", 0) == 0 || name.rfind("hints.", 0) == 0) &&
                                 name.ends_with(".md");
        // Its pictures (block.svg, block.de.svg), globbed the same way.
        if (!translation && !lessons::isPictureFileName(name))
            continue;
        const std::string path = disk.folder + "/" + name;
        const auto &files = lessons::builtinLessonFiles();
        ASSERT_EQ(files.count(path), 1U) << path << stale;
        EXPECT_TRUE(files.at(path) == readText(lessonsRoot() + "/" + path)) << path << stale;
    }
}

// The folders as a whole: no two share a name, and the program ships exactly these lessons.
TEST(LessonsFolder, LoadsAsAWholeAndIsWhatTheProgramShips)
{
    for (const std::string &problem : cli::validateLessonFolder(lessonsRoot()))
        ADD_FAILURE() << problem;
    const auto files = lessons::readLessonFolder(lessonsRoot());
    ASSERT_TRUE(files) << files.error().message;
    const auto disk = lessons::loadLessons(*files);
    ASSERT_TRUE(disk) << disk.error().message;
    const auto builtin = lessons::loadLessons(lessons::builtinLessonFiles());
    ASSERT_TRUE(builtin) << builtin.error().message;

    std::set<std::string> diskIds, builtinIds;
    for (const lessons::Lesson &lesson : *disk)
        diskIds.insert(lesson.id);
    for (const lessons::Lesson &lesson : *builtin)
        builtinIds.insert(lesson.id);
    EXPECT_EQ(builtinIds, diskIds) << "the built-in lessons are stale: rebuild the project";
    EXPECT_EQ(diskIds.size(), lessonFolders().size());
}

std::string nameOfCase(const ::testing::TestParamInfo<std::string> &param)
{
    return caseName(param.param);
}

INSTANTIATE_TEST_SUITE_P(Lessons, LessonFolder, ::testing::ValuesIn(lessonFolders()), nameOfCase);

} // namespace
} // namespace rankstep::lessontests
