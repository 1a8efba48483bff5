// SPDX-License-Identifier: MIT
#include "timesplit.h"

#include <cstdio>
#include <unordered_map>

namespace rankstep::explain {
namespace {

// The axes along which `a` and `b` differ, one bit each in kAxes' order (expert aside: it is a
// part of data).
unsigned differing(const core::RankLayout &layout, int a, int b)
{
    const core::Coords ca = layout.coords(a), cb = layout.coords(b);
    unsigned mask = 0;
    for (std::size_t i = 0; i < core::kAxes.size(); ++i)
        if (core::kAxes[i] != core::Axis::Expert &&
            ca.along(core::kAxes[i]) != cb.along(core::kAxes[i]))
            mask |= 1U << i;
    return mask;
}

// Each collective's axes: its first member and the axes any other member differs along.
struct Members {
    int first = -1;
    unsigned mask = 0;
};

std::unordered_map<std::int64_t, Members> collectiveAxes(const core::Trace &trace,
                                                         const core::RankLayout &layout)
{
    std::unordered_map<std::int64_t, Members> found;
    for (const core::Event &event : trace.events) {
        if (!core::isCollective(event.op))
            continue;
        Members &members = found[event.link];
        if (members.first < 0)
            members.first = event.rank;
        else if (event.rank != members.first)
            members.mask |= differing(layout, members.first, event.rank);
    }
    return found;
}

std::string share(core::SimTime part, core::SimTime whole, int ranks, bool milliseconds)
{
    char text[64];
    const double mean = part.toDouble() / ranks;
    const double percent =
        whole.ticks() > 0 ? 100.0 * double(part.ticks()) / double(whole.ticks()) : 0;
    std::snprintf(text, sizeof text, milliseconds ? "%.6g ms (%.1f%%)" : "%.6g (%.1f%%)", mean,
                  percent);
    return text;
}

} // namespace

std::optional<TimeSplit> timeSplit(const core::Trace &trace)
{
    if (trace.config.layout.isPlain() || trace.config.ranks < 1)
        return std::nullopt;
    const core::RankLayout layout(trace.config.ranks, trace.config.layout);
    if (layout.data() == 0)
        return std::nullopt;
    const auto collectives = collectiveAxes(trace, layout);
    TimeSplit split;
    split.ranks = trace.config.ranks;
    split.pipelined = layout.degree(core::Axis::Pipeline) > 1;
    split.milliseconds = trace.config.cost.realScale();
    for (const core::Event &event : trace.events) {
        if (!core::isCommunication(event.op)) {
            split.compute += event.duration;
            continue;
        }
        unsigned mask = 0;
        if (core::isCollective(event.op)) {
            const auto it = collectives.find(event.link);
            mask = it == collectives.end() ? 0 : it->second.mask;
        } else if (event.peer >= 0 && event.peer < trace.config.ranks) {
            mask = differing(layout, event.rank, event.peer);
        }
        // An all-to-all among data-parallel ranks of a run with experts is their dispatch or
        // combine: expert parallelism is carved out of the data-parallel ranks.
        if (event.op == core::OpKind::AllToAll && trace.config.layout.expert > 1 &&
            mask == 1U << std::size_t(core::Axis::Data))
            mask = 1U << std::size_t(core::Axis::Expert);
        const bool single = mask != 0 && (mask & (mask - 1)) == 0;
        if (!single) {
            split.other += event.duration;
            continue;
        }
        for (std::size_t i = 0; i < core::kAxes.size(); ++i)
            if (mask == 1U << i)
                split.axes[i] += event.duration;
    }
    for (const core::RankFigures &rank : trace.figures.ranks)
        split.idle += rank.idle;
    return split;
}

std::string timeSplitSentence(const TimeSplit &split)
{
    core::SimTime whole = split.compute + split.other + split.idle;
    for (const core::SimTime axis : split.axes)
        whole += axis;
    std::string text = "A rank's mean time: compute " +
                       share(split.compute, whole, split.ranks, split.milliseconds);
    for (std::size_t i = 0; i < core::kAxes.size(); ++i)
        if (split.axes[i].ticks() > 0)
            text += std::string(", ") + core::axisName(core::kAxes[i]) + " " +
                    share(split.axes[i], whole, split.ranks, split.milliseconds);
    if (split.other.ticks() > 0)
        text +=
            ", other communication " + share(split.other, whole, split.ranks, split.milliseconds);
    return text + (split.pipelined ? ", bubble " : ", waiting ") +
           share(split.idle, whole, split.ranks, split.milliseconds) + ".";
}

} // namespace rankstep::explain
