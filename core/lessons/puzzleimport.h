// SPDX-License-Identifier: MIT
#pragma once

#include "lesson.h"
#include "pythonsource.h"

#include "core/error.h"

#include <string>
#include <string_view>
#include <vector>

namespace rankstep::lessons {

// A puzzle function found in a learner's file, with what it needs to run on its own.
struct ImportedFunction {
    std::string lessonId; // the lesson whose function it is
    std::string function; // its name, as the lesson names it
    std::string code;     // the file's imports, the helpers it mentions, then the function
    int cell = 0;         // notebooks: 1-based index among all cells; .py files: 0
    int line = 1;         // 1-based first line in its cell or file (comment, decorators, def)
    int codeLine = 1;     // the line of `code` that is `line` of the cell or file
    // Set when Python refuses its cell or file as a whole (an unclosed string or bracket): running
    // the notebook or file defines no function, so this one cannot pass either.
    std::optional<SourceProblem> problem;
};

// What a notebook or Python file holds for the lessons.
struct PuzzleImport {
    std::vector<ImportedFunction> found;         // in the file's order
    std::vector<std::string> missingLessons;     // ids of lessons whose function it lacks
    std::vector<std::string> unmatchedFunctions; // top-level functions no lesson names
};

// One piece of Python source: a notebook code cell, or a whole .py file (cell 0).
struct SourceCell {
    int cell = 0;
    std::string source;
};

// The code cells of a Jupyter notebook (nbformat 4: "source" a string or a list of strings).
// Cells that are IPython cell magics (%%capture, ...) are left out. Invalid JSON, JSON that is not
// a notebook, or invalid UTF-8 is an Error of kind Usage that says what the file is not.
core::Result<std::vector<SourceCell>> readNotebookCells(std::string_view json);

// The Python source of `fileName`'s bytes: a notebook when the name ends in ".ipynb", else one
// Python file (which must be UTF-8 text without NUL bytes).
core::Result<std::vector<SourceCell>> readPuzzleSource(std::string_view fileName,
                                                       std::string_view content);

// Finds the top-level functions of `cells` and matches them to `lessons` by name. A function
// defined twice counts once, by its last definition, and not at all when a class or an assignment
// binds its name after it (as running the notebook would leave it).
// A function that does not compile is still found: running it reports the error.
PuzzleImport matchPuzzleFunctions(const std::vector<SourceCell> &cells,
                                  const std::vector<Lesson> &lessons);

// readPuzzleSource then matchPuzzleFunctions.
core::Result<PuzzleImport> importPuzzleSource(std::string_view fileName, std::string_view content,
                                              const std::vector<Lesson> &lessons);

// importPuzzleSource of the file at `path`, read with core::readRegularFile's checks (a regular
// file of at most core::kMaxCodeFileBytes: a FIFO, device or link loop is an error, not a hang).
core::Result<PuzzleImport> importPuzzleFile(const std::string &path,
                                            const std::vector<Lesson> &lessons);

} // namespace rankstep::lessons
