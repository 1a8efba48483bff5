// SPDX-License-Identifier: MIT
// One puzzle function of one learner file, graded in a child process (rankstep-cli lesson) under
// a hard time limit, so a loop, a crash or os._exit costs that submission only.
#include "graderun.h"

#include "arguments.h"
#include "childprocess.h"
#include "runreport.h"

#include "core/io/tracebinary.h"
#include "core/terminaltext.h"

#include <atomic>
#include <iostream>
#include <sstream>

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

bool allDigits(std::string_view text)
{
    return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// " (line L, column C)" at the end of `message` becomes " (column C)". No regex: the learner's
// exception message may be hundreds of thousands of characters long.
void withoutLineNumber(std::string &message)
{
    const std::size_t open = message.rfind(" (line ");
    if (open == std::string::npos || message.back() != ')')
        return;
    const std::string_view place =
        std::string_view(message).substr(open + 7, message.size() - open - 8);
    const std::size_t comma = place.find(", column ");
    if (comma == std::string_view::npos || !allDigits(place.substr(0, comma)) ||
        !allDigits(place.substr(comma + 9)))
        return;
    message = message.substr(0, open) + " (column " + std::string(place.substr(comma + 9)) + ")";
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
        where += std::string(where.empty() ? "" : ", ") +
                 (function.cell > 0 && inFunction ? "cell " + std::to_string(function.cell) + ", "
                                                  : "") +
                 "line " + std::to_string(line);
    }
    std::string message = error.message.substr(0, error.message.find('\n'));
    // A syntax error names its place in the extracted code; the place in the file is said above.
    withoutLineNumber(message);
    return where.empty() ? message : where + ": " + message;
}

// What a stopped run says: the time limit (or operation budget) and where the code was.
std::string stoppedMessage(const core::Error &error, const lessons::ImportedFunction &function,
                           double timeout)
{
    const bool budget = error.message.find("operation budget") != std::string::npos;
    core::Error where = error;
    where.message =
        budget ? "stopped by the operation budget: still running (infinite loop?)"
               : "stopped after " + formatSeconds(timeout) + " s: still running (infinite loop?)";
    return located(where, function);
}

void fillFromTrace(GradeRow &row, const core::Trace &trace, const lessons::Lesson &lesson,
                   const lessons::ImportedFunction &function, double timeout)
{
    const lessons::Verdict verdict = lessons::judge(lesson, trace);
    row.solved = verdict.solved;
    // Figures of a run that did not finish are where it stopped, not results: "-" in error rows.
    if (trace.figures.hasEvents && verdict.finished) {
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
    if (!trace.error)
        return;
    core::Error error = *trace.error;
    // A hang's first line says only that no rank can go on; the line that names the rank which
    // skipped the collective says why (the roster counts it as that mistake).
    const std::string &message = error.message;
    const std::size_t skipped = message.find(" finished without calling ");
    if (row.status == "hung" && skipped != std::string::npos) {
        const std::size_t begin = message.rfind('\n', skipped) + 1;
        const std::size_t end = message.find('\n', skipped);
        std::string why = message.substr(begin, end == std::string::npos ? end : end - begin);
        why.erase(0, why.find_first_not_of(' '));
        error.message = message.substr(0, message.find('\n')) + " " + why + ".";
    }
    row.error = row.status == "stopped" ? stoppedMessage(error, function, timeout)
                                        : located(error, function);
}

// The first sentence of the runner's last "Error: ..." line, or "" when it wrote none.
std::string runnerSentence(const std::string &stderrText)
{
    const std::string marker = "Error: ";
    const std::size_t at = stderrText.rfind(marker);
    if (at == std::string::npos)
        return {};
    const std::size_t start = at + marker.size();
    std::string line = stderrText.substr(start, stderrText.find('\n', start) - start);
    const std::size_t end = line.find(". ");
    return end == std::string::npos ? line : line.substr(0, end + 1);
}

// What rankstep-cli said on a line of its own ("rankstep-cli: cannot write ..."), or "".
std::string cliSentence(const std::string &stderrText)
{
    const std::string marker = "rankstep-cli: ";
    const std::size_t at = stderrText.rfind(marker);
    if (at == std::string::npos)
        return {};
    const std::size_t start = at + marker.size();
    return stderrText.substr(start, stderrText.find('\n', start) - start);
}

// The child ended without a trace: killed at the hard limit, a crash, or the code ended it.
void fillWithoutTrace(GradeRow &row, const ChildOutcome &child, const GradeSettings &settings)
{
    using End = ChildOutcome::End;
    if (child.end == End::Exited && child.code == kCannotWrite) { // a full disk, not the code
        row.status = "crashed";
        row.error = "not graded: " + cliSentence(child.stderrText);
        return;
    }
    const std::string limit = formatSeconds(settings.timeout);
    if (child.end == End::TimedOut || child.end == End::Stopped ||
        (child.end == End::Exited && child.code == kStopped)) {
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
        row.error = "the code ended the process (exit code " + std::to_string(child.code) +
                    ") before the run finished";
    }
    // The runner says itself what happened to the process its run was in (os._exit, a crash).
    const std::string said = runnerSentence(child.stderrText);
    if (row.status == "crashed" && !said.empty())
        row.error = said;
}

// Passes the runner's word that the kernel refused part of the sandbox on, once per `grade`.
void passOnSandboxWarning(const std::string &stderrText)
{
    static std::atomic<bool> said{false}; // runs end on several threads
    const std::size_t at = stderrText.find("rankstep-cli: warning: this system's kernel refused");
    if (at == std::string::npos || said.exchange(true))
        return;
    // The learner's code may write this marker itself: what follows it is printed as text.
    std::cerr << core::terminalLine(stderrText.substr(at, stderrText.find('\n', at) - at)) << "\n";
}

} // namespace

GradeRow gradeFunction(const std::string &file, const lessons::ImportedFunction &function,
                       const lessons::Lesson &lesson, const GradeSettings &settings, int index)
{
    GradeRow row;
    row.file = file;
    row.lesson = lesson.id;
    row.function = function.function;
    const fs::path code = settings.scratch / (std::to_string(index) + "-" + lesson.id + ".py");
    const fs::path trace = settings.scratch / (std::to_string(index) + ".rstb");
    try {
        writeFile(code.string(), function.code);
    } catch (const OutputError &error) { // a full disk: said in the row (this is a worker thread)
        row.status = "crashed";
        row.error = "not graded: " + error.message;
        return row;
    }
    std::error_code gone;
    fs::remove(trace, gone); // only the trace this run's supervisor writes may be read below
    std::vector<std::string> args = {"lesson",      lesson.id,     code.string(),
                                     "--quiet",     "--timeout",   std::to_string(settings.timeout),
                                     "--trace-out", trace.string()};
    if (!settings.lessonsFolder.empty())
        args.insert(args.end(), {"--lessons", settings.lessonsFolder});
    // Runs go on side by side (gradecommand.cpp): each its own files.
    const ChildOutcome child = runChild(
        settings.program, args, settings.timeout + kGraceSeconds,
        (settings.scratch / (std::to_string(index) + "-stderr.txt")).string(), settings.stop);
    row.seconds = child.seconds;
    passOnSandboxWarning(child.stderrText);
    auto bytes = core::readRegularFile(trace.string(), core::kMaxTraceFileBytes);
    auto decoded = bytes ? io::traceFromBinary(*bytes) : core::Result<core::Trace>(bytes.error());
    if (decoded)
        fillFromTrace(row, *decoded, lesson, function, settings.timeout);
    else
        fillWithoutTrace(row, child, settings);
    return row;
}

} // namespace rankstep::cli
