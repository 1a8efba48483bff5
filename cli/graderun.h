// SPDX-License-Identifier: MIT
#pragma once

#include "gradereport.h"

#include "core/lessons/lesson.h"
#include "core/lessons/puzzleimport.h"

#include <atomic>
#include <filesystem>
#include <string>

namespace rankstep::cli {

struct GradeSettings {
    std::string program;           // rankstep-cli itself, started once per function
    std::string lessonsFolder;     // --lessons, empty for the built-in lessons
    double timeout = 30;           // seconds per run; the child is killed 5 s later
    std::filesystem::path scratch; // where the code and trace files of the runs go
    // When it turns true (stopsignals.h), a run under way is ended at once.
    const std::atomic<bool> *stop = nullptr;
};

// Runs `function` (from learner file `file`) against `lesson` in a child process and reads its
// trace: the row says solved, not solved, error, hung, stopped or crashed, with the error's line
// moved back to the learner's file (and cell). `index` keeps the scratch files apart.
GradeRow gradeFunction(const std::string &file, const lessons::ImportedFunction &function,
                       const lessons::Lesson &lesson, const GradeSettings &settings, int index);

} // namespace rankstep::cli
