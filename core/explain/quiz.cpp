// SPDX-License-Identifier: MIT
#include "quiz.h"

#include "describe.h"
#include "waitexplain.h"

#include "core/sentences.h"

#include <algorithm>

namespace rankstep::explain {
namespace {

namespace sentence = core::sentence;

using core::Object;
using core::ObjectKind;

constexpr std::size_t kMostChoices = 4;

// A small deterministic shuffle (the same seed gives the same order on every machine).
void shuffle(std::vector<std::string> &choices, int &answer, std::uint32_t seed)
{
    std::uint32_t state = seed * 2654435761U + 0x9E3779B9U;
    const auto next = [&state] {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return state;
    };
    for (std::size_t i = choices.size(); i > 1; --i) {
        const std::size_t j = next() % i;
        std::swap(choices[i - 1], choices[j]);
        if (answer == int(i - 1))
            answer = int(j);
        else if (answer == int(j))
            answer = int(i - 1);
    }
}

QuizQuestion finish(QuizQuestion question, std::uint32_t seed)
{
    shuffle(question.choices, question.answer, seed);
    return question;
}

// The answer first, then distinct distractors, at most kMostChoices in all.
std::vector<std::string> choicesOf(const std::string &answer,
                                   const std::vector<std::string> &distractors)
{
    std::vector<std::string> choices{answer};
    for (const std::string &each : distractors)
        if (choices.size() < kMostChoices &&
            std::find(choices.begin(), choices.end(), each) == choices.end())
            choices.push_back(each);
    return choices;
}

std::string rankName(int rank)
{
    return core::say(sentence::kOneRank, {std::to_string(rank)});
}

// Up to kMostChoices ranks including `rank`: its neighbours in the rank order.
std::vector<std::string> rankChoices(int rank, int ranks)
{
    const int count = std::min<int>(ranks, int(kMostChoices));
    const int first = std::clamp(rank - count / 2, 0, ranks - count);
    std::vector<std::string> distractors;
    for (int r = first; r < first + count; ++r)
        if (r != rank)
            distractors.push_back(rankName(r));
    return choicesOf(rankName(rank), distractors);
}

std::optional<QuizQuestion> outcome(const core::Trace &trace, std::uint32_t seed)
{
    QuizQuestion q;
    q.kind = QuizKind::Outcome;
    q.question = sentence::kQuizOutcome;
    q.choices = {sentence::kQuizFinishes, sentence::kQuizHangs, sentence::kQuizErrors};
    switch (trace.status) {
        case core::RunStatus::Ok:
            q.answer = 0;
            q.reveal =
                core::say(sentence::kQuizFinishedAt, {timeText(trace, trace.figures.endTime)});
            break;
        case core::RunStatus::Deadlock:
            q.answer = 1;
            q.reveal = sentence::kQuizHung;
            for (const core::RankWait &wait :
                 trace.diagnosis ? trace.diagnosis->ranks : std::vector<core::RankWait>{})
                if (!wait.finished && !wait.waitsFor.empty()) {
                    q.reveal = core::say(sentence::kQuizHungIn,
                                         {std::to_string(wait.rank), wait.waitsFor});
                    break;
                }
            break;
        case core::RunStatus::Error:
            q.answer = 2;
            q.reveal = trace.error && trace.error->rank >= 0
                           ? core::say(sentence::kQuizRankErrs, {std::to_string(trace.error->rank)})
                           : std::string(sentence::kQuizARankErrs);
            break;
        case core::RunStatus::Stopped:
            return std::nullopt; // stopped by a limit: nothing the room could predict
    }
    return finish(std::move(q), seed);
}

std::optional<QuizQuestion> idleLongest(const core::Trace &trace, std::uint32_t seed)
{
    const auto &ranks = trace.figures.ranks;
    if (trace.status != core::RunStatus::Ok || ranks.size() < 2)
        return std::nullopt;
    int longest = 0;
    for (int r = 1; r < int(ranks.size()); ++r)
        if (ranks[std::size_t(r)].idle > ranks[std::size_t(longest)].idle)
            longest = r;
    const core::SimTime idle = ranks[std::size_t(longest)].idle;
    // A tie has no one answer.
    for (int r = 0; r < int(ranks.size()); ++r)
        if (r != longest && ranks[std::size_t(r)].idle == idle)
            return std::nullopt;
    if (idle == core::SimTime())
        return std::nullopt;
    QuizQuestion q;
    q.kind = QuizKind::IdleLongest;
    q.question = sentence::kQuizIdle;
    q.choices = rankChoices(longest, int(ranks.size()));
    q.reveal = core::say(sentence::kQuizIdleReveal, {std::to_string(longest), timeText(trace, idle),
                                                     timeText(trace, trace.figures.endTime)});
    return finish(std::move(q), seed);
}

// Another object the room might expect instead: the other batches, layer or kind.
std::vector<std::string> objectDistractors(const Object &object, int layers)
{
    std::vector<std::string> found;
    if (object.step > 0) { // the same before its update
        Object other = object;
        other.step = object.step - 1;
        found.push_back(objectPhrase(other));
    }
    if (core::hasBatches(object.kind) && object.totalBatches > 1) {
        Object other = object;
        const std::vector<int> batches = object.batches.toVector();
        const bool all = int(batches.size()) == object.totalBatches;
        other.batches = all ? core::IndexSet{batches.empty() ? 0 : batches.front()}
                            : core::IndexSet::range(0, object.totalBatches);
        found.push_back(objectPhrase(other));
    }
    if (core::hasShards(object.kind) && object.total > 1) {
        Object other = object;
        other.shards =
            object.isComplete() ? core::IndexSet{0} : core::IndexSet::range(0, object.total);
        found.push_back(objectPhrase(other));
    }
    if (layers > 1) {
        Object other = object;
        other.layer = object.layer + 1 < layers ? object.layer + 1 : object.layer - 1;
        found.push_back(objectPhrase(other));
    }
    Object other = object;
    switch (object.kind) {
        case ObjectKind::Weight:
            other.kind = ObjectKind::WeightGrad;
            break;
        case ObjectKind::WeightGrad:
            other.kind = ObjectKind::Weight;
            break;
        case ObjectKind::Activation:
            other.kind = ObjectKind::ActivationGrad;
            break;
        case ObjectKind::ActivationGrad:
            other.kind = ObjectKind::Activation;
            break;
        case ObjectKind::OptState:
        case ObjectKind::KeysValues:
            other.kind = ObjectKind::Weight;
            break;
    }
    found.push_back(objectPhrase(other));
    return found;
}

// The first object rank `rank` holds at `after` that it did not hold (or held otherwise) before.
const replay::MapEntry *newEntry(const replay::RankState &before, const replay::RankState &after)
{
    for (std::size_t map = 0; map < after.maps.size(); ++map)
        for (const replay::MapEntry &entry : after.maps[map]) {
            const auto &old = before.maps[map];
            const bool same = std::any_of(old.begin(), old.end(), [&](const replay::MapEntry &e) {
                return e.key() == entry.key() && e.object() == entry.object();
            });
            if (!same)
                return &entry;
        }
    return nullptr;
}

std::optional<QuizQuestion> newObject(const core::Trace &trace, const replay::RunState &before,
                                      const replay::RunState &after, int preferred,
                                      std::uint32_t seed)
{
    if (before.ranks.size() != after.ranks.size())
        return std::nullopt;
    // The rank that moved when it gained something; else, when several did (a time step), one
    // of them by the seed, so that the questions do not always ask about the same rank.
    std::vector<std::pair<int, const replay::MapEntry *>> gained;
    for (int r = 0; r < int(after.ranks.size()); ++r)
        if (const replay::MapEntry *entry =
                newEntry(before.ranks[std::size_t(r)], after.ranks[std::size_t(r)]))
            gained.emplace_back(r, entry);
    if (gained.empty())
        return std::nullopt;
    auto [rank, entry] = gained[seed % gained.size()];
    for (const auto &[each, itsEntry] : gained)
        if (each == preferred && gained.size() == 1) {
            rank = each;
            entry = itsEntry;
        }
    const Object &object = entry->object();
    QuizQuestion q;
    q.kind = QuizKind::NewObject;
    q.rank = rank;
    q.question = core::say(sentence::kQuizAppears, {std::to_string(rank)});
    const std::string answer = objectPhrase(object);
    q.choices = choicesOf(answer, objectDistractors(object, trace.config.layers));
    if (q.choices.size() < 2)
        return std::nullopt;
    q.reveal = core::say(sentence::kQuizNowHolds, {std::to_string(rank), answer,
                                                   std::string(core::mapName(entry->change->map)) +
                                                       "[" + core::formatKey(entry->key()) + "]"});
    return finish(std::move(q), seed);
}

std::optional<QuizQuestion> nextMove(const core::Trace &trace, const replay::RunState &before,
                                     const replay::RunState &after, std::uint32_t seed)
{
    if (!after.event || after.event == before.event)
        return std::nullopt;
    const core::Event &event = trace.events[*after.event];
    // Did one rank move, or several (a time step)?
    int moved = 0;
    for (std::size_t r = 0; r < after.ranks.size() && r < before.ranks.size(); ++r)
        moved += after.ranks[r].event != before.ranks[r].event ? 1 : 0;
    if (moved == 1 && trace.config.ranks > 1) {
        QuizQuestion q;
        q.kind = QuizKind::NextRank;
        q.question = sentence::kQuizMovesNext;
        q.choices = rankChoices(event.rank, trace.config.ranks);
        q.reveal =
            core::say(sentence::kQuizDoes, {std::to_string(event.rank), describeEvent(event)});
        return finish(std::move(q), seed);
    }
    // What the rank does next, among the operations this run uses.
    std::vector<std::string> ops;
    for (const core::Event &each : trace.events) {
        const std::string name = core::opName(each.op);
        if (std::find(ops.begin(), ops.end(), name) == ops.end())
            ops.push_back(name);
        if (ops.size() > 12)
            break;
    }
    const std::string answer = core::opName(event.op);
    std::vector<std::string> others;
    for (const std::string &op : ops)
        if (op != answer)
            others.push_back(op);
    if (others.empty())
        return std::nullopt;
    QuizQuestion q;
    q.kind = QuizKind::NextOp;
    q.rank = event.rank;
    q.question = core::say(sentence::kQuizStartsNext, {std::to_string(event.rank)});
    q.choices = choicesOf(answer, others);
    q.reveal = core::say(sentence::kQuizDoes, {std::to_string(event.rank), describeEvent(event)});
    return finish(std::move(q), seed);
}

} // namespace

std::string objectPhrase(const Object &object)
{
    // An activation gradient below layer 0 is the gradient of the model's input.
    const std::string kind = core::kindWords(object.kind);
    std::string text = object.layer < 0
                           ? core::say(sentence::kOfTheInput, {kind})
                           : core::say(sentence::kOfLayer, {kind, std::to_string(object.layer)});
    if ((object.kind == ObjectKind::Weight || object.kind == ObjectKind::OptState) &&
        object.step > 0)
        text += ", " + (object.step == 1
                            ? std::string(sentence::kUpdatedOnce)
                            : core::say(sentence::kUpdatedTimes, {std::to_string(object.step)}));
    if (core::hasBatches(object.kind) && object.totalBatches > 1)
        text += ", " + core::describeSet(object.batches, "batch", "batches");
    if (core::hasShards(object.kind) && object.total > 1)
        text += object.isComplete() ? ", " + std::string(sentence::kWhole)
                                    : ", " + core::describeSet(object.shards, "shard", "shards") +
                                          " of " + std::to_string(object.total);
    return text;
}

std::optional<QuizQuestion> quizQuestion(const core::Trace &trace, const replay::RunState &before,
                                         const replay::RunState &after, bool fromHome, bool toEnd,
                                         std::uint32_t seed)
{
    if (fromHome)
        if (auto question = outcome(trace, seed))
            return question;
    if (toEnd)
        if (auto question = idleLongest(trace, seed))
            return question;
    const int preferred = after.event ? trace.events[*after.event].rank : -1;
    // When the turn passes to another rank (a pipeline's stage hands on), who moves is the
    // question; while a rank goes on, what it makes. Steps go in the order of simulated start,
    // ties by rank: when several ranks start something at that time (data-parallel ranks in
    // step), the next is the lowest of them, which is no question.
    bool turn = before.event && preferred >= 0 && trace.events[*before.event].rank != preferred;
    if (turn) {
        const core::SimTime start = trace.events[*after.event].start;
        int starting = 0;
        std::vector<bool> seen(std::size_t(std::max(trace.config.ranks, 0)), false);
        for (const core::Event &each : trace.events)
            if (each.start == start && each.rank >= 0 && std::size_t(each.rank) < seen.size() &&
                !seen[std::size_t(each.rank)]) {
                seen[std::size_t(each.rank)] = true;
                ++starting;
            }
        turn = starting == 1;
    }
    if (turn)
        if (auto question = nextMove(trace, before, after, seed);
            question && question->kind == QuizKind::NextRank)
            return question;
    if (auto question = newObject(trace, before, after, preferred, seed))
        return question;
    return nextMove(trace, before, after, seed);
}

} // namespace rankstep::explain
