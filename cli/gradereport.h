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
    std::string learner;  // the folder below the PATH given (or the file's name without .py)
    std::string file;     // the learner file as found
    std::string lesson;   // the lesson id; empty when the file had no puzzle function
    std::string function; // the puzzle function's name
    // "solved", "not solved" (ran, but the check or a target failed), "error" (exception, syntax,
    // puzzle rule), "hung" (deadlock), "stopped" (time limit), "crashed" (the process died),
    // "no puzzle" (nothing to grade in the file), "unreadable" (not a notebook or Python file, a
    // file or folder it may not read, a symbolic link out of the folder being graded).
    std::string status;
    bool solved = false;
    std::optional<core::SimTime> time; // Timesteps
    std::optional<core::SimTime> timeTarget;
    std::optional<std::int64_t> memory; // Maximum Memory in bytes
    std::optional<std::int64_t> memoryTarget;
    std::string error;  // one line, empty when none
    double seconds = 0; // wall-clock time of the grading run
};

// The rows as an aligned text table with a header and a one-line summary after it. Every text a
// learner decided (file names, errors) is one line with its controls escaped (core::terminalLine).
std::string formatGradeTable(const std::vector<GradeRow> &rows);
// The same rows as CSV (RFC 4180) with a header line; text cells as csvField (csv.h) makes them.
std::string formatGradeCsv(const std::vector<GradeRow> &rows);

// What kind of mistake a row that is not solved shows, in a few words a teacher can count:
// "update before allreduce", "syntax error", "endless loop (time limit)", "memory above the
// target", ...; "" for a solved row.
std::string mistakeKind(const GradeRow &row);

// One row per learner, one column per lesson (in `lessons`' order): "solved", "not solved:
// <mistake kind>", "missing", or "unreadable: <why>" for a learner some file or folder of whom
// could not be read; then the mistakes grouped by kind, most learners first.
struct Roster {
    std::vector<std::string> lessons;
    struct Learner {
        std::string name;
        std::vector<std::string> cells;  // parallel to lessons
        std::vector<std::string> files;  // the file each cell was graded from; empty: missing
        std::vector<std::string> errors; // its one-line error; empty when none
    };
    std::vector<Learner> learners;
    struct Mistake {
        std::string kind;
        int learners = 0; // how many learners made it at least once
        std::vector<std::string> lessons;
    };
    std::vector<Mistake> mistakes;
};
// `lessonOrder`: every lesson id in the order the app lists them; the roster's columns are those
// some row graded.
Roster makeRoster(const std::vector<GradeRow> &rows, const std::vector<std::string> &lessonOrder);
std::string formatRosterTable(const Roster &roster);
std::string formatRosterCsv(const Roster &roster);
std::string formatRosterJson(const Roster &roster);
// The rows as JSON: {"results": [{"file": ..., "lesson": ..., ...}, ...], "solved": N, ...}.
std::string formatGradeJson(const std::vector<GradeRow> &rows);

} // namespace rankstep::cli
