// SPDX-License-Identifier: MIT
// A lesson's pictures: ![alt](name.svg) in its texts, SVG files beside them, built into the
// program; the build refuses a text that shows a picture its folder lacks.
#include "cli/lessonvalidation.h"
#include "core/lessons/builtin.h"
#include "core/lessons/pictures.h"
#include "lessontestsupport.h"
#include "tempdir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace rankstep::lessontests {
namespace {

const std::string kPicture = R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"/>)";

TEST(LessonPictures, FindsEachPictureWithItsAltTextAndPlace)
{
    const std::string text =
        "Look:\n\n![The ring of 4 ranks](ring.svg \"title\")\n\nand "
        "![](grid.de.svg). Not [a link](x.svg) nor ![half](";
    const auto found = lessons::pictureReferences(text);
    ASSERT_EQ(found.size(), 2U);
    EXPECT_EQ(found[0].alt, "The ring of 4 ranks");
    EXPECT_EQ(found[0].name, "ring.svg");
    EXPECT_EQ(text.substr(found[0].begin, found[0].length),
              "![The ring of 4 ranks](ring.svg \"title\")");
    EXPECT_EQ(found[1].alt, "");
    EXPECT_EQ(found[1].name, "grid.de.svg");
}

TEST(LessonPictures, NamesAreSvgFilesOfTheFolderItself)
{
    for (const char *name : {"ring.svg", "tensor_block.svg", "block-2.de.svg"})
        EXPECT_TRUE(lessons::isPictureFileName(name)) << name;
    for (const char *name : {".svg", "ring.png", "Ring.svg", "../ring.svg", "sub/ring.svg",
                             "ring.deu.svg", "ring.DE.svg", "ring svg.svg", "text.md"})
        EXPECT_FALSE(lessons::isPictureFileName(name)) << name;
}

TEST(LessonPictures, LoadWithTheLessonByFileName)
{
    lessons::LessonFiles files = validLesson("30-ddp", "ddp");
    files["30-ddp/ring.svg"] = kPicture;
    files["30-ddp/ring.de.svg"] = kPicture;
    files["30-ddp/notes.txt"] = "not a picture";
    const auto loaded = lessons::loadLessons(files);
    ASSERT_TRUE(loaded) << loaded.error().message;
    const auto &pictures = loaded->front().pictures;
    ASSERT_EQ(pictures.size(), 2U);
    EXPECT_EQ(pictures.at("ring.svg"), kPicture);
    EXPECT_TRUE(pictures.contains("ring.de.svg"));
}

TEST(LessonPictures, TheBuildRefusesATextShowingAPictureTheFolderLacks)
{
    lessons::LessonFiles files = validLesson("30-ddp", "ddp");
    files["30-ddp/text.md"] += "\n![The ring](ring.svg)\n";
    files["30-ddp/text.de.md"] = "# Auf Deutsch\n\n![Der Ring](ring.de.svg)\n";
    files["30-ddp/ring.svg"] = kPicture;
    // The lesson still loads (an author's folder shows the alt text instead)...
    ASSERT_TRUE(lessons::loadLessons(files));
    // ...but the build names the text and the picture.
    EXPECT_EQ(cli::validateLessons(files),
              std::vector<std::string>{
                  "30-ddp/text.de.md: shows ring.de.svg, which is not in the folder"});
    files["30-ddp/ring.de.svg"] = kPicture;
    EXPECT_TRUE(cli::validateLessons(files).empty());
}

TEST(LessonPictures, AFolderOnDiskBringsItsPictures)
{
    // A folder of its own: two runs of the suite at once (two build trees) shared one fixed
    // path, and one removed the other's lesson while it was read.
    const testsupport::TempDir dir;
    const auto root = dir.path() / "lessons";
    for (const auto &[path, text] : validLesson("30-ddp", "ddp")) {
        std::filesystem::create_directories((root / path).parent_path());
        std::ofstream(root / path) << text;
    }
    std::ofstream(root / "30-ddp" / "ring.svg") << kPicture;
    std::ofstream(root / "30-ddp" / "ring.bmp") << "left alone";
    const auto files = lessons::readLessonFolder(root.string());
    ASSERT_TRUE(files) << files.error().message;
    EXPECT_EQ(files->count("30-ddp/ring.svg"), 1U);
    EXPECT_EQ(files->count("30-ddp/ring.bmp"), 0U);
}

// The lessons on the modern parallelisms each show a picture of their own, in every language,
// and the program carries every picture its lessons show.
TEST(LessonPictures, TheBuiltInLessonsCarryEveryPictureTheyShow)
{
    const auto loaded = lessons::loadLessons(lessons::builtinLessonFiles());
    ASSERT_TRUE(loaded) << loaded.error().message;
    for (const lessons::Lesson &lesson : *loaded)
        for (const std::string &problem : lessons::missingPictures(lesson))
            ADD_FAILURE() << problem;
    for (const char *id : {"interleaved_1f1b", "zero_bubble", "tensor_parallel",
                           "sequence_parallel", "context_parallel", "expert_parallel", "four_d"}) {
        const lessons::Lesson *lesson = lessons::findLesson(*loaded, id);
        ASSERT_NE(lesson, nullptr) << id;
        EXPECT_FALSE(lessons::pictureReferences(lesson->text).empty()) << id << ": no picture";
        for (const auto &[language, words] : lesson->translations)
            for (const auto &picture : lessons::pictureReferences(words.text))
                EXPECT_NE(picture.name.find("." + language + ".svg"), std::string::npos)
                    << id << ": text." << language << ".md shows " << picture.name
                    << ", not a picture with words in its language";
        EXPECT_GE(lesson->pictures.size(), 2U) << id;
    }
}

} // namespace
} // namespace rankstep::lessontests
