// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"

#include <string>
#include <vector>

namespace rankstep::cli {

// rankstep-cli lesson NAME [FILE | --solution | --starter] [options]
int lessonCommand(const std::vector<std::string> &args);
// rankstep-cli lessons [--lessons DIR]
int lessonsCommand(const std::vector<std::string> &args);

// The lessons to use: --lessons DIR (validated like the build validates lessons/) or the
// built-in ones. A broken folder is left out with its problem on stderr, naming the file and the
// field; UsageError, naming every problem, when no lesson loads.
lessons::LessonSet loadLessonSet(const std::string &folder);

// The share of all ranks' time (ranks x end time) spent idle, "37.5%".
std::string formatIdleShare(const core::Trace &trace);

// "Timesteps: 5.1 (target 5.1; the notebook's 5)" and the memory line, for a lesson's run.
std::string formatTargets(const lessons::Lesson &lesson, const core::Trace &trace);

} // namespace rankstep::cli
