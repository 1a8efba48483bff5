// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"

#include <string>
#include <vector>

namespace rankstep::cli {

// Everything wrong with a set of lessons, each naming the file and the field: the format (see
// lessons/README.md), that starter.py and solution.py parse and define the function, and that
// every picture a text shows is in its folder (what the build checks).
std::vector<std::string> validateLessons(const lessons::LessonFiles &files);
// The lessons without any of those problems but a missing picture (which the app shows as its alt
// text), and the problems of the ones left out.
lessons::LessonSet checkLessons(const lessons::LessonFiles &files);
lessons::LessonSet checkLessonFolder(const std::string &root);
std::vector<std::string> validateLessonFolder(const std::string &root);

} // namespace rankstep::cli
