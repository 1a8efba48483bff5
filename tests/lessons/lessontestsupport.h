// SPDX-License-Identifier: MIT
// Helpers shared by the lesson tests: the lessons on disk, lesson files built in memory, runs of
// a lesson's code, and rankstep-cli spawned as a separate process.
#pragma once

#include "tempdir.h"

#include "core/lessons/lesson.h"
#include "core/python/runtime.h"

#include <filesystem>
#include <string>
#include <vector>

namespace rankstep::lessontests {

// The source tree's lessons folder, read at test time so that folders added later are covered.
std::string lessonsRoot();
// "tests/lessons/golden/<id>.json" in the source tree.
std::filesystem::path goldenPath(const std::string &id);
// The whole text of a file; empty when it cannot be read.
std::string readText(const std::filesystem::path &path);

// The lesson folders on disk ("30-ddp", ...), sorted; empty when the folder cannot be read.
std::vector<std::string> lessonFolders();
// The files of one folder of `files`, keys kept as they are ("30-ddp/lesson.json", ...).
lessons::LessonFiles filesOfFolder(const lessons::LessonFiles &files, const std::string &folder);
// The name of a test case for a folder: the lesson's id when the folder loads, else the folder
// name, with anything GoogleTest does not allow in a name replaced by '_'.
std::string caseName(const std::string &folder);

// A well-formed lesson in memory: folder `folder`, function `function`, code that defines it.
lessons::LessonFiles validLesson(const std::string &folder, const std::string &function);
// The lesson.json of validLesson() with `replacement` in place of `field`'s "key": value text
// (for example {"ranks": 4} -> {"ranks": "four"}); `replacement` empty removes the member.
std::string lessonJsonWith(const std::string &function, const std::string &field,
                           const std::string &replacement);

// One Python runtime for the whole test process.
python::Runtime &runtime();
// Runs `source` as `fileName` with the lesson's function and settings, as rankstep-cli does.
core::Trace runLessonCode(const lessons::Lesson &lesson, const std::string &source,
                          const std::string &fileName);

using TempDir = testsupport::TempDir;
using CliResult = testsupport::ProcessResult;

// Runs the rankstep-cli executable with `args`; its stdout and stderr go through files in `dir`.
CliResult runCli(const std::vector<std::string> &args, const TempDir &dir);

} // namespace rankstep::lessontests
