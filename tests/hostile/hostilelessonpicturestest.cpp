// SPDX-License-Identifier: MIT
// Hostile pictures in an author's lessons folder (`rankstep --lessons DIR --lesson NAME`,
// offscreen): a picture that is no SVG, cut off, absurdly tall, expanding entities, or missing.
// The app opens the lesson with the alt text in its place, stays up, writes nothing into the
// folder and changes no file. docs/hostile-input.md, "Files opened in the app".
#include "tempdir.h"

#include "core/io/jsonparser.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <string>

namespace rankstep::hostile {
namespace {

using testsupport::TempDir;

std::map<std::string, std::string> contents(const std::filesystem::path &folder)
{
    std::map<std::string, std::string> files;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(folder))
        if (entry.is_regular_file())
            files[entry.path().lexically_relative(folder).string()] =
                testsupport::readFileText(entry.path().string());
    return files;
}

// An SVG whose entities expand each to ten of the one before: 10^9 copies if all were expanded.
std::string laughs()
{
    std::string svg = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg [\n<!ENTITY l0 \"ha\">\n";
    for (int i = 1; i <= 9; ++i) {
        svg += "<!ENTITY l" + std::to_string(i) + " \"";
        for (int j = 0; j < 10; ++j)
            svg += "&l" + std::to_string(i - 1) + ";";
        svg += "\">\n";
    }
    return svg +
           "]>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\">"
           "<text x=\"0\" y=\"10\">&l9;</text></svg>\n";
}

TEST(HostileLessonPictures, TheLessonOpensWithItsAltTextsAndNothingChanges)
{
    TempDir home, lessons;
    ::chmod(home.path().c_str(), 0700);
    const std::filesystem::path source = std::filesystem::path(RANKSTEP_SOURCE_DIR) / "lessons";
    std::filesystem::create_directories(lessons.path() / "30-ddp");
    for (const char *name : {"lesson.json", "starter.py", "solution.py", "hints.md"})
        std::filesystem::copy_file(source / "30-ddp" / name, lessons.path() / "30-ddp" / name);
    const std::map<std::string, std::string> pictures = {
        {"garbage.svg", std::string("\x89PNG\r\n\x1a\n\0\0\0garbage", 20)},
        {"cut.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><rect x="},
        {"tall.svg",
         "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 100000000\">"
         "<rect width=\"1\" height=\"100000000\" fill=\"#222222\"/></svg>"},
        {"laughs.svg", laughs()},
    };
    std::string text = "# Pictures\n\n";
    for (const auto &[name, bytes] : pictures) {
        lessons.write("30-ddp/" + name, bytes);
        text += "![the picture " + name + "](" + name + ")\n\n";
    }
    text += "![the missing picture](missing.svg)\n";
    lessons.write("30-ddp/text.md", text);
    const auto before = contents(lessons.path());

    const std::string described = (home.path() / "window.json").string();
    const std::string shot = (home.path() / "window.png").string();
    const std::string h = home.path().string();
    const auto run = testsupport::runProgram(
        "/usr/bin/env",
        {"QT_QPA_PLATFORM=offscreen", "HOME=" + h, "XDG_CONFIG_HOME=" + h + "/config",
         "XDG_DATA_HOME=" + h + "/data", "XDG_RUNTIME_DIR=" + h, RANKSTEP_APP, "--lessons",
         lessons.path().string(), "--lesson", "ddp", "--size", "1200x800", "--screenshot", shot,
         "--describe", described},
        home);
    EXPECT_EQ(run.exitCode, 0) << run.err;
    const auto json = io::parseJson(testsupport::readFileText(described));
    ASSERT_TRUE(json) << "the window was not described: " << run.err;
    EXPECT_NE(json->find("window"), nullptr);
    EXPECT_GT(std::filesystem::file_size(shot), 0U);
    EXPECT_EQ(contents(lessons.path()), before) << "a file of the folder changed or came";
}

} // namespace
} // namespace rankstep::hostile
