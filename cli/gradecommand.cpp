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

// The .py and .ipynb files under `folder`, hidden folders (.ipynb_checkpoints) skipped. Only
// error_code forms: a symbolic link loop must not throw. Whatever is not a folder is listed, and
// its row says why it cannot be read (a link loop, a FIFO).
std::vector<std::string> learnerFilesIn(const std::string &folder)
{
    std::vector<std::string> found;
    std::error_code error;
    auto it = fs::recursive_directory_iterator(
        folder, fs::directory_options::skip_permission_denied, error);
    if (error)
        throw UsageError{"cannot read the folder '" + folder + "': " + error.message()};
    for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
        const bool hidden = it->path().filename().string().rfind('.', 0) == 0;
        std::error_code kind;
        const bool isFolder = it->is_directory(kind);
        if (hidden && isFolder)
            it.disable_recursion_pending();
        else if (!hidden && !isFolder && isLearnerFile(it->path()))
            found.push_back(it->path().string());
    }
    if (error)
        throw UsageError{"cannot read the folder '" + folder + "': " + error.message()};
    return found;
}

// A learner file and whose it is.
struct LearnerFile {
    std::string file;
    std::string learner;
};

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
            readFile(path); // an unreadable PATH is a usage error (exit 64), before any grading
            files.push_back({path, fs::path(path).stem().string()});
            continue;
        }
        std::vector<std::string> found = learnerFilesIn(path);
        std::sort(found.begin(), found.end());
        for (const std::string &file : found) {
            const fs::path relative = fs::path(file).lexically_relative(path);
            const bool nested = std::distance(relative.begin(), relative.end()) > 1;
            files.push_back({file, nested ? relative.begin()->string() : relative.stem().string()});
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
