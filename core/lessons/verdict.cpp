// SPDX-License-Identifier: MIT
#include "lesson.h"

#include "core/memoryformat.h"
#include "core/sentences.h"
#include "core/stoppedrank.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace rankstep::lessons {
namespace {

// The ranks of a cycle of waits in a deadlock, in the order they wait (each waits on the next, the
// last on the first), found from rank 0 as the hang's picture finds it; empty when the waits form
// none. The ranks of the cycle hold the hang; a rank that waits on them only follows.
std::vector<int> cycleOfWaits(const core::Diagnosis &diagnosis)
{
    std::map<int, const core::RankWait *> waiting;
    for (const core::RankWait &wait : diagnosis.ranks)
        if (!wait.finished)
            waiting[wait.rank] = &wait;
    // Depth first without recursion (a hang may hold thousands of ranks): each entry of the path
    // is a rank and how many of its waits were followed.
    std::map<int, int> state; // 0 unseen, 1 on the path, 2 done
    std::vector<std::pair<int, std::size_t>> path;
    for (const auto &[start, unused] : waiting) {
        if (state[start] != 0)
            continue;
        state[start] = 1;
        path.assign(1, {start, 0});
        while (!path.empty()) {
            auto &[rank, next] = path.back();
            const std::vector<int> &on = waiting.at(rank)->waitsOn;
            if (next == on.size()) {
                state[rank] = 2;
                path.pop_back();
                continue;
            }
            const int other = on[next++];
            if (other == rank || !waiting.contains(other))
                continue;
            if (state[other] == 1) {
                std::vector<int> cycle;
                for (auto at = path.rbegin(); at != path.rend(); ++at) {
                    cycle.insert(cycle.begin(), at->first);
                    if (at->first == other)
                        break;
                }
                return cycle;
            }
            if (state[other] == 0) {
                state[other] = 1;
                path.emplace_back(other, 0);
            }
        }
    }
    return {};
}

// "2 and 3", "0, 1, 2 and 3".
std::string numbersAnd(const std::vector<int> &numbers)
{
    std::string text;
    for (std::size_t i = 0; i < numbers.size(); ++i)
        text += (i == 0                    ? ""
                 : i + 1 == numbers.size() ? " and "
                                           : ", ") +
                std::to_string(numbers[i]);
    return text;
}

// "rank 2 waits in receive from rank 3 at line 34 for rank 3" without its last part, which the
// cycle already says: "rank 2 waits in receive from rank 3 at line 34" (sentence::kWaitsIn).
std::string withoutWhom(std::string line)
{
    const auto whom = line.rfind(" for rank");
    if (whom != std::string::npos)
        line.erase(whom);
    return line;
}

// The one line of an error that says what is missing: for a hang the finished rank that never
// called the collective, else the cycle of waits (`cycle`), all its ranks named and each one's wait
// when they are few, or the first rank that waits; else the first line. A rank's own error
// (`ownError`) is its first line, even where others waited for the rank it stopped: that error is
// why. Where it happened goes to `at` when the line itself does not say.
std::string errorGist(const core::Error &error, const std::vector<int> &cycle, bool ownError,
                      Verdict::Place &at)
{
    std::vector<std::string> lines;
    std::string::size_type begin = 0;
    while (begin <= error.message.size()) {
        const auto end = std::min(error.message.find('\n', begin), error.message.size());
        std::string line = error.message.substr(begin, end - begin);
        line.erase(0, line.find_first_not_of(' '));
        if (!line.empty())
            lines.push_back(std::move(line));
        begin = end + 1;
    }
    if (lines.empty())
        return {};
    for (const std::string &line : lines)
        if (!ownError && line.find("without calling") != std::string::npos)
            return line;
    const auto waitOf = [&lines](int rank) -> const std::string * {
        for (const std::string &line : lines)
            if (line.starts_with("rank " + std::to_string(rank) + " waits "))
                return &line;
        return nullptr;
    };
    if (error.kind == core::ErrorKind::Deadlock && !cycle.empty() && waitOf(cycle[0])) {
        // No rank of a cycle is to blame alone: the gist names them all, as the hang's picture
        // does, then what each waits in.
        constexpr std::size_t kMostNamed = 4;
        if (cycle.size() > kMostNamed)
            return core::say(
                core::sentence::kLongCycleOfWaits,
                {std::to_string(cycle.size()), numbersAnd({cycle[0], cycle[1], cycle[2]}),
                 withoutWhom(*waitOf(cycle[0]))});
        std::string waits;
        for (const int rank : cycle) {
            const std::string *wait = waitOf(rank);
            if (!wait)
                break;
            waits = waits.empty()
                        ? withoutWhom(*wait)
                        : core::say(core::sentence::kCheckProblems, {waits, withoutWhom(*wait)});
        }
        return core::say(core::sentence::kCycleOfWaits,
                         {core::say(core::sentence::kManyRanks, {numbersAnd(cycle)}), waits});
    }
    if (error.kind == core::ErrorKind::Deadlock && lines.size() > 1)
        return lines[1];
    // A mismatch names its ranks, a stop says where the rank was.
    if (error.kind != core::ErrorKind::Mismatch && error.kind != core::ErrorKind::Stopped &&
        error.rank >= 0 && error.line > 0)
        at = {error.rank, error.line};
    return lines.front();
}

std::string unfinishedGist(const core::Trace &trace, Verdict::Place &at)
{
    const std::vector<int> cycle =
        trace.diagnosis ? cycleOfWaits(*trace.diagnosis) : std::vector<int>();
    std::string gist = trace.error
                           ? errorGist(*trace.error, cycle, core::endedOnARanksOwnError(trace), at)
                           : std::string();
    while (!gist.empty() && (gist.back() == '.' || gist.back() == ' '))
        gist.pop_back();
    return gist;
}

std::string unfinishedSummary(const core::Trace &trace, const Verdict &v)
{
    std::string summary = "Not solved yet: the run did not finish (" +
                          std::string(core::runStatusName(trace.status)) + ")";
    if (!v.detail.empty())
        summary += ": " +
                   (v.detailAt.rank >= 0 ? "rank " + std::to_string(v.detailAt.rank) + ", line " +
                                               std::to_string(v.detailAt.line) + ": "
                                         : std::string()) +
                   v.detail;
    // After a rank's own error, who waited for the rank it stopped.
    if (const std::string waiting = core::waitingOnTheStoppedRank(trace); !waiting.empty())
        summary += "; " + waiting;
    return summary + (summary.back() == '?' ? "" : ".");
}

// A lesson about training is solved by gradients the run computed: the first layer whose weight
// gradients no backward computed for every batch (fake_grad, or a WeightGrad made by hand, holds
// batches no backward saw), in words; "" when every layer's were computed. Judged from the
// trace's events alone, outside the process that ran the code.
std::string uncomputedGradients(const core::Trace &trace)
{
    const int layers = trace.config.layers;
    std::vector<core::IndexSet> computed(std::size_t(std::max(layers, 0)));
    for (const core::Event &event : trace.events)
        // A whole backward or its weight half computes the weight's gradient; the input half
        // does not.
        if ((event.op == core::OpKind::Backward || event.op == core::OpKind::BackwardWeight) &&
            event.layer >= 0 && event.layer < layers)
            computed[std::size_t(event.layer)] |= event.batches;
    const core::IndexSet all = core::IndexSet::range(0, trace.config.batches);
    for (int layer = 0; layer < layers; ++layer) {
        const core::IndexSet missing = all.minus(computed[std::size_t(layer)]);
        if (missing.size() == 0)
            continue;
        return "layer " + std::to_string(layer) + "'s weight gradients were not computed by a " +
               "backward for " + core::describeSet(missing, "batch", "batches") +
               " (fake_grad, or a WeightGrad made by hand, stands for a gradient without " +
               "computing it: this lesson checks training)";
    }
    return {};
}

// Whether a gradient event (a rank's backward, its part of a collective, a message it received)
// holds what an update of `update`'s shards needs: the whole layer, or those very shards.
bool coversShards(const core::Event &source, const core::Event &update)
{
    if (source.shards.isPrefix(source.shardTotal))
        return true;
    return source.shardTotal == update.shardTotal && update.shards.isSubsetOf(source.shards);
}

// A rank updates with the gradients it computed or was sent: the first update whose batches
// no backward of its rank computed and no collective or message of its rank brought before it,
// in words; "" when there is none. Without it, each data-parallel rank could compute its own
// batch's backward (so that the backwards cover every batch) and update with fake_grad over every
// batch in place of the all-reduce. Judged from the trace's events alone.
std::string unreachedGradients(const core::Trace &trace)
{
    const int layers = trace.config.layers;
    if (layers <= 0 || trace.config.ranks <= 0)
        return {};
    // A collective of weight gradients brings each member the batches every member brought to
    // it. A message or a collective of anything else (an activation, its gradient, a weight)
    // brings no weight gradient, whatever its batches.
    std::map<std::int64_t, core::IndexSet> collectiveBatches;
    const auto everyEvent = [&](auto &&visit) {
        for (const core::Event &event : trace.events)
            visit(event);
        for (const core::Event &event : trace.overlapped)
            visit(event);
    };
    everyEvent([&](const core::Event &event) {
        if (core::isCollective(event.op) && event.link >= 0 && event.gradient)
            collectiveBatches[event.link] |= event.batches;
    });
    // Per rank and layer, what each source gave and when it ended.
    struct Source {
        const core::Event *event;
        core::IndexSet batches;
    };
    std::map<std::pair<int, int>, std::vector<Source>> sources;
    everyEvent([&](const core::Event &event) {
        if (event.layer < 0 || event.layer >= layers)
            return;
        if (event.op == core::OpKind::Backward || event.op == core::OpKind::BackwardWeight ||
            (event.op == core::OpKind::Receive && event.gradient))
            sources[{event.rank, event.layer}].push_back({&event, event.batches});
        else if (core::isCollective(event.op) && event.link >= 0 && event.gradient)
            sources[{event.rank, event.layer}].push_back({&event, collectiveBatches[event.link]});
    });
    for (const core::Event &update : trace.events) {
        if (update.op != core::OpKind::Update || update.layer < 0 || update.layer >= layers)
            continue;
        core::IndexSet reached;
        if (auto found = sources.find({update.rank, update.layer}); found != sources.end())
            for (const Source &source : found->second)
                if (source.event->end() <= update.start && coversShards(*source.event, update))
                    reached |= source.batches;
        const core::IndexSet missing = update.batches.minus(reached);
        if (missing.size() == 0)
            continue;
        return "rank " + std::to_string(update.rank) + " updated layer " +
               std::to_string(update.layer) + " with weight gradients of " +
               core::describeSet(missing, "batch", "batches") +
               " that no backward of that rank computed and no collective or message brought "
               "to it (fake_grad stands for a gradient without computing it: this lesson checks "
               "training)";
    }
    return {};
}

// The dictionary each kind is kept in.
const char *mapOf(core::ObjectKind kind)
{
    switch (kind) {
        case core::ObjectKind::Weight:
            return "weights";
        case core::ObjectKind::OptState:
            return "opt_states";
        case core::ObjectKind::ActivationGrad:
            return "grad_activations";
        case core::ObjectKind::WeightGrad:
            return "grad_weights";
        case core::ObjectKind::Activation:
        case core::ObjectKind::KeysValues:
            break;
    }
    return "activations";
}

// A lesson's memory target met by keeping puzzle objects outside the five storage dictionaries,
// which the memory figure does not count: objects kept there for later (not in flight: the run
// tells them apart, core/python/heldoutside.h) at a computation where counting them would take
// the rank over the target. In words ("line 14 (rank 0) kept 8 activations outside ..."); ""
// when there is none.
std::string heldOutsideGist(const Lesson &lesson, const core::Trace &trace)
{
    const core::HeldOutside &held = trace.heldOutside;
    if (!lesson.targets || held.bytes <= 0 || held.memory + held.bytes <= lesson.targets->memory)
        return {};
    // The kind it kept most of names the sentence.
    std::size_t most = 0;
    for (std::size_t kind = 1; kind < held.objects.size(); ++kind)
        if (held.objects[kind] > held.objects[most])
            most = kind;
    const auto kind = core::ObjectKind(most);
    const bool activation = kind == core::ObjectKind::Activation ||
                            kind == core::ObjectKind::ActivationGrad ||
                            kind == core::ObjectKind::KeysValues;
    return core::say(
        activation ? core::sentence::kHeldOutsideRecompute : core::sentence::kHeldOutside,
        {std::to_string(held.line), std::to_string(held.rank), std::to_string(held.objects[most]),
         held.objects[most] == 1 ? core::kindWords(kind) : core::kindsPhrase(kind),
         std::string("`") + mapOf(kind) + "`"});
}

} // namespace

Verdict judge(const Lesson &lesson, const core::Trace &trace)
{
    Verdict v;
    v.finished = trace.status == core::RunStatus::Ok;
    v.checkPassed = trace.check.passed;
    // A run that did not finish meets no target: its figures stop where it stopped.
    if (lesson.targets && trace.figures.hasEvents && v.finished) {
        v.timeMet = trace.figures.timesteps <= lesson.targets->time;
        v.memoryMet = trace.figures.maxMemory <= lesson.targets->memory;
    } else if (lesson.targets) {
        v.timeMet = v.memoryMet = false;
    }
    const bool checkNeeded = lesson.goal == Goal::Train;
    std::string checkMessage = trace.check.message;
    if (checkNeeded && lesson.gradientsComputed && v.finished && v.checkPassed) {
        std::string uncomputed = uncomputedGradients(trace);
        if (uncomputed.empty())
            uncomputed = unreachedGradients(trace);
        if (!uncomputed.empty()) {
            v.checkPassed = false;
            checkMessage = std::move(uncomputed);
        }
    }
    const std::string heldOutside =
        v.finished && (!checkNeeded || v.checkPassed) ? heldOutsideGist(lesson, trace) : "";
    v.solved = v.finished && (!checkNeeded || v.checkPassed) && v.timeMet && v.memoryMet &&
               heldOutside.empty();
    // The targets are figures of the lesson's own setting: a run at another one (a what-if
    // sweep's, docs/sweeps.md) is checked but not graded.
    const core::RunConfig &at = trace.config;
    const core::RunConfig &own = lesson.config;
    if (at.ranks != own.ranks || at.layers != own.layers || at.batches != own.batches ||
        at.layout != own.layout) {
        const auto setting = [](const core::RunConfig &c) {
            const std::string layout = core::layoutText(c.layout);
            return std::to_string(c.ranks) + (c.ranks == 1 ? " rank, " : " ranks, ") +
                   std::to_string(c.layers) + (c.layers == 1 ? " layer, " : " layers, ") +
                   std::to_string(c.batches) + (c.batches == 1 ? " batch" : " batches") +
                   (layout.empty() ? "" : " (" + layout + ")");
        };
        v.solved = false;
        if (v.finished && (!checkNeeded || v.checkPassed)) {
            v.kind = Verdict::Kind::OtherSetting;
            v.summary =
                "Correct at " + setting(at) + "; the lesson is graded at " + setting(own) + ".";
            return v;
        }
    }
    // The targets are the notebook's figures: under another cost model (docs/cost-models.md) a
    // run is checked but not graded, so no cost file can make a lesson solved.
    const bool otherCosts = !core::isNotebookCost(trace.config.cost);
    if (otherCosts && v.finished && (!checkNeeded || v.checkPassed)) {
        v.solved = false;
        v.timeMet = v.memoryMet = true;
        v.kind = Verdict::Kind::OtherCosts;
        // A trace whose costs say "notebook" but are not its numbers names them as changed.
        const std::string &name = trace.config.cost.name;
        v.summary = "Correct under the cost model " +
                    (name == "notebook" ? std::string("notebook (changed)") : name) +
                    "; lessons are graded under the notebook's costs.";
        return v;
    }
    if (!v.finished) {
        v.kind = Verdict::Kind::Unfinished;
        v.detail = unfinishedGist(trace, v.detailAt);
        v.summary = unfinishedSummary(trace, v);
    } else if (checkNeeded && !v.checkPassed) {
        v.kind = Verdict::Kind::CheckFailed;
        v.detail = checkMessage;
        v.summary = "Not solved yet: " + checkMessage + ".";
    } else if (!heldOutside.empty()) {
        v.kind = Verdict::Kind::CheckFailed;
        v.detail = heldOutside;
        v.summary = "Not solved yet: " + heldOutside + ".";
    } else if (lesson.targets && !trace.figures.hasEvents) {
        v.kind = Verdict::Kind::NoFigures;
        // No figures to compare: "Timesteps 0 is above the target" would be false.
        v.summary =
            "Not solved yet: the run made no operations, so it has no figures to compare "
            "with the targets.";
    } else if (!v.timeMet || !v.memoryMet) {
        v.kind = Verdict::Kind::TargetsMissed;
        std::string missed;
        if (!v.timeMet)
            missed = "Timesteps " + trace.figures.timesteps.toString() + " is above the target " +
                     lesson.targets->time.toString();
        if (!v.memoryMet)
            missed += (missed.empty() ? "" : "; ") + std::string("Maximum Memory ") +
                      core::formatMemoryExact(trace.figures.maxMemory) + " is above the target " +
                      core::formatMemoryExact(lesson.targets->memory);
        v.summary = "Correct, but not solved yet: " + missed + ".";
    } else {
        v.summary = "Solved!";
    }
    return v;
}

} // namespace rankstep::lessons
