// SPDX-License-Identifier: MIT
#include "tracelimits.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rankstep::io {
namespace {

std::string tooLarge(const std::string &field, core::SimTime value, core::SimTime limit,
                     const std::string &why)
{
    return field + ": " + value.toString() + " steps is more than " + why + " (" +
           limit.toString() + " steps)";
}

std::optional<std::string> negative(const std::string &field, core::SimTime value)
{
    if (value >= core::SimTime())
        return std::nullopt;
    return field + ": " + std::to_string(value.ticks()) +
           " ticks is negative, which no run's clock can be";
}

std::optional<std::string> checkCosts(const core::CostModel &cost)
{
    const std::pair<const char *, core::SimTime> costs[] = {
        {"forward_per_batch", cost.forwardPerBatch},
        {"backward_per_batch", cost.backwardPerBatch},
        {"loss", cost.loss},
        {"update", cost.update},
        {"allreduce", cost.allreduce},
        {"allgather", cost.allgather},
        {"scatterreduce", cost.scatterreduce},
        {"pass_to", cost.passTo},
        {"receive", cost.receive}};
    // A real-scale model's ticks are microseconds: an hour is its most for one unit.
    const core::SimTime most = cost.realScale() ? kMaxRealUnitCost : kMaxUnitCost;
    for (const auto &[name, value] : costs)
        if (auto below = negative(std::string("config.cost.") + name, value))
            return below;
        else if (value > most)
            return tooLarge(std::string("config.cost.") + name, value, most, "any cost of a run");
    return std::nullopt;
}

// The longest one operation of this configuration can take.
core::SimTime longestOperation(const core::RunConfig &config)
{
    const core::CostModel &c = config.cost;
    const core::SimTime unit =
        std::max({c.forwardPerBatch, c.backwardPerBatch, c.loss, c.update, c.allreduce, c.allgather,
                  c.scatterreduce, c.passTo, c.receive});
    core::SimTime longest = unit * std::max(config.batches, 1);
    if (c.network) {
        // A collective of the largest object among every rank on the slowest link, with a
        // latency per ring step: no operation of the run takes longer (core/costmodel.cpp).
        const double bytes =
            double(std::max({c.sizes.weightBytes, c.sizes.gradientBytes, c.sizes.optimizerBytes,
                             c.sizes.activationBytes * config.batches}));
        const double slowest =
            std::max(1.0, std::min(c.network->intraNodeBandwidth, c.network->interNodeBandwidth));
        const double ranks = std::max(config.ranks, 1);
        const double seconds =
            2.0 * ranks * bytes / slowest + 2.0 * ranks * c.network->latencySeconds;
        longest = std::max(
            longest,
            core::SimTime::fromTicks(
                std::llround(std::min(seconds * core::kRealTicksPerSecondOfCost, 1e15)) + 1));
    }
    return longest;
}

std::optional<std::string> checkMemory(const std::string &field, std::int64_t bytes)
{
    if (bytes <= kMaxTraceMemory)
        return std::nullopt;
    return field + ": " + std::to_string(bytes) + " bytes is more memory than a run can use (" +
           std::to_string(kMaxTraceMemory) + ")";
}

// The events, then the communication streams' (Trace::overlapped): a rank that awaits a started
// pass, receive or collective moves its clock to that event's end, so the bound of every time is
// what both lists together take.
std::optional<std::string> checkEvents(const core::Trace &trace, core::SimTime &total,
                                       const RecordTally *tally)
{
    const core::SimTime longest = longestOperation(trace.config);
    const std::size_t count = trace.events.size() + trace.overlapped.size();
    const auto eventAt = [&](std::size_t i) -> const core::Event & {
        return i < trace.events.size() ? trace.events[i]
                                       : trace.overlapped[i - trace.events.size()];
    };
    const auto nameOf = [&](std::size_t i) {
        return (i < trace.events.size()
                    ? "event " + std::to_string(i)
                    : "overlapped event " + std::to_string(i - trace.events.size())) +
               " (rank " + std::to_string(eventAt(i).rank) + ")";
    };
    core::SimTime latestStart;
    std::size_t from = 0;
    // The events the tally saw are all inside when its extremes are: only the overlapped are
    // left to read (else every event is read again, to name the first outside).
    if (tally != nullptr && tally->shortest >= core::SimTime() &&
        tally->earliestStart >= core::SimTime() && tally->longest <= longest &&
        tally->mostMemory <= kMaxTraceMemory) {
        total = tally->total;
        latestStart = tally->latestStart;
        from = trace.events.size();
    }
    for (std::size_t i = from; i < count; ++i) {
        const core::Event &event = eventAt(i);
        // The event's name is made only for the message: at 18 million events, a string for
        // each took a tenth of an open.
        if (event.duration < core::SimTime() || event.start < core::SimTime() ||
            event.duration > longest || event.memory > kMaxTraceMemory) [[unlikely]] {
            const std::string name = nameOf(i);
            if (auto below = negative(name + ": duration", event.duration))
                return below;
            if (auto below = negative(name + ": start", event.start))
                return below;
            if (event.duration > longest)
                return tooLarge(name + ": duration", event.duration, longest,
                                "the longest operation of this run's configuration");
            return checkMemory(name + ": memory", event.memory);
        }
        const std::int64_t room = std::numeric_limits<std::int64_t>::max() - total.ticks();
        total = core::SimTime::fromTicks(total.ticks() + std::min(room, event.duration.ticks()));
        latestStart = std::max(latestStart, event.start);
    }
    if (latestStart <= total) // the usual case: no second pass over every event
        return std::nullopt;
    for (std::size_t i = 0; i < count; ++i)
        if (eventAt(i).start > total)
            return tooLarge(nameOf(i) + ": start", eventAt(i).start, total,
                            "all the trace's operations together take");
    return std::nullopt;
}

std::optional<std::string> checkLimits(const core::Trace &trace, const RecordTally *tally)
{
    if (auto cost = checkCosts(trace.config.cost))
        return cost;
    core::SimTime total;
    if (auto events = checkEvents(trace, total, tally))
        return events;
    const std::string why = "all the trace's operations together take";
    const core::Figures &figures = trace.figures;
    for (const auto &[name, value] :
         {std::pair<const char *, core::SimTime>{"figures.timesteps", figures.timesteps},
          {"figures.end_time", figures.endTime},
          {"figures.max_memory_time", figures.maxMemoryTime}})
        if (auto below = negative(name, value))
            return below;
        else if (value > total)
            return tooLarge(name, value, total, why);
    if (auto memory = checkMemory("figures.max_memory", figures.maxMemory))
        return memory;
    for (std::size_t r = 0; r < figures.ranks.size(); ++r) {
        const core::RankFigures &rank = figures.ranks[r];
        const std::string name = "figures.ranks[" + std::to_string(r) + "].";
        for (const auto &[field, value] :
             {std::pair<const char *, core::SimTime>{"compute", rank.compute},
              {"communication", rank.communication},
              {"idle", rank.idle}})
            if (auto below = negative(name + field, value))
                return below;
            else if (value > total)
                return tooLarge(name + field, value, total, why);
        if (auto memory = checkMemory(name + "peak_memory", rank.peakMemory))
            return memory;
    }
    if (tally != nullptr && tally->mostMemoryAfter <= kMaxTraceMemory)
        return std::nullopt;
    std::size_t i = 0;
    for (const core::StorageChange &change : trace.changes) {
        if (change.memoryAfter > kMaxTraceMemory) [[unlikely]]
            return checkMemory("change " + std::to_string(i) + ": memory_after",
                               change.memoryAfter);
        ++i;
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> checkTraceLimits(const core::Trace &trace)
{
    return checkLimits(trace, nullptr);
}

std::optional<std::string> checkTraceLimits(const core::Trace &trace, const RecordTally &tally)
{
    return checkLimits(trace, &tally);
}

} // namespace rankstep::io
