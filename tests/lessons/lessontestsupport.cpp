// SPDX-License-Identifier: MIT
#include "lessontestsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

namespace rankstep::lessontests {

std::string lessonsRoot()
{
    return std::string(RANKSTEP_SOURCE_DIR) + "/lessons";
}

std::filesystem::path goldenPath(const std::string &id)
{
    return std::filesystem::path(RANKSTEP_SOURCE_DIR) / "tests/lessons/golden" / (id + ".json");
}

std::string readText(const std::filesystem::path &path)
{
    return testsupport::readFileText(path);
}

namespace {

// The lessons folder as this process first read it. GoogleTest names every case of every folder
// when the program starts, and ctest starts the program once a test: reading the folder for each
// name (some 270 times) cost each test 1.5-2 s of CPU, and 6-35 s of a loaded machine, before
// it ran.
const core::Result<lessons::LessonFiles> &lessonsOnDisk()
{
    static const core::Result<lessons::LessonFiles> files =
        lessons::readLessonFolder(lessonsRoot());
    return files;
}

} // namespace

std::vector<std::string> lessonFolders()
{
    const auto &files = lessonsOnDisk();
    if (!files)
        return {};
    std::set<std::string> folders;
    for (const auto &[path, text] : *files)
        folders.insert(path.substr(0, path.find('/')));
    return {folders.begin(), folders.end()};
}

lessons::LessonFiles filesOfFolder(const lessons::LessonFiles &files, const std::string &folder)
{
    lessons::LessonFiles subset;
    for (const auto &[path, text] : files)
        if (path.rfind(folder + "/", 0) == 0)
            subset.emplace(path, text);
    return subset;
}

std::string caseName(const std::string &folder)
{
    std::string name = folder;
    if (const auto &files = lessonsOnDisk()) {
        const auto loaded = lessons::loadLessons(filesOfFolder(*files, folder));
        if (loaded && loaded->size() == 1)
            name = loaded->front().id;
    }
    std::replace_if(
        name.begin(), name.end(),
        [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
    return name;
}

namespace {

// lesson.json's members in order, as "key": value text.
std::vector<std::pair<std::string, std::string>> lessonJsonMembers(const std::string &function)
{
    return {{"title", "\"A lesson for the tests\""},
            {"order", "10"},
            {"function", "\"" + function + "\""},
            {"ranks", "1"},
            {"layers", "2"},
            {"batches", "4"},
            {"goal", "\"train\""},
            {"targets", "{\"time\": 16.5, \"memory\": 2621440}"}};
}

} // namespace

std::string lessonJsonWith(const std::string &function, const std::string &field,
                           const std::string &replacement)
{
    std::string json = "{\n";
    bool first = true;
    for (auto [key, value] : lessonJsonMembers(function)) {
        if (key == field && replacement.empty())
            continue;
        if (key == field)
            value = replacement;
        json += std::string(first ? "" : ",\n") + "  \"" + key + "\": " + value;
        first = false;
    }
    return json + "\n}\n";
}

lessons::LessonFiles validLesson(const std::string &folder, const std::string &function)
{
    const std::string code = "def " + function + "(model):\n    return model\n";
    return {{folder + "/lesson.json", lessonJsonWith(function, "", "")},
            {folder + "/text.md", "# A lesson for the tests\n\nSome text.\n"},
            {folder + "/starter.py", code},
            {folder + "/solution.py", code},
            {folder + "/hints.md", "The first hint.\n---\nThe second hint.\n"}};
}

python::Runtime &runtime()
{
    static python::Runtime instance;
    return instance;
}

core::Trace runLessonCode(const lessons::Lesson &lesson, const std::string &source,
                          const std::string &fileName)
{
    python::RunRequest request; // the budget rankstep-cli uses by default
    // No wall-clock limit: a test waits for the run's end, so that a loaded machine (or the
    // sanitizers' build, where the paper's layout at 128 ranks took more than 30 s under load)
    // cannot decide its outcome; ctest's own timeout still ends a run that never does.
    request.timeLimitSeconds = 0;
    request.source = source;
    request.fileName = fileName;
    request.function = lesson.function;
    request.config = lesson.config;
    return runtime().run(request).trace;
}

CliResult runCli(const std::vector<std::string> &args, const TempDir &dir)
{
    return testsupport::runProgram(RANKSTEP_CLI, args, dir);
}

} // namespace rankstep::lessontests
