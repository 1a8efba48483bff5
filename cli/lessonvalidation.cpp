// SPDX-License-Identifier: MIT
#include "lessonvalidation.h"

#include "core/lessons/pictures.h"
#include "core/python/runtime.h"

namespace rankstep::cli {
namespace {

// False (with the problem added) when the file does not parse or lacks the lesson's function.
bool checkCode(python::Runtime &runtime, const lessons::Lesson &lesson, const std::string &file,
               const std::string &source, std::vector<std::string> &problems)
{
    const std::string path = lesson.folder + "/" + file;
    auto functions = runtime.listFunctions(source, path);
    if (!functions) {
        problems.push_back(path + ": " + functions.error().message);
        return false;
    }
    for (const auto &f : *functions)
        if (f.name == lesson.function)
            return true;
    problems.push_back(path + ": does not define the lesson's function '" + lesson.function +
                       "' (lesson.json: function)");
    return false;
}

// An author's folder loads with a picture missing (the app shows its alt text); the build does not.
std::vector<std::string> withMissingPictures(const lessons::LessonSet &set)
{
    std::vector<std::string> problems = set.problems;
    for (const lessons::Lesson &lesson : set.lessons)
        for (std::string &problem : lessons::missingPictures(lesson))
            problems.push_back(std::move(problem));
    return problems;
}

} // namespace

lessons::LessonSet checkLessons(const lessons::LessonFiles &files)
{
    lessons::LessonSet loaded = lessons::loadLessonsSkippingBroken(files);
    lessons::LessonSet checked;
    checked.problems = std::move(loaded.problems);
    python::Runtime runtime;
    for (lessons::Lesson &lesson : loaded.lessons) {
        const bool starter =
            checkCode(runtime, lesson, "starter.py", lesson.starter, checked.problems);
        const bool solution =
            checkCode(runtime, lesson, "solution.py", lesson.solution, checked.problems);
        if (starter && solution)
            checked.lessons.push_back(std::move(lesson));
    }
    return checked;
}

lessons::LessonSet checkLessonFolder(const std::string &root)
{
    auto files = lessons::readLessonFolder(root);
    if (!files)
        return {{}, {files.error().message}};
    return checkLessons(*files);
}

std::vector<std::string> validateLessons(const lessons::LessonFiles &files)
{
    return withMissingPictures(checkLessons(files));
}

std::vector<std::string> validateLessonFolder(const std::string &root)
{
    return withMissingPictures(checkLessonFolder(root));
}

} // namespace rankstep::cli
