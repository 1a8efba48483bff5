// SPDX-License-Identifier: MIT
#include "compare.h"

#include "describe.h"
#include "explainsentences.h"
#include "memoryexplain.h"

#include "core/io/jsonwriter.h"

#include <array>
#include <cstdlib>
#include <tuple>

namespace rankstep::explain {
namespace {

using core::SimTime;
using core::Trace;

struct Averages {
    SimTime busy, idle, communication; // per rank
};

Averages averages(const Trace &trace)
{
    Averages sum;
    const auto &ranks = trace.figures.ranks;
    for (const core::RankFigures &r : ranks) {
        sum.busy += r.compute;
        sum.idle += r.idle;
        sum.communication += r.communication;
    }
    if (ranks.empty())
        return sum;
    const auto perRank = [&](SimTime total) {
        return SimTime::fromTicks(total.ticks() / std::int64_t(ranks.size()));
    };
    return {perRank(sum.busy), perRank(sum.idle), perRank(sum.communication)};
}

// "busy 1.2 more", "idle 0.4 less".
std::string signedPart(const core::Phrasebook &words, const char *more, const char *less,
                       SimTime difference, bool milliseconds)
{
    return difference.ticks() < 0
               ? words.say(less, {timeText(milliseconds, SimTime() - difference, words)})
               : words.say(more, {timeText(milliseconds, difference, words)});
}

const char *statusWords(core::RunStatus status)
{
    switch (status) {
        case core::RunStatus::Ok:
            return sentence::kStatusOk;
        case core::RunStatus::Error:
            return sentence::kStatusError;
        case core::RunStatus::Deadlock:
            return sentence::kStatusDeadlock;
        case core::RunStatus::Stopped:
            return sentence::kStatusStopped;
    }
    return sentence::kStatusError;
}

// What became of a run that did not finish, from its name: "A stopped with an error at t 3
// (rank 1, line 23: KeyError: 5)", "B hung at t 4: its ranks waited on each other".
std::string whatHappened(const char *name, const Trace &trace, const core::Phrasebook &words)
{
    const std::string at = timeText(trace, trace.figures.endTime, words);
    std::string text;
    switch (trace.status) {
        case core::RunStatus::Ok:
            return words.say(sentence::kFinishedAt, {name, at});
        case core::RunStatus::Deadlock:
            text = words.say(sentence::kHungAt, {name, at});
            break;
        case core::RunStatus::Stopped:
            text = words.say(sentence::kStoppedAt, {name, at});
            break;
        case core::RunStatus::Error:
            text = words.say(sentence::kErrorAt, {name, at});
            break;
    }
    if (!trace.error)
        return text;
    const int rank = trace.error->rank, line = trace.error->line;
    const std::string where =
        rank >= 0 && line > 0
            ? words.say(sentence::kAtRankLine, {std::to_string(rank), std::to_string(line)})
        : rank >= 0 ? words.say(core::sentence::kOneRank, {std::to_string(rank)})
        : line > 0  ? words.say(sentence::kAtLine, {std::to_string(line)})
                    : std::string();
    const std::string &message = trace.error->message;
    const std::string first = words.quote(message.substr(0, message.find('\n')));
    if (first.empty())
        return where.empty() ? text : words.say(sentence::kWhere, {text, where});
    return where.empty() ? words.say(sentence::kWhere, {text, first})
                         : words.say(sentence::kWhereWhat, {text, where, first});
}

std::string timeWhy(const Trace &a, const Trace &b, const core::Phrasebook &words)
{
    // A run that stopped early has no end time to compare: its end is where it stopped.
    if (a.status != core::RunStatus::Ok || b.status != core::RunStatus::Ok)
        return words.say(sentence::kEndsUncompared,
                         {whatHappened("A", a, words), whatHappened("B", b, words)});
    const SimTime ea = a.figures.endTime, eb = b.figures.endTime;
    // Each run's times in its own unit; a difference in ms only when both runs' are.
    const std::string sa = timeText(a, ea, words), sb = timeText(b, eb, words);
    const bool milliseconds = a.config.cost.realScale() && b.config.cost.realScale();
    if (ea == eb)
        return words.say(sentence::kEndsSame, {sa, sb});
    const std::string text =
        eb < ea
            ? words.say(sentence::kEndsEarlier, {sa, sb, timeText(milliseconds, ea - eb, words)})
            : words.say(sentence::kEndsLater, {sa, sb, timeText(milliseconds, eb - ea, words)});
    const Averages x = averages(a), y = averages(b);
    const std::array<std::tuple<const char *, const char *, SimTime>, 3> parts = {{
        {sentence::kBusyMore, sentence::kBusyLess, y.busy - x.busy},
        {sentence::kIdleMore, sentence::kIdleLess, y.idle - x.idle},
        {sentence::kCommunicatingMore, sentence::kCommunicatingLess,
         y.communication - x.communication},
    }};
    std::string reasons;
    for (const auto &[more, less, difference] : parts)
        if (difference.ticks() != 0)
            reasons += (reasons.empty() ? "" : ", ") +
                       signedPart(words, more, less, difference, milliseconds);
    return reasons.empty() ? words.say(sentence::kSentence, {text})
                           : words.say(sentence::kPerRankB, {text, reasons});
}

std::string memoryWhy(const Trace &a, const Trace &b, const core::Phrasebook &words)
{
    const auto pa = peakMemory(a), pb = peakMemory(b);
    if (!pa || !pb)
        return words.say(pa   ? sentence::kOnlyARan
                         : pb ? sentence::kOnlyBRan
                              : sentence::kNeitherRan,
                         {});
    std::string text = words.say(
        sentence::kPeaks, {std::to_string(pa->bytes), std::to_string(pa->rank),
                           timeText(pa->milliseconds, pa->time, words), std::to_string(pb->bytes),
                           std::to_string(pb->rank), timeText(pb->milliseconds, pb->time, words)});
    if (pa->bytes == pb->bytes)
        return words.say(sentence::kPeaksSame, {text});
    // The kind whose bytes at the peak differ most says why.
    int widest = 0;
    std::int64_t widestDifference = 0;
    for (int kind = 0; kind < core::kObjectKindCount; ++kind) {
        const std::int64_t d =
            pb->byKind.bytes[std::size_t(kind)] - pa->byKind.bytes[std::size_t(kind)];
        if (std::llabs(d) > std::llabs(widestDifference)) {
            widest = kind;
            widestDifference = d;
        }
    }
    const std::int64_t difference = pb->bytes - pa->bytes;
    text = words.say(difference < 0 ? sentence::kPeakLower : sentence::kPeakHigher,
                     {text, std::to_string(std::llabs(difference))});
    if (widestDifference != 0)
        text = words.say(widestDifference < 0 ? sentence::kMostFewer : sentence::kMostMore,
                         {text, words.say(core::kindsPhrase(core::ObjectKind(widest)), {}),
                          std::to_string(std::llabs(widestDifference))});
    return words.say(sentence::kSentence, {text});
}

} // namespace

Comparison compare(const Trace &a, const Trace &b, const core::Phrasebook &words)
{
    Comparison c;
    const auto setting = [&c, &words](const char *pattern, int x, int y) {
        if (x != y)
            c.settings.push_back(words.say(pattern, {std::to_string(x), std::to_string(y)}));
    };
    setting(sentence::kRanksAgainst, a.config.ranks, b.config.ranks);
    setting(sentence::kLayersAgainst, a.config.layers, b.config.layers);
    setting(sentence::kBatchesAgainst, a.config.batches, b.config.batches);
    if (a.status != b.status)
        c.settings.push_back(words.say(
            sentence::kStatusAgainst,
            {words.say(statusWords(a.status), {}), words.say(statusWords(b.status), {})}));
    c.time = timeWhy(a, b, words);
    c.memory = memoryWhy(a, b, words);
    return c;
}

std::string compareText(const Trace &a, const Trace &b, const core::Phrasebook &words)
{
    const Comparison c = compare(a, b, words);
    std::string text;
    if (c.settings.empty())
        text += words.say(sentence::kSameSettings,
                          {std::to_string(a.config.ranks), std::to_string(a.config.layers),
                           std::to_string(a.config.batches)}) +
                "\n";
    else
        for (const std::string &s : c.settings)
            text += words.say(sentence::kDiffersIn, {s}) + "\n";
    text += c.time + "\n" + c.memory + "\n";
    if (a.status == core::RunStatus::Ok && b.status == core::RunStatus::Ok)
        text += words.say(sentence::kTimestepsAgainst, {timeText(a, a.figures.timesteps, words),
                                                        timeText(b, b.figures.timesteps, words)}) +
                "\n";
    return text;
}

std::string compareJson(const Trace &a, const Trace &b)
{
    const Comparison c = compare(a, b);
    std::string out;
    io::JsonObject fields(out);
    std::string &settings = fields.open("settings");
    settings += '[';
    for (std::size_t i = 0; i < c.settings.size(); ++i) {
        settings += i ? ", " : "";
        io::appendJsonString(settings, c.settings[i]);
    }
    settings += ']';
    const auto run = [&fields](const char *name, const Trace &t) {
        io::JsonObject(fields.breakLine("  ").open(name))
            .string("status", core::runStatusName(t.status))
            .integer("ranks", t.config.ranks)
            .integer("layers", t.config.layers)
            .integer("batches", t.config.batches)
            .time("timesteps", t.figures.timesteps)
            .time("end_time", t.figures.endTime)
            .integer("max_memory", t.figures.maxMemory)
            .integer("max_memory_rank", t.figures.maxMemoryRank)
            .time("max_memory_time", t.figures.maxMemoryTime)
            .close();
    };
    run("a", a);
    run("b", b);
    fields.breakLine("  ").string("time", c.time).breakLine("  ").string("memory", c.memory);
    fields.close();
    return out + "\n";
}

} // namespace rankstep::explain
