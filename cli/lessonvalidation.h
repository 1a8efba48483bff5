// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"

#include <string>
#include <vector>

namespace rankstep::cli {

// Everything wrong with a set of lessons, each naming the file and the field: the format (see
// lessons/README.md), and that starter.py and solution.py parse and define the function.
std::vector<std::string> validateLessons(const lessons::LessonFiles &files);
std::vector<std::string> validateLessonFolder(const std::string &root);

} // namespace rankstep::cli
