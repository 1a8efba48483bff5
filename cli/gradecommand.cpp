// SPDX-License-Identifier: MIT
// rankstep-cli grade: every puzzle function of every learner file, each run in a child process
// (rankstep-cli lesson) under a hard time limit, so a loop, a crash or os._exit in one submission
// costs that submission only.
#include "gradecommand.h"

#include "arguments.h"
#include "childprocess.h"
#include "gradereport.h"
#include "lessoncommand.h"
#include "runreport.h"

#include "core/io/tracebinary.h"
#include "core/lessons/puzzleimport.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>

#include <unistd.h>

namespace rankstep::cli {
namespace {

namespace fs = std::filesystem;

// Seconds a child gets beyond --timeout to start Python and write its trace before it is killed.
constexpr double kGraceSeconds = 5;

// "5", "2.5": seconds as a person writes them.
std::string formatSeconds(double seconds)
{
    std::ostringstream text;
    text << seconds;
    return text.str();
}

bool isLearnerFile(const fs::path &path)
{
    return path.extension() == ".py" || path.extension() == ".ipynb";
}

// The learner files named by PATH...: files as given, folders searched (hidden folders such as
// .ipynb_checkpoints skipped), each folder's files sorted.
std::vector<std::string> learnerFiles(const std::vector<std::string> &paths)
{
    std::vector<std::string> files;
    for (const std::string &path : paths) {
        std::error_code error;
        if (fs::is_regular_file(path, error)) {
            readFile(path); // an unreadable PATH is a usage error (exit 64), before any grading
            files.push_back(path);
            continue;
        }
        if (!fs::is_directory(path, error))
            throw UsageError{"cannot read '" + path + "': no such file or folder"};
        std::vector<std::string> found;
        auto it = fs::recursive_directory_iterator(path, error);
        if (error)
            throw UsageError{"cannot read the folder '" + path + "': " + error.message()};
        for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
            const bool hidden = it->path().filename().string().rfind('.', 0) == 0;
            if (hidden && it->is_directory())
                it.disable_recursion_pending();
            else if (!hidden && it->is_regular_file() && isLearnerFile(it->path()))
                found.push_back(it->path().string());
        }
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    return files;
}

// "rank 2, cell 14, line 7: ..." with the line moved from the extracted code back to the file.
std::string located(const core::Error &error, const lessons::ImportedFunction &function)
{
    std::string where;
    if (error.rank >= 0)
        where = "rank " + std::to_string(error.rank);
    if (error.line > 0) {
        const int line = error.line >= function.codeLine
            ? error.line - function.codeLine + function.line
            : error.line;
        const bool inFunction = error.line >= function.codeLine;
        where += std::string(where.empty() ? "" : ", ")
            + (function.cell > 0 && inFunction ? "cell " + std::to_string(function.cell) + ", " : "")
            + "line " + std::to_string(line);
    }
    std::string message = error.message.substr(0, error.message.find('\n'));
    // A syntax error names its place in the extracted code; the place in the file is said above.
    static const std::regex place(R"( \(line \d+, column (\d+)\)$)");
    message = std::regex_replace(message, place, " (column $1)");
    return where.empty() ? message : where + ": " + message;
}

// What a stopped run says: the time limit (or operation budget) and where the code was.
std::string stoppedMessage(const core::Error &error, const lessons::ImportedFunction &function,
                           double timeout)
{
    const bool budget = error.message.find("operation budget") != std::string::npos;
    core::Error where = error;
    where.message = budget ? "stopped by the operation budget: still running (infinite loop?)"
                           : "stopped after " + formatSeconds(timeout)
                               + " s: still running (infinite loop?)";
    return located(where, function);
}

void fillFromTrace(GradeRow &row, const core::Trace &trace, const lessons::Lesson &lesson,
                   const lessons::ImportedFunction &function, double timeout)
{
    const lessons::Verdict verdict = lessons::judge(lesson, trace);
    row.solved = verdict.solved;
    if (trace.figures.hasEvents) {
        row.time = trace.figures.timesteps;
        row.memory = trace.figures.maxMemory;
    }
    if (lesson.targets) {
        row.timeTarget = lesson.targets->time;
        row.memoryTarget = lesson.targets->memory;
    }
    switch (trace.status) {
    case core::RunStatus::Ok:
        row.status = verdict.solved ? "solved" : "not solved";
        if (!verdict.solved)
            row.error = verdict.summary.substr(0, verdict.summary.find('\n'));
        return;
    case core::RunStatus::Stopped:
        row.status = "stopped";
        break;
    case core::RunStatus::Deadlock:
        row.status = "hung";
        break;
    case core::RunStatus::Error:
        row.status = "error";
    }
    if (trace.error)
        row.error = row.status == "stopped" ? stoppedMessage(*trace.error, function, timeout)
                                            : located(*trace.error, function);
}

// The code and trace files of the runs, removed when grading ends.
struct ScratchFolder
{
    ScratchFolder()
    {
        std::string pattern = (fs::temp_directory_path() / "rankstep-grade-XXXXXX").string();
        if (!mkdtemp(pattern.data()))
            throw UsageError{"cannot make a temporary folder in "
                             + fs::temp_directory_path().string()};
        path = pattern;
    }
    ScratchFolder(const ScratchFolder &) = delete;
    ScratchFolder &operator=(const ScratchFolder &) = delete;
    ~ScratchFolder()
    {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
    fs::path path;
};

struct GradeSettings
{
    std::string program;
    std::string lessonsFolder;
    double timeout = 30;
    fs::path scratch;
};

// The child ended without a trace: killed at the hard limit, a crash, or the code ended it.
void fillWithoutTrace(GradeRow &row, const ChildOutcome &child, const GradeSettings &settings)
{
    using End = ChildOutcome::End;
    const std::string limit = formatSeconds(settings.timeout);
    if (child.end == End::TimedOut || (child.end == End::Exited && child.code == kStopped)) {
        row.status = "stopped";
        row.error = "stopped after " + limit + " s: still running (infinite loop?)";
    } else if (child.end == End::Signaled) {
        row.status = "crashed";
        row.error = "the run crashed (signal " + std::to_string(child.code) + ")";
    } else if (child.end == End::NotStarted) {
        row.status = "crashed";
        row.error = "cannot start " + settings.program;
    } else {
        row.status = "crashed";
        row.error = "the code ended the process (exit code " + std::to_string(child.code)
            + ") before the run finished";
    }
}

// A row for a file that has nothing to run.
GradeRow fileRow(const std::string &file, const std::string &status, const std::string &error)
{
    GradeRow row;
    row.file = file;
    row.status = status;
    row.error = error;
    return row;
}

GradeRow gradeFunction(const std::string &file, const lessons::ImportedFunction &function,
                       const lessons::Lesson &lesson, const GradeSettings &settings, int index)
{
    GradeRow row;
    row.file = file;
    row.lesson = lesson.id;
    row.function = function.function;
    const fs::path code = settings.scratch / (std::to_string(index) + "-" + lesson.id + ".py");
    const fs::path trace = settings.scratch / (std::to_string(index) + ".rstb");
    writeFile(code.string(), function.code);
    std::vector<std::string> args = {"lesson", lesson.id, code.string(), "--quiet",
                                     "--timeout", std::to_string(settings.timeout),
                                     "--trace-out", trace.string()};
    if (!settings.lessonsFolder.empty())
        args.insert(args.end(), {"--lessons", settings.lessonsFolder});
    const ChildOutcome child = runChild(settings.program, args, settings.timeout + kGraceSeconds,
                                        (settings.scratch / "stderr.txt").string());
    row.seconds = child.seconds;
    std::error_code error;
    auto decoded = fs::exists(trace, error) ? io::traceFromBinary(readFile(trace.string()))
                                            : core::Result<core::Trace>(core::Error{});
    if (decoded)
        fillFromTrace(row, *decoded, lesson, function, settings.timeout);
    else
        fillWithoutTrace(row, child, settings);
    return row;
}

std::vector<GradeRow> gradeFile(const std::string &file,
                                const std::vector<lessons::Lesson> &all,
                                const GradeSettings &settings, int &index)
{
    std::string content;
    try {
        content = readFile(file);
    } catch (const UsageError &e) { // a file of a folder: the others are still graded
        return {fileRow(file, "unreadable", e.message)};
    }
    auto imported = lessons::importPuzzleSource(file, content, all);
    if (!imported)
        return {fileRow(file, "unreadable", imported.error().message)};
    if (imported->found.empty()) {
        std::string defines;
        for (const std::string &name : imported->unmatchedFunctions)
            defines += (defines.empty() ? " (it defines " : ", ") + name;
        return {fileRow(file, "no puzzle",
                        "no puzzle function found" + defines + (defines.empty() ? "" : ")"))};
    }
    std::vector<GradeRow> rows;
    for (const lessons::ImportedFunction &function : imported->found)
        rows.push_back(gradeFunction(file, function, *lessons::findLesson(all, function.lessonId),
                                     settings, ++index));
    return rows;
}

} // namespace

int gradeCommand(const std::vector<std::string> &rest)
{
    const Arguments args(rest, {"timeout", "lessons"}, {"json"});
    if (args.positional().empty())
        throw UsageError{"grade takes one or more learner files or folders"};
    GradeSettings settings;
    settings.timeout = args.seconds("timeout", 30);
    if (settings.timeout <= 0)
        throw UsageError{"grade needs a time limit: --timeout must be more than 0"};
    settings.lessonsFolder = args.text("lessons");
    settings.program = currentExecutable();
    const std::vector<lessons::Lesson> all = loadLessonSet(settings.lessonsFolder);
    const std::vector<std::string> files = learnerFiles(args.positional());

    const ScratchFolder scratch;
    settings.scratch = scratch.path;
    std::vector<GradeRow> rows;
    int index = 0;
    for (const std::string &file : files) {
        std::vector<GradeRow> more = gradeFile(file, all, settings, index);
        rows.insert(rows.end(), more.begin(), more.end());
    }
    std::cout << (args.has("json") ? formatGradeJson(rows) : formatGradeTable(rows));
    return kSolved;
}

} // namespace rankstep::cli
