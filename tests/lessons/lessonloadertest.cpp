// SPDX-License-Identifier: MIT
// Broken lesson folders, built in memory: every problem comes back as one message naming the file
// and the field, from loadLessons and again from the build's validation.
#include "cli/lessonvalidation.h"
#include "lessontestsupport.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::lessontests {
namespace {

// Succeeds when `files` fail to load with a Usage error whose message holds every part, and the
// build's validation reports the same message.
::testing::AssertionResult rejected(const lessons::LessonFiles &files,
                                    const std::vector<std::string> &parts)
{
    const auto loaded = lessons::loadLessons(files);
    if (loaded)
        return ::testing::AssertionFailure() << "the lessons loaded";
    if (loaded.error().kind != core::ErrorKind::Usage)
        return ::testing::AssertionFailure() << "not a Usage error: " << loaded.error().message;
    for (const std::string &part : parts)
        if (loaded.error().message.find(part) == std::string::npos)
            return ::testing::AssertionFailure()
                   << "'" << part << "' is not in: " << loaded.error().message;
    const auto problems = cli::validateLessons(files);
    if (problems != std::vector<std::string>{loaded.error().message})
        return ::testing::AssertionFailure() << "the validation reports something else";
    return ::testing::AssertionSuccess() << loaded.error().message;
}

// Succeeds when validation reports exactly one problem, holding every part.
::testing::AssertionResult reported(const lessons::LessonFiles &files,
                                    const std::vector<std::string> &parts)
{
    const auto problems = cli::validateLessons(files);
    if (problems.size() != 1)
        return ::testing::AssertionFailure() << problems.size() << " problems reported";
    for (const std::string &part : parts)
        if (problems.front().find(part) == std::string::npos)
            return ::testing::AssertionFailure()
                   << "'" << part << "' is not in: " << problems.front();
    return ::testing::AssertionSuccess() << problems.front();
}

lessons::LessonFiles withConfig(const std::string &json)
{
    lessons::LessonFiles files = validLesson("30-ddp", "ddp");
    files["30-ddp/lesson.json"] = json;
    return files;
}

TEST(LessonLoader, AcceptsTheWellFormedLessonOfTheseTests)
{
    const auto loaded = lessons::loadLessons(validLesson("30-ddp", "ddp"));
    ASSERT_TRUE(loaded) << loaded.error().message;
    ASSERT_EQ(loaded->size(), 1U);
    EXPECT_EQ(loaded->front().id, "ddp");
    EXPECT_EQ(loaded->front().folder, "30-ddp");
    EXPECT_EQ(loaded->front().config.ranks, 1);
    EXPECT_TRUE(cli::validateLessons(validLesson("30-ddp", "ddp")).empty());
}

TEST(LessonLoader, NamesTheFileAndAMissingField)
{
    EXPECT_TRUE(rejected(withConfig(lessonJsonWith("ddp", "ranks", "")),
                         {"30-ddp/lesson.json", "\"ranks\"", "missing"}));
    EXPECT_TRUE(rejected(withConfig(lessonJsonWith("ddp", "function", "")),
                         {"30-ddp/lesson.json", "\"function\"", "missing"}));
}

TEST(LessonLoader, NamesTheFileAndAFieldOfTheWrongType)
{
    EXPECT_TRUE(rejected(withConfig(lessonJsonWith("ddp", "ranks", "\"four\"")),
                         {"30-ddp/lesson.json", "ranks", "expected an integer", "four"}));
    EXPECT_TRUE(
        rejected(withConfig(lessonJsonWith("ddp", "targets", R"({"time": 5.1, "memory": "big"})")),
                 {"30-ddp/lesson.json", "targets.memory", "big"}));
    EXPECT_TRUE(rejected(withConfig(lessonJsonWith("ddp", "title", "7")),
                         {"30-ddp/lesson.json", "title", "expected a string"}));
}

TEST(LessonLoader, NamesTheFileAndThePlaceOfBadJson)
{
    std::string json = lessonJsonWith("ddp", "", "");
    json.insert(json.find("\"order\""), "\"oops\" ");

    EXPECT_TRUE(rejected(withConfig(json), {"30-ddp/lesson.json", "line 3"}));
    EXPECT_TRUE(rejected(withConfig("{\"title\": \"cut short"), {"30-ddp/lesson.json"}));
}

TEST(LessonLoader, NamesAnUnknownGoal)
{
    EXPECT_TRUE(rejected(withConfig(lessonJsonWith("ddp", "goal", "\"win\"")),
                         {"30-ddp/lesson.json", "goal", "\"train\" or \"run\""}));
}

// "parallelism" picks the formula shown beside a run (core/explain/formulas.h): a name the loader
// does not know is refused, not taken for a lesson without a formula.
TEST(LessonLoader, NamesAnUnknownParallelism)
{
    std::string json = lessonJsonWith("ddp", "", "");
    json.insert(json.find("\"order\""), "\"parallelism\": \"tensor_parallel\",\n  ");
    EXPECT_TRUE(
        rejected(withConfig(json), {"30-ddp/lesson.json", "parallelism",
                                    "expected \"data_parallel\", \"sharded\" or \"pipeline\""}));
}

TEST(LessonLoader, ReadsEachParallelismAndNoneWhenLeftOut)
{
    const std::pair<const char *, lessons::Parallelism> known[] = {
        {"data_parallel", lessons::Parallelism::DataParallel},
        {"sharded", lessons::Parallelism::Sharded},
        {"pipeline", lessons::Parallelism::Pipeline}};
    for (const auto &[name, parallelism] : known) {
        std::string json = lessonJsonWith("ddp", "", "");
        json.insert(json.find("\"order\""), "\"parallelism\": \"" + std::string(name) + "\",\n  ");
        const auto loaded = lessons::loadLessons(withConfig(json));
        ASSERT_TRUE(loaded) << loaded.error().message;
        EXPECT_EQ(loaded->front().parallelism, parallelism) << name;
    }
    const auto plain = lessons::loadLessons(validLesson("30-ddp", "ddp"));
    ASSERT_TRUE(plain) << plain.error().message;
    EXPECT_EQ(plain->front().parallelism, lessons::Parallelism::None);
}

TEST(LessonLoader, ReportsAMissingTextFile)
{
    lessons::LessonFiles files = validLesson("30-ddp", "ddp");
    files.erase("30-ddp/text.md");

    EXPECT_TRUE(rejected(files, {"30-ddp/text.md", "missing"}));
}

TEST(LessonLoader, ReportsFewerThanTwoHints)
{
    lessons::LessonFiles files = validLesson("30-ddp", "ddp");
    files["30-ddp/hints.md"] = "The only hint.\n---\n   \n";

    EXPECT_TRUE(rejected(files, {"30-ddp/hints.md", "two hints"}));
}

TEST(LessonLoader, ReportsAStarterThatDoesNotDefineTheFunction)
{
    lessons::LessonFiles files = validLesson("30-ddp", "ddp");
    files["30-ddp/starter.py"] = "def dpp(model):\n    return model\n";

    EXPECT_TRUE(reported(files, {"30-ddp/starter.py", "'ddp'", "lesson.json: function"}));
}

TEST(LessonLoader, ReportsASolutionWithASyntaxError)
{
    lessons::LessonFiles files = validLesson("30-ddp", "ddp");
    files["30-ddp/solution.py"] = "def ddp(model):\n    return model +\n";

    EXPECT_TRUE(reported(files, {"30-ddp/solution.py"}));
}

TEST(LessonLoader, RejectsTwoFoldersWithTheSameName)
{
    lessons::LessonFiles files = validLesson("30-ddp", "ddp");
    files.merge(validLesson("35-ddp", "ddp_again"));

    EXPECT_TRUE(rejected(files, {"-ddp", "'ddp'"}));
}

TEST(LessonLoader, SplitsHintsOnLinesHoldingOnlyThreeDashes)
{
    lessons::LessonFiles files = validLesson("30-ddp", "ddp");
    files["30-ddp/hints.md"] =
        "First, with a rule --- inside.\n---\n\nSecond\n----\nstill second\n"
        "---\r\nThird\n---\n";

    const auto loaded = lessons::loadLessons(files);
    ASSERT_TRUE(loaded) << loaded.error().message;
    EXPECT_EQ(loaded->front().hints,
              (std::vector<std::string>{"First, with a rule --- inside.",
                                        "Second\n----\nstill second", "Third"}));
}

// A German text and hints beside the English ones: shown whole in German, and the English ones
// where a lesson has no German (a learner never reads a paragraph of one inside the other).
TEST(LessonLoader, ReadsTheTextAndHintsInAnotherLanguageAndFallsBackToEnglish)
{
    lessons::LessonFiles files = validLesson("30-ddp", "ddp");
    files["30-ddp/hints.md"] = "First.\n---\nSecond.\n";
    files["30-ddp/text.de.md"] = "# Auf Deutsch\n";
    files["30-ddp/hints.de.md"] = "Erstens.\n---\nZweitens.\n";
    files.merge(validLesson("40-wsdp", "wsdp"));
    files["40-wsdp/hints.de.md"] = "Eins.\n---\nZwei.\n---\nDrei.\n";

    const auto loaded = lessons::loadLessons(files);
    ASSERT_FALSE(loaded) << "three German hints for two English ones";
    EXPECT_TRUE(rejected(files, {"40-wsdp/hints.de.md", "has 3 hints", "hints.md has"}));

    files.erase("40-wsdp/hints.de.md");
    const auto fixed = lessons::loadLessons(files);
    ASSERT_TRUE(fixed) << fixed.error().message;
    const lessons::Lesson &ddp = fixed->front();
    EXPECT_EQ(lessons::lessonText(ddp, "de"), "# Auf Deutsch\n");
    EXPECT_EQ(lessons::lessonHints(ddp, "de"), (std::vector<std::string>{"Erstens.", "Zweitens."}));
    EXPECT_EQ(lessons::lessonText(ddp, "en"), ddp.text);
    EXPECT_EQ(lessons::lessonHints(ddp, "fr"), ddp.hints);
    const lessons::Lesson &wsdp = fixed->back();
    EXPECT_EQ(lessons::lessonText(wsdp, "de"), wsdp.text);
}

// The files of an author's folder on disk: a translation is read, another file is not.
TEST(LessonLoader, ReadsTranslationsFromAFolderOnDisk)
{
    const auto files = lessons::readLessonFolder(RANKSTEP_SOURCE_DIR "/lessons");
    ASSERT_TRUE(files) << files.error().message;
    EXPECT_TRUE(files->contains("30-ddp/text.de.md"));
    EXPECT_TRUE(files->contains("05-walkthrough/hints.de.md"));
    const auto loaded = lessons::loadLessons(*files);
    ASSERT_TRUE(loaded) << loaded.error().message;
    const lessons::Lesson *ddp = lessons::findLesson(*loaded, "ddp");
    ASSERT_NE(ddp, nullptr);
    EXPECT_NE(lessons::lessonText(*ddp, "de"), ddp->text);
    EXPECT_EQ(lessons::lessonHints(*ddp, "de").size(), ddp->hints.size());
}

TEST(LessonLoader, SortsByOrderAndFindsALessonByIdFolderOrFunction)
{
    lessons::LessonFiles files = validLesson("30-ddp", "ddp");
    lessons::LessonFiles other = validLesson("05-warmup", "basic");
    other["05-warmup/lesson.json"] = lessonJsonWith("basic", "order", "40");
    files.merge(other);
    const auto loaded = lessons::loadLessons(files);
    ASSERT_TRUE(loaded) << loaded.error().message;
    ASSERT_EQ(loaded->size(), 2U);
    EXPECT_EQ(loaded->front().id, "ddp"); // order 10 before order 40, whatever the folder says

    const lessons::Lesson *byId = lessons::findLesson(*loaded, "warmup");
    ASSERT_NE(byId, nullptr);
    EXPECT_EQ(byId->folder, "05-warmup");
    EXPECT_EQ(lessons::findLesson(*loaded, "05-warmup"), byId);
    EXPECT_EQ(lessons::findLesson(*loaded, "basic"), byId);
    EXPECT_EQ(lessons::findLesson(*loaded, "30-ddp"), &loaded->front());
    EXPECT_EQ(lessons::findLesson(*loaded, "fsdp"), nullptr);
}

TEST(LessonLoader, PrefersALessonsNameToAnotherLessonsFunction)
{
    lessons::LessonFiles files = validLesson("10-basic", "ddp"); // runs a function named ddp
    files.merge(validLesson("30-ddp", "data_parallel"));
    const auto loaded = lessons::loadLessons(files);
    ASSERT_TRUE(loaded) << loaded.error().message;

    const lessons::Lesson *found = lessons::findLesson(*loaded, "ddp");
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->folder, "30-ddp");
}

} // namespace
} // namespace rankstep::lessontests
