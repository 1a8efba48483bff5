// SPDX-License-Identifier: MIT
#include "lessoncommand.h"

#include "core/lessons/builtin.h"
#include "core/memoryformat.h"
#include "core/terminaltext.h"
#include "figureexport.h"
#include "lessonvalidation.h"
#include "runreport.h"
#include "runsupport.h"
#include "supervisor.h"

#include <iostream>

namespace rankstep::cli {
namespace {

// "met" or "missed"; a run that did not finish is not judged against the target at all.
std::string compare(const std::string &what, const std::string &value, const std::string &target,
                    const lessons::Verdict &verdict, bool met, const std::string &notebook)
{
    const std::string judged = !verdict.finished ? "not judged: the run did not finish"
                               : met             ? "met"
                                                 : "missed";
    std::string text = what + ": " + value + ", target " + target + ": " + judged;
    if (!notebook.empty())
        text += " (the notebook's rounded target: " + notebook + ")";
    return text + "\n";
}

// The lesson's code again at each experiment's setting, run after the lesson's own run.
std::vector<RunnerJob> experimentJobs(const lessons::Lesson &lesson, const RunnerJob &lessonRun)
{
    std::vector<RunnerJob> jobs;
    for (const lessons::Experiment &experiment : lesson.experiments) {
        RunnerJob job = lessonRun;
        job.request.config.ranks = experiment.ranks;
        job.request.config.layers = experiment.layers;
        job.request.config.batches = experiment.batches;
        job.request.echoOutput = false;
        jobs.push_back(std::move(job));
    }
    return jobs;
}

// One line each, with the share of the ranks' time spent idle (the pipeline bubble).
void printExperiments(const lessons::Lesson &lesson, const std::vector<core::Trace> &traces)
{
    if (lesson.experiments.empty())
        return;
    std::cout << "Experiments (the same code at other settings):\n";
    for (std::size_t i = 0; i < lesson.experiments.size() && i + 1 < traces.size(); ++i) {
        const core::Trace &trace = traces[i + 1];
        std::cout << "  " << lesson.experiments[i].label << ": ";
        if (trace.status != core::RunStatus::Ok || !trace.figures.hasEvents) {
            std::cout << core::terminalText(trace.error ? trace.error->message
                                                        : std::string("no events"))
                      << "\n";
            continue;
        }
        std::cout << "Timesteps " << trace.figures.timesteps.toString() << ", Maximum Memory "
                  << core::formatMemoryExact(trace.figures.maxMemory) << ", idle "
                  << formatIdleShare(trace) << "\n";
    }
}

} // namespace

std::string formatIdleShare(const core::Trace &trace)
{
    const core::Figures &f = trace.figures;
    const std::int64_t total = f.endTime.ticks() * std::int64_t(f.ranks.size());
    if (total <= 0)
        return "0%";
    std::int64_t idle = 0;
    for (const core::RankFigures &rank : f.ranks)
        idle += rank.idle.ticks();
    const std::int64_t tenths = (idle * 1000 + total / 2) / total;
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "%";
}

lessons::LessonSet loadLessonSet(const std::string &folder)
{
    lessons::LessonSet set;
    if (folder.empty()) {
        set = lessons::loadLessonsSkippingBroken(lessons::builtinLessonFiles());
    } else {
        set = checkLessonFolder(folder);
    }
    if (set.lessons.empty()) {
        std::string text = "no lesson in " + (folder.empty() ? "Rankstep" : folder) + " loads:";
        for (const auto &p : set.problems)
            text += "\n  " + p;
        throw UsageError{text};
    }
    for (const auto &p : set.problems)
        std::cerr << "rankstep-cli: left out a broken lesson: " << p << "\n";
    return set;
}

std::string formatTargets(const lessons::Lesson &lesson, const core::Trace &trace)
{
    // The targets are the notebook's figures: under another cost model they say nothing.
    if (!lesson.targets || !trace.figures.hasEvents || !core::isNotebookCost(trace.config.cost))
        return {};
    const lessons::Verdict v = lessons::judge(lesson, trace);
    const auto &nb = lesson.notebookTargets;
    return compare("Timesteps", trace.figures.timesteps.toString(), lesson.targets->time.toString(),
                   v, v.timeMet, nb ? nb->time.toString() : "") +
           compare("Maximum Memory", core::formatMemoryExact(trace.figures.maxMemory),
                   core::formatMemoryExact(lesson.targets->memory), v, v.memoryMet,
                   nb ? core::formatMemoryExact(nb->memory) : "");
}

int lessonCommand(const std::vector<std::string> &rest)
{
    std::vector<std::string> valued = {"lessons"};
    valued.insert(valued.end(), kRunOptions.begin(), kRunOptions.end());
    std::vector<std::string> flags = {"solution", "starter"};
    flags.insert(flags.end(), kRunFlags.begin(), kRunFlags.end());
    const Arguments args(rest, valued, flags);
    const auto &positional = args.positional();
    const bool builtinCode = args.has("solution") || args.has("starter");
    if (positional.size() != (builtinCode ? 1U : 2U))
        throw UsageError{"lesson takes a lesson NAME and a FILE (or --solution or --starter)"};
    const std::vector<lessons::Lesson> all = loadLessonSet(args.text("lessons")).lessons;
    const lessons::Lesson *lesson = lessons::findLesson(all, positional[0]);
    if (!lesson) {
        std::string names;
        for (const auto &l : all)
            names += (names.empty() ? "" : ", ") + l.id;
        throw UsageError{"there is no lesson '" + positional[0] + "'; the lessons are: " + names};
    }
    RunSetup request;
    if (builtinCode) {
        const bool solution = args.has("solution");
        request.source = solution ? lesson->solution : lesson->starter;
        request.fileName = lesson->folder + (solution ? "/solution.py" : "/starter.py");
    } else {
        refuseOutputsOverInputs(args, {positional[1]});
        request.source = readFile(positional[1]);
        request.fileName = positional[1];
    }
    request.function = lesson->function;
    request.config = lesson->config;
    applyRunOptions(args, request);

    const RunnerJob lessonRun{request, false};
    std::vector<RunnerJob> jobs{lessonRun};
    for (RunnerJob &experiment : experimentJobs(*lesson, lessonRun))
        jobs.push_back(std::move(experiment));
    const SandboxedRuns runs = runSandboxed(jobs, request.memoryLimitMiB, outputPaths(args));
    if (runs.traces.empty())
        return runs.exitCode;
    const core::Trace &trace = runs.traces.front();
    writeTraceFiles(args, trace, request.fileName, request.function, runs.encoded.front());
    writeFigureFiles(args, trace,
                     {lesson->title + ": " + request.function + " (" + request.fileName + ")",
                      lesson->targets ? std::optional(lesson->targets->memory) : std::nullopt});
    std::cout << "Lesson: " << lesson->title << " (" << lesson->id << ")\n";
    printRun(trace);
    std::cout << formatTargets(*lesson, trace);
    printExperiments(*lesson, runs.traces);
    const lessons::Verdict verdict = lessons::judge(*lesson, trace);
    std::cout << core::terminalText(verdict.summary) << "\n";
    if (verdict.solved)
        return kSolved;
    const ExitCode code = exitCodeFor(trace);
    return code == kSolved ? kNotSolved : code;
}

int lessonsCommand(const std::vector<std::string> &rest)
{
    const Arguments args(rest, {"lessons"}, {});
    if (!args.positional().empty())
        throw UsageError{"lessons takes no arguments"};
    const lessons::LessonSet set = loadLessonSet(args.text("lessons"));
    // "1 rank", not "1 ranks"; a PyTorch lesson has no puzzle layers or batches (its model and
    // data are the reference's), so it says how many training steps it checks instead.
    const auto count = [](int n, const char *one, const char *many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    for (const lessons::Lesson &lesson : set.lessons) {
        std::cout << lesson.id << "\t" << lesson.title << "\t" << lesson.function << "\t"
                  << count(lesson.config.ranks, "rank", "ranks") << ", ";
        if (lesson.torch)
            std::cout << "PyTorch, " << count(lesson.torch->steps, "step", "steps")
                      << (lesson.torch->accumulation > 1
                              ? ", gradients accumulated over " +
                                    count(lesson.torch->accumulation, "micro-step", "micro-steps")
                              : std::string());
        else
            std::cout << count(lesson.config.layers, "layer", "layers") << ", "
                      << count(lesson.config.batches, "batch", "batches");
        if (lesson.targets)
            std::cout << "\ttarget " << lesson.targets->time.toString() << " steps, "
                      << lesson.targets->memory << " bytes";
        std::cout << "\n";
    }
    return set.problems.empty() ? kSolved
                                : kUsage; // listed what loads; an author must fix the rest
}

} // namespace rankstep::cli
