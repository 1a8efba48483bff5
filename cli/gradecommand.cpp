// SPDX-License-Identifier: MIT
// rankstep-cli grade: every puzzle function of every learner file, each run in a child process
// (rankstep-cli lesson) under a hard time limit, so a loop, a crash or os._exit in one submission
// costs that submission only.
#include "gradecommand.h"

#include "arguments.h"
#include "childprocess.h"
#include "graderun.h"
#include "lessoncommand.h"
#include "runreport.h"
#include "scratchfolder.h"
#include "stopsignals.h"

#include "core/lessons/puzzleimport.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <thread>

namespace rankstep::cli {
namespace {

namespace fs = std::filesystem;

bool isLearnerFile(const fs::path &path)
{
    return path.extension() == ".py" || path.extension() == ".ipynb";
}

// A learner file or folder found under a PATH; `refusal` says why it is not read, if so.
struct Found {
    std::string path;
    std::string refusal;
    bool folder = false; // a folder that could not be read
};

// "permission denied": the OS's reason in the words readRegularFile uses for files.
std::string reason(const std::error_code &error)
{
    std::string text = error.message();
    if (!text.empty())
        text[0] = char(std::tolower(static_cast<unsigned char>(text[0])));
    return text;
}

// Whether `path` (canonical) lies in `root` (canonical) or is it.
bool isInside(const fs::path &path, const fs::path &root)
{
    const fs::path relative = path.lexically_relative(root);
    return !relative.empty() && *relative.begin() != "..";
}

// What a symbolic link found in the class folder `root` is: a learner file read like any other
// when it leads to one inside the folder, refused when it leads out of it (a submission must not
// be the teacher's solution or /etc/shadow), passed over when it is a folder inside (the folder
// is searched itself) or leads nowhere that could be a submission.
void addLink(const fs::directory_entry &entry, const fs::path &root, std::vector<Found> &found)
{
    std::error_code error;
    const fs::path target = fs::canonical(entry.path(), error);
    if (error) { // a loop or a link to nothing: its row says so when it could be a submission
        if (isLearnerFile(entry.path()))
            found.push_back({entry.path().string(), {}});
        return;
    }
    const bool folder = fs::is_directory(target, error);
    if (!isInside(target, root) && (folder || isLearnerFile(entry.path())))
        found.push_back({entry.path().string(),
                         std::string("it is a symbolic link to a ") + (folder ? "folder" : "file") +
                             " outside the folder being graded, so it was not read"});
    else if (!folder && isLearnerFile(entry.path()))
        found.push_back({entry.path().string(), {}});
}

// The .py and .ipynb files under `folder`, hidden folders (.ipynb_checkpoints) skipped, folders
// that cannot be read listed with the reason (their learner stays in the roster). Only error_code
// forms: nothing a learner put there may throw. Whatever is not a folder is listed, and its row
// says why it cannot be read (a link loop, a FIFO).
std::vector<Found> learnerFilesIn(const std::string &folder)
{
    std::error_code error;
    const fs::path root = fs::canonical(folder, error);
    if (error)
        throw UsageError{"cannot read the folder '" + folder + "': " + error.message()};
    std::vector<Found> found;
    std::vector<fs::path> pending{folder};
    while (!pending.empty()) {
        const fs::path current = pending.back();
        pending.pop_back();
        fs::directory_iterator it(current, error);
        for (; !error && it != fs::directory_iterator(); it.increment(error)) {
            if (it->path().filename().string().rfind('.', 0) == 0)
                continue; // hidden: .ipynb_checkpoints, .git
            std::error_code kind;
            if (it->is_symlink(kind))
                addLink(*it, root, found);
            else if (it->is_directory(kind))
                pending.push_back(it->path());
            else if (isLearnerFile(it->path()))
                found.push_back({it->path().string(), {}});
        }
        if (error && current == fs::path(folder))
            throw UsageError{"cannot read the folder '" + folder + "': " + error.message()};
        if (error)
            found.push_back({current.string(),
                             "cannot read the folder '" + current.string() + "': " + reason(error),
                             true});
    }
    std::sort(found.begin(), found.end(),
              [](const Found &a, const Found &b) { return a.path < b.path; });
    return found;
}

// A learner file and whose it is; `refusal` says why it is not read, if so.
struct LearnerFile {
    std::string file;
    std::string learner;
    std::string refusal;
};

// A named file that is a symbolic link may not lead out of the folder it sits in either (the
// shell's class/*/ddp.py names each learner's link itself).
std::string linkRefusal(const std::string &path)
{
    std::error_code error;
    if (!fs::is_symlink(fs::symlink_status(path, error)))
        return {};
    const fs::path target = fs::canonical(path, error);
    const fs::path folder = fs::canonical(fs::absolute(path, error).parent_path(), error);
    if (error || isInside(target, folder))
        return {};
    return "it is a symbolic link to a file outside its folder, so it was not read";
}

// The learner files named by PATH...: files as given, folders searched (hidden folders such as
// .ipynb_checkpoints skipped), each folder's files sorted. A file's learner is the folder below
// PATH it sits in (class/ana/ddp.py: ana), or its own name without the ending when it sits in PATH
// itself or was named (class/bob.py: bob).
std::vector<LearnerFile> learnerFiles(const std::vector<std::string> &paths)
{
    std::vector<LearnerFile> files;
    for (const std::string &path : paths) {
        std::error_code error;
        if (!fs::exists(fs::symlink_status(path, error)))
            throw UsageError{"cannot read '" + path + "': no such file or folder"};
        if (!fs::is_directory(path, error)) {
            std::string refusal = linkRefusal(path);
            if (refusal.empty())
                readFile(path); // an unreadable PATH is a usage error (exit 64), before any grading
            files.push_back({path, fs::path(path).stem().string(), std::move(refusal)});
            continue;
        }
        for (Found &found : learnerFilesIn(path)) {
            const fs::path relative = fs::path(found.path).lexically_relative(path);
            const bool nested = std::distance(relative.begin(), relative.end()) > 1;
            std::string learner =
                nested || found.folder ? relative.begin()->string() : relative.stem().string();
            files.push_back({found.path, std::move(learner), std::move(found.refusal)});
        }
    }
    return files;
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

// The row of a puzzle function whose cell or file Python refuses as a whole, as running it says.
GradeRow refusedRow(const LearnerFile &learnerFile, const lessons::ImportedFunction &function,
                    const lessons::SourceProblem &problem)
{
    GradeRow row =
        fileRow(learnerFile.file, "error",
                (function.cell > 0 ? "cell " + std::to_string(function.cell) + ", " : "") +
                    "line " + std::to_string(problem.line) + ": SyntaxError: " + problem.message);
    row.learner = learnerFile.learner;
    row.lesson = function.lessonId;
    row.function = function.function;
    return row;
}

// One puzzle function to grade, and the row its result goes to.
struct GradeJob {
    std::size_t row = 0;
    std::string learner;
    std::string file;
    lessons::ImportedFunction function;
    const lessons::Lesson *lesson = nullptr;
    int index = 0;
};

// The rows of one file: a row for a file with nothing to grade, else a placeholder per puzzle
// function and its job.
void planFile(const LearnerFile &learnerFile, const std::vector<lessons::Lesson> &all,
              std::vector<GradeRow> &rows, std::vector<GradeJob> &jobs)
{
    const std::string &file = learnerFile.file;
    if (!learnerFile.refusal.empty()) {
        rows.push_back(fileRow(file, "unreadable", learnerFile.refusal));
        rows.back().learner = learnerFile.learner;
        return;
    }
    // A file of a folder that cannot be read (a FIFO, a link loop): the others are still graded.
    auto imported = lessons::importPuzzleFile(file, all);
    if (!imported) {
        rows.push_back(fileRow(file, "unreadable", imported.error().message));
        rows.back().learner = learnerFile.learner;
        return;
    }
    if (imported->found.empty()) {
        std::string defines;
        for (const std::string &name : imported->unmatchedFunctions)
            defines += (defines.empty() ? " (it defines " : ", ") + name;
        rows.push_back(
            fileRow(file, "no puzzle",
                    "no puzzle function found" + defines + (defines.empty() ? "" : ")")));
        rows.back().learner = learnerFile.learner;
        return;
    }
    for (lessons::ImportedFunction &function : imported->found) {
        const lessons::Lesson *lesson = lessons::findLesson(all, function.lessonId);
        if (function.problem) { // Python refuses its cell or file: nothing in it runs
            rows.push_back(refusedRow(learnerFile, function, *function.problem));
            continue;
        }
        jobs.push_back({rows.size(), learnerFile.learner, file, std::move(function), lesson,
                        int(jobs.size()) + 1});
        rows.emplace_back();
    }
}

// Runs the jobs `workers` at a time (each a child process of its own), every row in its place.
void gradeInParallel(std::vector<GradeJob> &jobs, std::vector<GradeRow> &rows,
                     const GradeSettings &settings, int workers)
{
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w)
        threads.emplace_back([&] {
            for (std::size_t i = next++; i < jobs.size() && !StopSignals::requested(); i = next++) {
                const GradeJob &job = jobs[i];
                rows[job.row] =
                    gradeFunction(job.file, job.function, *job.lesson, settings, job.index);
                rows[job.row].learner = job.learner;
            }
        });
    for (std::thread &thread : threads)
        thread.join();
}

} // namespace

int gradeCommand(const std::vector<std::string> &rest)
{
    const Arguments args(rest, {"timeout", "lessons", "jobs"}, {"json", "csv", "roster"});
    if (args.has("json") && args.has("csv"))
        throw UsageError{"grade prints one format: --json or --csv"};
    if (args.positional().empty())
        throw UsageError{"grade takes one or more learner files or folders"};
    GradeSettings settings;
    settings.timeout = args.seconds("timeout", 30);
    if (settings.timeout <= 0)
        throw UsageError{"grade needs a time limit: --timeout must be more than 0"};
    settings.lessonsFolder = args.text("lessons");
    settings.program = currentExecutable();
    const std::vector<lessons::Lesson> all = loadLessonSet(settings.lessonsFolder).lessons;
    const std::vector<LearnerFile> files = learnerFiles(args.positional());

    const ScratchFolder scratch("rankstep-grade");
    settings.scratch = scratch.path;
    // Ctrl+C (or the app's Esc) ends the runs under way and grades nothing more.
    const StopSignals signals;
    settings.stop = &StopSignals::flag();
    std::vector<GradeRow> rows;
    std::vector<GradeJob> jobs;
    for (const LearnerFile &file : files)
        planFile(file, all, rows, jobs);
    // Every core by default: each run is a process of its own (docs/command-line.md, "Grading a
    // class"), so nothing the runs share makes parallel runs unsafe.
    const int cores = int(std::max(1U, std::thread::hardware_concurrency()));
    const int workers = int(args.integer("jobs", cores, 1, 64));
    gradeInParallel(jobs, rows, settings, std::max(1, std::min(workers, int(jobs.size()))));
    if (StopSignals::requested()) {
        std::cerr << "Stopped: grading " << jobs.size()
                  << (jobs.size() == 1 ? " function" : " functions") << " was stopped.\n";
        return kStopped;
    }
    if (args.has("roster")) {
        std::vector<std::string> order;
        for (const lessons::Lesson &lesson : all)
            order.push_back(lesson.id);
        const Roster roster = makeRoster(rows, order);
        std::cout << (args.has("json")  ? formatRosterJson(roster)
                      : args.has("csv") ? formatRosterCsv(roster)
                                        : formatRosterTable(roster));
        return kSolved;
    }
    std::cout << (args.has("json")  ? formatGradeJson(rows)
                  : args.has("csv") ? formatGradeCsv(rows)
                                    : formatGradeTable(rows));
    return kSolved;
}

} // namespace rankstep::cli
