// SPDX-License-Identifier: MIT
#include "compare.h"

#include "describe.h"
#include "memoryexplain.h"

#include "core/io/jsonwriter.h"

#include <array>
#include <cstdlib>

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

std::string signedTime(SimTime difference)
{
    return difference.ticks() < 0 ? (SimTime() - difference).toString() + " less"
                                  : difference.toString() + " more";
}

// What became of a run that did not finish, from its name: "A stopped with an error at t 3
// (rank 1, line 23: KeyError: 5)", "B hung at t 4: its ranks waited on each other".
std::string whatHappened(const char *name, const Trace &trace)
{
    const std::string at = " at t " + trace.figures.endTime.toString();
    std::string text = std::string(name);
    switch (trace.status) {
        case core::RunStatus::Ok:
            return text + " finished" + at;
        case core::RunStatus::Deadlock:
            text += " hung" + at + ": its ranks waited on each other";
            break;
        case core::RunStatus::Stopped:
            text += " was stopped" + at + " (a limit)";
            break;
        case core::RunStatus::Error:
            text += " stopped with an error" + at;
            break;
    }
    if (!trace.error)
        return text;
    std::string where;
    if (trace.error->rank >= 0)
        where = "rank " + std::to_string(trace.error->rank);
    if (trace.error->line > 0)
        where +=
            (where.empty() ? "" : ", ") + std::string("line ") + std::to_string(trace.error->line);
    const std::string &message = trace.error->message;
    const std::string first = message.substr(0, message.find('\n'));
    if (first.empty())
        return where.empty() ? text : text + " (" + where + ")";
    return text + " (" + (where.empty() ? "" : where + ": ") + first + ")";
}

std::string timeWhy(const Trace &a, const Trace &b)
{
    // A run that stopped early has no end time to compare: its end is where it stopped.
    if (a.status != core::RunStatus::Ok || b.status != core::RunStatus::Ok)
        return whatHappened("A", a) + "; " + whatHappened("B", b) +
               ". End times compare only when both runs finish.";
    const SimTime ea = a.figures.endTime, eb = b.figures.endTime;
    std::string text = "End time " + ea.toString() + " (A) against " + eb.toString() + " (B)";
    if (ea == eb)
        return text + ": the same.";
    text += eb < ea ? ": B ends " + (ea - eb).toString() + " earlier"
                    : ": B ends " + (eb - ea).toString() + " later";
    const Averages x = averages(a), y = averages(b);
    const std::array<std::pair<const char *, SimTime>, 3> parts = {{
        {"busy", y.busy - x.busy},
        {"idle", y.idle - x.idle},
        {"communicating", y.communication - x.communication},
    }};
    std::string reasons;
    for (const auto &[name, difference] : parts)
        if (difference.ticks() != 0)
            reasons +=
                (reasons.empty() ? "" : ", ") + std::string(name) + " " + signedTime(difference);
    return text + (reasons.empty() ? "." : ": per rank on average B is " + reasons + ".");
}

std::string memoryWhy(const Trace &a, const Trace &b)
{
    const auto pa = peakMemory(a), pb = peakMemory(b);
    if (!pa || !pb)
        return pa || pb ? std::string("Only ") + (pa ? "A" : "B") + " ran any operation."
                        : "Neither run ran any operation.";
    std::string text = "Peak " + std::to_string(pa->bytes) + " B (A, rank " +
                       std::to_string(pa->rank) + " at t " + pa->time.toString() + ") against " +
                       std::to_string(pb->bytes) + " B (B, rank " + std::to_string(pb->rank) +
                       " at t " + pb->time.toString() + ")";
    if (pa->bytes == pb->bytes)
        return text + ": the same.";
    // The kind whose bytes at the peak differ most says why.
    int widest = 0;
    std::int64_t widestDifference = 0;
    for (int kind = 0; kind < 5; ++kind) {
        const std::int64_t d =
            pb->byKind.bytes[std::size_t(kind)] - pa->byKind.bytes[std::size_t(kind)];
        if (std::llabs(d) > std::llabs(widestDifference)) {
            widest = kind;
            widestDifference = d;
        }
    }
    const std::int64_t difference = pb->bytes - pa->bytes;
    text += ": B's is " + std::to_string(std::llabs(difference)) + " B " +
            (difference < 0 ? "lower" : "higher");
    if (widestDifference != 0)
        text += ", most of it " + std::string(core::kindWords(core::ObjectKind(widest))) + "s (" +
                std::to_string(std::llabs(widestDifference)) + " B " +
                (widestDifference < 0 ? "fewer" : "more") + " at B's peak)";
    return text + ".";
}

} // namespace

Comparison compare(const Trace &a, const Trace &b)
{
    Comparison c;
    const auto setting = [&c](const char *name, int x, int y) {
        if (x != y)
            c.settings.push_back(std::string(name) + ": " + std::to_string(x) + " against " +
                                 std::to_string(y));
    };
    setting("ranks", a.config.ranks, b.config.ranks);
    setting("layers", a.config.layers, b.config.layers);
    setting("batches", a.config.batches, b.config.batches);
    if (a.status != b.status)
        c.settings.push_back(std::string("status: ") + core::runStatusName(a.status) + " against " +
                             core::runStatusName(b.status));
    c.time = timeWhy(a, b);
    c.memory = memoryWhy(a, b);
    return c;
}

std::string compareText(const Trace &a, const Trace &b)
{
    const Comparison c = compare(a, b);
    std::string text;
    if (c.settings.empty())
        text += "Same settings (" + std::to_string(a.config.ranks) + " ranks, " +
                std::to_string(a.config.layers) + " layers, " + std::to_string(a.config.batches) +
                " batches).\n";
    else
        for (const std::string &s : c.settings)
            text += "Differs in " + s + ".\n";
    text += c.time + "\n" + c.memory + "\n";
    if (a.status == core::RunStatus::Ok && b.status == core::RunStatus::Ok)
        text += "Timesteps " + a.figures.timesteps.toString() + " against " +
                b.figures.timesteps.toString() + ".\n";
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
