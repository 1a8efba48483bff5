// SPDX-License-Identifier: MIT
#include "lessontestsupport.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

extern char **environ;

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
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> lessonFolders()
{
    const auto files = lessons::readLessonFolder(lessonsRoot());
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
    if (const auto files = lessons::readLessonFolder(lessonsRoot())) {
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
    python::RunRequest request; // the budget and time limit rankstep-cli uses by default
    request.source = source;
    request.fileName = fileName;
    request.function = lesson.function;
    request.config = lesson.config;
    return runtime().run(request).trace;
}

TempDir::TempDir()
{
    std::string pattern =
        (std::filesystem::temp_directory_path() / "rankstep-lessons-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        ADD_FAILURE() << "mkdtemp failed, errno " << errno;
    m_path = pattern;
}

TempDir::~TempDir()
{
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

std::string TempDir::write(const std::string &name, const std::string &text) const
{
    const std::filesystem::path path = m_path / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
        ADD_FAILURE() << "cannot write " << path;
    return path.string();
}

CliResult runCli(const std::vector<std::string> &args, const TempDir &dir)
{
    const std::string outPath = (dir.path() / "cli-stdout.txt").string();
    const std::string errPath = (dir.path() / "cli-stderr.txt").string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::string program = RANKSTEP_CLI;
    std::vector<std::string> storage = args;
    std::vector<char *> argv{program.data()};
    for (std::string &arg : storage)
        argv.push_back(arg.data());
    argv.push_back(nullptr);

    CliResult result;
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        ADD_FAILURE() << "cannot start " << program << ": error " << spawned;
        return result;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status))
        result.exitCode = WEXITSTATUS(status);
    result.out = readText(outPath);
    result.err = readText(errPath);
    return result;
}

} // namespace rankstep::lessontests
