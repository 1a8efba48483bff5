// SPDX-License-Identifier: MIT
#include "expertload.h"

#include "core/layout.h"
#include "core/router.h"

#include <algorithm>

namespace rankstep::explain {

std::optional<ExpertLoad> expertLoad(const core::Trace &trace)
{
    const int experts = trace.config.layout.expert;
    const core::RankLayout layout(trace.config.ranks, trace.config.layout);
    if (experts <= 1 || experts > core::kMostExperts || layout.data() <= 0)
        return std::nullopt;
    ExpertLoad load;
    load.batches = trace.config.batches;
    load.skew = trace.config.cost.routerSkew;
    load.milliseconds = trace.config.cost.realScale();
    load.experts.resize(std::size_t(experts));
    for (int e = 0; e < experts; ++e) {
        load.experts[std::size_t(e)].expert = e;
        load.experts[std::size_t(e)].tokens =
            int(core::batchesOfExpert(e, experts, load.skew, load.batches).size());
    }
    std::vector<core::SimTime> idle(load.experts.size());
    for (int rank = 0; rank < trace.config.ranks; ++rank) {
        const int e = layout.coords(rank).expert;
        if (e < 0 || e >= experts)
            continue;
        load.experts[std::size_t(e)].ranks.push_back(rank);
        if (std::size_t(rank) < trace.figures.ranks.size())
            idle[std::size_t(e)] += trace.figures.ranks[std::size_t(rank)].idle;
    }
    for (ExpertShare &share : load.experts)
        if (!share.ranks.empty())
            share.idle = core::SimTime::fromTicks(idle[std::size_t(share.expert)].ticks() /
                                                  std::int64_t(share.ranks.size()));
    return load;
}

namespace {

// "4 steps", or a real-scale run's "4 ms"; `bare` leaves steps without their word.
std::string idleText(const ExpertLoad &load, core::SimTime idle, bool bare = false)
{
    return idle.toString() + (load.milliseconds ? " ms" : bare ? "" : " steps");
}

} // namespace

std::string expertLoadSentence(const ExpertLoad &load)
{
    if (load.experts.empty())
        return {};
    std::string text = "The router";
    if (load.skew > 0)
        text += " (skew " + std::to_string(load.skew) + ")";
    const auto busiest = std::max_element(
        load.experts.begin(), load.experts.end(),
        [](const ExpertShare &a, const ExpertShare &b) { return a.tokens < b.tokens; });
    const auto calmest = std::min_element(
        load.experts.begin(), load.experts.end(),
        [](const ExpertShare &a, const ExpertShare &b) { return a.tokens < b.tokens; });
    const std::string of = " of the " + std::to_string(load.batches) + " tokens";
    if (load.experts.size() <= 8) {
        text += " sends expert 0 " + std::to_string(load.experts.front().tokens) + of;
        for (std::size_t e = 1; e < load.experts.size(); ++e)
            text += ", expert " + std::to_string(e) + " " + std::to_string(load.experts[e].tokens);
    } else {
        text += " sends " + std::to_string(load.experts.size()) + " experts " +
                std::to_string(load.batches) + " tokens: expert " +
                std::to_string(busiest->expert) + " the most, " + std::to_string(busiest->tokens) +
                ", expert " + std::to_string(calmest->expert) + " the fewest, " +
                std::to_string(calmest->tokens);
    }
    if (busiest->tokens == calmest->tokens)
        return text + ": an even load, each expert's ranks wait " + idleText(load, calmest->idle) +
               " on average.";
    return text + "; the ranks of expert " + std::to_string(calmest->expert) + " wait " +
           idleText(load, calmest->idle) + " on average, expert " +
           std::to_string(busiest->expert) + "'s " + idleText(load, busiest->idle, true) +
           ": the experts with fewer tokens wait in the all-to-alls for the busiest.";
}

} // namespace rankstep::explain
