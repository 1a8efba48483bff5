// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"

#include <string>
#include <vector>

namespace rankstep::cli {

// Everything wrong with a set of lessons, each naming the file and the field: the format (see
// lessons/README.md), and that starter.py and solution.py parse and define the function.
std::vector<std::string> validateLessons(const lessons::LessonFiles &files);
// The lessons without any of those problems, and the problems of the ones left out.
lessons::LessonSet checkLessons(const lessons::LessonFiles &files);
lessons::LessonSet checkLessonFolder(const std::string &root);
std::vector<std::string> validateLessonFolder(const std::string &root);

} // namespace rankstep::cli
