// SPDX-License-Identifier: MIT
#pragma once

#include "core/simtime.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankstep::cli {

// One line of `rankstep-cli grade`: one puzzle function of one learner file, or a file that had
// nothing to grade.
struct GradeRow {
    std::string file;     // the learner file as found
    std::string lesson;   // the lesson id; empty when the file had no puzzle function
    std::string function; // the puzzle function's name
    // "solved", "not solved" (ran, but the check or a target failed), "error" (exception, syntax,
    // puzzle rule), "hung" (deadlock), "stopped" (time limit), "crashed" (the process died),
    // "no puzzle" (nothing to grade in the file), "unreadable" (not a notebook or Python file).
    std::string status;
    bool solved = false;
    std::optional<core::SimTime> time; // Timesteps
    std::optional<core::SimTime> timeTarget;
    std::optional<std::int64_t> memory; // Maximum Memory in bytes
    std::optional<std::int64_t> memoryTarget;
    std::string error;  // one line, empty when none
    double seconds = 0; // wall-clock time of the grading run
};

// The rows as an aligned text table with a header and a one-line summary after it.
std::string formatGradeTable(const std::vector<GradeRow> &rows);
// The rows as JSON: {"results": [{"file": ..., "lesson": ..., ...}, ...], "solved": N, ...}.
std::string formatGradeJson(const std::vector<GradeRow> &rows);

} // namespace rankstep::cli
