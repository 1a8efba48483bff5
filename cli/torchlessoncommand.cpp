// SPDX-License-Identifier: MIT
// `rankstep-cli lesson NAME FILE` for a PyTorch lesson (docs/torch-lessons.md): the learner's
// train(run) on one process per rank, and the verdict of a sandboxed process that never ran it.
#include "arguments.h"
#include "core/io/jsonparser.h"
#include "core/lessons/builtin.h"
#include "realcommand.h"
#include "realprocess.h"
#include "realrun.h"
#include "runcommand.h"
#include "runreport.h"
#include "runsupport.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace rankstep::cli {

namespace fs = std::filesystem;

namespace {

// "rank 0", "ranks 0 and 2", "ranks 0, 1 and 3".
std::string rankList(const std::vector<int> &ranks)
{
    std::string text = ranks.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < ranks.size(); ++i)
        text += (i == 0 ? "" : i + 1 == ranks.size() ? " and " : ", ") + std::to_string(ranks[i]);
    return text;
}

// What the timeout says. When some ranks entered ZeroRedundancyOptimizer.consolidate_state_dict
// (OUT/rank-R.entered) and the others returned from train(run) (OUT/rank-R.json) without calling
// it, the ZeRO lesson's mistake of calling it on rank 0 alone: a sentence of its own. Both files
// were written inside the learner's processes: hints that only choose the wording of a run that
// has failed anyway, never a verdict.
std::string timeoutSentence(const fs::path &out, int ranks, double timeout)
{
    std::ostringstream text;
    text << "Stopped after " << timeout << " s (--timeout): every rank process was ended.";
    std::vector<int> consolidating, returned;
    for (int rank = 0; rank < ranks; ++rank) {
        const std::string name = "rank-" + std::to_string(rank);
        const auto report = io::parseJson(readRankFile(out / (name + ".json"), 1 << 20));
        const io::JsonValue *status = report ? report->find("status") : nullptr;
        if (readRankFile(out / (name + ".entered"), 256) == "consolidate_state_dict\n")
            consolidating.push_back(rank);
        else if (status && status->text == "finished")
            returned.push_back(rank);
    }
    if (!consolidating.empty() && !returned.empty() &&
        int(consolidating.size() + returned.size()) == ranks) {
        const bool one = consolidating.size() == 1;
        std::string waiting = rankList(consolidating);
        waiting[0] = 'R'; // the sentence's first word
        text << " " << waiting << (one ? " was" : " were")
             << " waiting in optimizer.consolidate_state_dict(to=0) for " << rankList(returned)
             << ", which returned from train(run) without calling it. consolidate_state_dict is "
                "a collective: every rank calls it, so that each sends its shard of the state, "
                "and only then does rank 0 alone save it (if run.rank == 0: "
                "run.save_optimizer(optimizer)).\n";
        return text.str();
    }
    text << " A loop that never ends, or a rank waiting in a collective the others never "
            "reached, looks like this.\n";
    return text.str();
}

} // namespace

int torchLessonCommand(const lessons::Lesson &lesson, const std::string &source,
                       const std::string &sourceName, const TorchLessonOptions &options)
{
    const lessons::TorchSettings &torch = *lesson.torch;
    RealOptions o;
    o.ranks = lesson.config.ranks;
    o.timeout = options.timeout;
    o.masterAddr = "127.0.0.1";
    o.memory = realMemoryLimit(options.memory);
    const char *python = std::getenv("RANKSTEP_PYTHON");
    o.python = python && *python ? python : "/usr/bin/python3";
    catchStopSignals();
    const RunFolder folder;
    const fs::path &out = folder.ranks;
    if (!torchAvailable("lesson", o.python, folder.dir))
        return kUnavailable;
    const int steps = options.steps > 0 ? options.steps : torch.steps;
    const int embd = options.embd > 0 ? options.embd : torch.embd;
    std::cout << "Lesson: " << lesson.title << " (" << lesson.id << ")\n"
              << "Running " << o.ranks << (o.ranks == 1 ? " process" : " processes")
              << " for real: " << steps << " steps"
              << (torch.accumulation > 1
                      ? " of " + std::to_string(torch.accumulation) + " micro-batches"
                      : std::string())
              << ", n_embd " << embd << "...\n"
              << std::flush;

    writeFile((out / "learner.py").string(), source);
    const std::string refused = privateLoopback();
    if (!refused.empty())
        std::cerr << "rankstep-cli lesson: this system refused a network of the ranks' own ("
                  << refused << "): they run on the machine's network.\n";
    const std::vector<std::string> words{"--torch-lesson", torch.check,
                                         "--file",         (out / "learner.py").string(),
                                         "--source-name",  sourceName,
                                         "--function",     lesson.function,
                                         "--check",        torch.check,
                                         "--steps",        std::to_string(steps),
                                         "--accumulation", std::to_string(torch.accumulation),
                                         "--embd",         std::to_string(embd),
                                         "--timeout",      std::to_string(int(o.timeout) + 5),
                                         "--memory-limit", std::to_string(o.memory),
                                         "--out",          out.string()};
    // What the ranks send each other, counted by the kernel on their own loopback: how many
    // all-reduces DDP made, seen from outside the processes that ran the learner's code.
    const long long sentBefore = refused.empty() ? loopbackBytesSent() : -1;
    const Launched launched = launchRanks(o, words, out, freePort());
    const Ended ended = waitForRanks(launched, o.timeout);
    const std::string timedOut = ended.timedOut ? timeoutSentence(out, o.ranks, o.timeout) : "";
    if (const auto code = endOfRanks(ended, out, o.ranks, 1, timedOut))
        return *code;
    const long long sentAfter = sentBefore >= 0 ? loopbackBytesSent() : -1;
    // Each rank's peak memory as the kernel counted it: what activation checkpointing saves.
    std::ostringstream peaks;
    for (std::size_t i = 0; i < launched.pids.size(); ++i) {
        const auto peak = ended.peakKiB.find(launched.pids[i]);
        peaks << (i ? "," : "") << (peak == ended.peakKiB.end() ? 0L : peak->second);
    }
    // The verdict: rankstep_real.torchjudge trains the reference itself and compares the weights
    // each rank left; what only the ranks saw of themselves is shown as hints, never decides.
    const CheckOutcome verdict = runCheck(
        o, folder, "rankstep_real.torchjudge",
        {"--ranks", std::to_string(o.ranks), "--check", torch.check, "--steps",
         std::to_string(steps), "--accumulation", std::to_string(torch.accumulation), "--embd",
         std::to_string(embd), "--wall-seconds", std::to_string(ended.seconds), "--exchanged-bytes",
         std::to_string(sentAfter >= sentBefore && sentBefore >= 0 ? sentAfter - sentBefore : -1),
         "--peak-rss-kib", peaks.str()});
    if (!verdict.code) {
        std::cerr << "rankstep-cli lesson: the lesson's checks failed to run:\n" << verdict.failure;
        return kInternal;
    }
    std::cout << verdict.verdict;
    if (*verdict.code == kCheckRefused)
        return kLearnerError;
    if (!options.json.empty())
        writeFile(options.json, readRankFile((folder.check / "report.json").string()));
    return *verdict.code == 0 ? kSolved : kNotSolved;
}

std::optional<int> runTorchLessonIfOne(const std::vector<std::string> &args)
{
    if (args.empty() || args[0] != "lesson")
        return std::nullopt;
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    // The lesson's name decides; anything this cannot read is the ordinary command's to report.
    std::vector<std::string> valued = {"lessons", "steps", "embd"};
    valued.insert(valued.end(), kRunOptions.begin(), kRunOptions.end());
    std::vector<std::string> flags = {"solution", "starter"};
    flags.insert(flags.end(), kRunFlags.begin(), kRunFlags.end());
    std::optional<Arguments> parsed;
    try {
        parsed.emplace(rest, valued, flags);
    } catch (const UsageError &) {
        return std::nullopt;
    }
    const Arguments &a = *parsed;
    if (a.positional().empty())
        return std::nullopt;
    lessons::LessonSet set;
    if (a.text("lessons").empty()) {
        set = lessons::loadLessonsSkippingBroken(lessons::builtinLessonFiles());
    } else {
        auto files = lessons::readLessonFolder(a.text("lessons"));
        if (!files)
            return std::nullopt;
        set = lessons::loadLessonsSkippingBroken(*files);
    }
    const lessons::Lesson *lesson = lessons::findLesson(set.lessons, a.positional()[0]);
    if (!lesson || !lesson->isTorch())
        return std::nullopt;
    return reportingErrors([&] {
        for (const std::string &puzzleOnly : kRunOptions)
            if (a.has(puzzleOnly) && puzzleOnly != "json" && puzzleOnly != "timeout" &&
                puzzleOnly != "memory-limit")
                throw UsageError{"lesson: --" + puzzleOnly + " is for simulated lessons; " +
                                 lesson->id +
                                 " runs real PyTorch (its options: --json, --timeout, --steps, "
                                 "--embd, --memory-limit)"};
        const bool builtinCode = a.has("solution") || a.has("starter");
        if (a.positional().size() != (builtinCode ? 1U : 2U))
            throw UsageError{"lesson takes a lesson NAME and a FILE (or --solution or --starter)"};
        std::string source, name;
        if (builtinCode) {
            const bool solution = a.has("solution");
            source = solution ? lesson->solution : lesson->starter;
            name = lesson->folder + (solution ? "/solution.py" : "/starter.py");
        } else {
            source = readFile(a.positional()[1]);
            name = fs::absolute(a.positional()[1]).string();
        }
        TorchLessonOptions options;
        options.json = a.text("json");
        options.timeout = a.seconds("timeout", options.timeout);
        options.steps = int(a.integer("steps", 0, 1, 100000));
        options.embd = int(a.integer("embd", 0, 1, 8192));
        options.memory = a.integer("memory-limit", options.memory, 0, 1LL << 30);
        return torchLessonCommand(*lesson, source, name, options);
    });
}

} // namespace rankstep::cli
