// SPDX-License-Identifier: MIT
#include "rankheat.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace rankstep::gui {

int RankHeat::binOf(core::SimTime time) const
{
    if (bins <= 0 || end.ticks() <= 0)
        return 0;
    const auto bin = std::int64_t(double(time.ticks()) * bins / double(end.ticks()));
    return int(std::clamp<std::int64_t>(bin, 0, bins - 1));
}

core::SimTime RankHeat::binStart(int bin) const
{
    if (bins <= 0)
        return {};
    return core::SimTime::fromTicks(
        std::int64_t(std::floor(double(end.ticks()) * bin / double(bins))));
}

RankHeat rankHeat(const core::Trace &trace, int bins)
{
    core::SimTime end;
    for (const core::Event &event : trace.events)
        end = std::max(end, event.end());
    return rankHeat(trace, bins, end);
}

RankHeat rankHeat(const core::Trace &trace, int bins, core::SimTime end)
{
    RankHeat heat;
    heat.ranks = std::max(trace.config.ranks, 0);
    heat.bins = std::max(bins, 1);
    const std::size_t cells = std::size_t(heat.ranks) * std::size_t(heat.bins);
    heat.busy.assign(cells, 0.0F);
    heat.comm.assign(cells, 0.0F);
    heat.end = end;
    if (heat.end.ticks() <= 0)
        return heat;
    const double width = double(heat.end.ticks()) / heat.bins; // ticks a bin
    for (const core::Event &event : trace.events) {
        if (event.rank < 0 || event.rank >= heat.ranks || event.duration.ticks() <= 0)
            continue;
        std::vector<float> &shares = core::isCommunication(event.op) ? heat.comm : heat.busy;
        float *column = shares.data() + std::size_t(event.rank);
        const auto stride = std::size_t(heat.ranks);
        const double from = double(event.start.ticks());
        const double to = double(event.end().ticks());
        for (int bin = heat.binOf(event.start); bin < heat.bins; ++bin) {
            const double binFrom = bin * width;
            if (binFrom >= to)
                break;
            const double overlap = std::min(to, binFrom + width) - std::max(from, binFrom);
            if (overlap > 0)
                column[std::size_t(bin) * stride] += float(overlap / width);
        }
    }
    // Overlapping events (a collective in flight beside a compute) never make a bin more than full.
    for (std::size_t i = 0; i < cells; ++i) {
        heat.busy[i] = std::min(heat.busy[i], 1.0F);
        heat.comm[i] = std::min(heat.comm[i], 1.0F - heat.busy[i]);
    }
    return heat;
}

RowHeat rowHeat(const RankHeat &heat, const std::vector<int> &ranks)
{
    RowHeat row;
    row.busy.assign(std::size_t(heat.bins), 0.0F);
    row.comm.assign(std::size_t(heat.bins), 0.0F);
    const auto inRun = [&heat](int rank) {
        return rank >= 0 && rank < heat.ranks;
    };
    const auto counted = int(std::count_if(ranks.begin(), ranks.end(), inRun));
    // Bin after bin, where a bin's ranks lie together; each bin's sum over the ranks in the order
    // given.
    for (int bin = 0; bin < heat.bins; ++bin) {
        const std::size_t first = std::size_t(bin) * std::size_t(heat.ranks);
        for (int rank : ranks) {
            if (!inRun(rank))
                continue;
            row.busy[bin] += heat.busy[first + std::size_t(rank)];
            row.comm[bin] += heat.comm[first + std::size_t(rank)];
        }
    }
    if (counted > 1)
        for (int bin = 0; bin < heat.bins; ++bin) {
            row.busy[bin] /= float(counted);
            row.comm[bin] /= float(counted);
        }
    return row;
}

namespace {

void addRanks(std::vector<OverviewRow> &rows, const std::vector<int> &ranks, int depth)
{
    for (int rank : ranks)
        rows.push_back({RowKind::Rank, depth, {rank}, false});
}

// A group's row, and below it its rows when it is open.
template <typename Children>
void addGroup(std::vector<OverviewRow> &rows, OverviewRow row, const std::set<std::int64_t> &open,
              Children children)
{
    row.open = open.contains(row.key());
    const bool isOpen = row.open;
    const std::vector<int> ranks = row.ranks;
    const int depth = row.depth;
    rows.push_back(std::move(row));
    if (isOpen)
        children(ranks, depth + 1);
}

// The replicas of `ranks` (one stage, or the whole run), each a group of the ranks that share a
// data-parallel coordinate; ranks themselves when a replica holds one rank.
void addReplicas(std::vector<OverviewRow> &rows, const core::RankLayout &layout,
                 const std::vector<int> &ranks, int depth, const std::set<std::int64_t> &open)
{
    const int inner = layout.degree(core::Axis::Tensor) * layout.degree(core::Axis::Context);
    if (inner <= 1 || layout.data() <= 1) {
        addRanks(rows, ranks, depth);
        return;
    }
    std::vector<std::vector<int>> replicas(std::size_t(layout.data()));
    for (int rank : ranks)
        replicas[std::size_t(layout.coords(rank).data)].push_back(rank);
    for (std::vector<int> &replica : replicas)
        if (!replica.empty())
            addGroup(rows, {RowKind::Replica, depth, std::move(replica), false}, open,
                     [&rows](const std::vector<int> &inside, int below) {
                         addRanks(rows, inside, below);
                     });
}

} // namespace

std::vector<OverviewRow> overviewRows(const core::RankLayout &layout,
                                      const std::set<std::int64_t> &open)
{
    std::vector<OverviewRow> rows;
    const int ranks = layout.ranks();
    std::vector<int> all(std::size_t(std::max(ranks, 0)));
    for (int rank = 0; rank < ranks; ++rank)
        all[std::size_t(rank)] = rank;
    if (ranks <= kOverviewUnfoldedRanks) {
        addRanks(rows, all, 0);
        return rows;
    }
    const bool laidOut = layout.data() > 0 && !layout.layout().isPlain();
    if (laidOut && layout.degree(core::Axis::Pipeline) > 1) {
        std::vector<std::vector<int>> stages(std::size_t(layout.degree(core::Axis::Pipeline)));
        for (int rank : all)
            stages[std::size_t(layout.coords(rank).pipeline)].push_back(rank);
        for (std::vector<int> &stage : stages)
            addGroup(rows, {RowKind::Stage, 0, std::move(stage), false}, open,
                     [&](const std::vector<int> &inside, int below) {
                         addReplicas(rows, layout, inside, below, open);
                     });
        return rows;
    }
    if (laidOut) {
        addReplicas(rows, layout, all, 0, open);
        return rows;
    }
    for (int first = 0; first < ranks; first += kOverviewBlockRanks) {
        std::vector<int> block;
        for (int rank = first; rank < std::min(ranks, first + kOverviewBlockRanks); ++rank)
            block.push_back(rank);
        addGroup(
            rows, {RowKind::Block, 0, std::move(block), false}, open,
            [&rows](const std::vector<int> &inside, int below) { addRanks(rows, inside, below); });
    }
    return rows;
}

std::vector<int> ranksAround(const core::RankLayout &layout, int rank, int most)
{
    if (rank < 0 || rank >= layout.ranks() || most <= 0)
        return {};
    std::vector<int> around{rank};
    if (layout.data() > 0)
        for (core::Axis axis : {core::Axis::Tensor, core::Axis::Context, core::Axis::Pipeline})
            for (int other : layout.group(rank, axis))
                around.push_back(other);
    std::sort(around.begin(), around.end());
    around.erase(std::unique(around.begin(), around.end()), around.end());
    if (int(around.size()) > most) {
        std::stable_sort(around.begin(), around.end(),
                         [rank](int a, int b) { return std::abs(a - rank) < std::abs(b - rank); });
        around.resize(std::size_t(most));
        std::sort(around.begin(), around.end());
    }
    return around;
}

} // namespace rankstep::gui
