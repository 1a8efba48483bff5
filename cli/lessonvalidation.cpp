// SPDX-License-Identifier: MIT
#include "lessonvalidation.h"

#include "core/python/runtime.h"

namespace rankstep::cli {
namespace {

void checkCode(python::Runtime &runtime, const lessons::Lesson &lesson, const std::string &file,
               const std::string &source, std::vector<std::string> &problems)
{
    const std::string path = lesson.folder + "/" + file;
    auto functions = runtime.listFunctions(source, path);
    if (!functions) {
        problems.push_back(path + ": " + functions.error().message);
        return;
    }
    for (const auto &f : *functions)
        if (f.name == lesson.function)
            return;
    problems.push_back(path + ": does not define the lesson's function '" + lesson.function
                       + "' (lesson.json: function)");
}

} // namespace

std::vector<std::string> validateLessons(const lessons::LessonFiles &files)
{
    auto loaded = lessons::loadLessons(files);
    if (!loaded)
        return {loaded.error().message};
    std::vector<std::string> problems;
    python::Runtime runtime;
    for (const lessons::Lesson &lesson : *loaded) {
        checkCode(runtime, lesson, "starter.py", lesson.starter, problems);
        checkCode(runtime, lesson, "solution.py", lesson.solution, problems);
    }
    return problems;
}

std::vector<std::string> validateLessonFolder(const std::string &root)
{
    auto files = lessons::readLessonFolder(root);
    if (!files)
        return {files.error().message};
    return validateLessons(*files);
}

} // namespace rankstep::cli
