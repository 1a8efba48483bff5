// SPDX-License-Identifier: MIT
#include "synthetictrace.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace rankstep::testing {
namespace {

constexpr int kRanks = 64;
constexpr int kLayers = 32;
constexpr std::size_t kSliceLength = 8;
constexpr core::OpKind kCycle[] = {core::OpKind::AllGather, core::OpKind::Forward,
                                   core::OpKind::Backward,  core::OpKind::ScatterReduce,
                                   core::OpKind::PassTo,    core::OpKind::Receive,
                                   core::OpKind::Update};
constexpr std::size_t kCycleLength = std::size(kCycle);

// What one rank has done so far.
struct RankClock {
    std::size_t position = 0;
    core::SimTime time;
};

core::Event makeEvent(int rank, RankClock &clock, const core::CostModel &cost)
{
    const std::size_t p = clock.position++;
    core::Event event;
    event.rank = rank;
    event.op = kCycle[p % kCycleLength];
    event.layer = int(p / kCycleLength % kLayers);
    event.start = clock.time;
    event.memory = 262144 * (1 + std::int64_t(p % 5)) + 131072 * (rank % 3);
    event.line = 10 + int(p % kCycleLength);
    if (core::isCollective(event.op)) {
        event.shards = core::IndexSet{rank};
        event.shardTotal = kRanks;
        event.link = std::int32_t(p);
        event.duration = cost.allgather;
    } else if (event.op == core::OpKind::PassTo || event.op == core::OpKind::Receive) {
        event.batches = core::IndexSet{rank};
        event.setPeer((rank + (event.op == core::OpKind::PassTo ? 1 : kRanks - 1)) % kRanks);
        event.link = std::int32_t(p) * kRanks + rank;
        event.duration = cost.passTo;
    } else {
        event.batches = event.op == core::OpKind::Update ? core::IndexSet() : core::IndexSet{rank};
        event.duration = event.op == core::OpKind::Update ? cost.update : cost.forwardPerBatch;
    }
    clock.time += event.duration + core::SimTime::fromTicks(std::int64_t(p % 3) * 100);
    return event;
}

core::StorageChange makeChange(const core::Trace &trace, std::size_t index,
                               std::optional<core::Object> &object)
{
    const core::Event &after = trace.events[index % trace.events.size()];
    core::StorageChange change;
    change.rank = after.rank;
    change.line = after.line;
    change.memoryAfter = after.memory + 131072;
    if (index % 2 == 0) {
        core::Object activation;
        activation.kind = core::ObjectKind::Activation;
        activation.layer = after.layer + 1;
        activation.layers = kLayers;
        activation.batches = core::IndexSet{after.rank};
        activation.totalBatches = kRanks;
        change.map = core::MapKind::Activations;
        change.key = core::Key(after.layer + 1, after.rank);
        object = activation;
    } else {
        change.map = core::MapKind::GradActivations;
        change.key = core::Key(after.layer);
    }
    return change;
}

// Each chunk of eight events of one rank is a slice; changes follow their events.
void addSlicesAndChanges(core::Trace &trace, std::size_t changes)
{
    const std::size_t events = trace.events.size();
    trace.changes.reserve(changes);
    for (std::size_t begin = 0; begin < events; begin += kSliceLength) {
        const std::size_t end = std::min(begin + kSliceLength, events);
        core::Slice slice;
        slice.rank = trace.events[begin].rank;
        slice.eventBegin = std::uint32_t(begin);
        slice.eventEnd = std::uint32_t(end);
        slice.changeBegin = std::uint32_t(trace.changes.size());
        const std::size_t changeEnd = changes * end / events;
        while (trace.changes.size() < changeEnd) {
            std::optional<core::Object> object;
            core::StorageChange change = makeChange(trace, trace.changes.size(), object);
            change.eventCount = std::uint32_t(end);
            trace.changes.append(change, std::move(object));
        }
        slice.changeEnd = std::uint32_t(trace.changes.size());
        slice.end = end == events ? core::SliceEnd::Finished : core::SliceEnd::Collective;
        slice.detail = trace.details.intern("allgather(layer " +
                                            std::to_string(end / kSliceLength % kLayers) + ")");
        slice.line = 12;
        trace.slices.push_back(std::move(slice));
    }
}

void addNotes(core::Trace &trace)
{
    for (std::size_t i = 0; i < 4; ++i)
        trace.warnings.push_back({int(i), 20 + int(i), "the gradient counts batch 2 twice"});
    const std::size_t events = trace.events.size();
    for (std::size_t at = 0; at <= events; at += 100000)
        trace.marks.push_back(
            {-1, 30, at, trace.changes.size() * at / events, "step " + std::to_string(at)});
    trace.finalWeights.resize(kRanks);
    for (int rank = 0; rank < kRanks; ++rank)
        for (int layer = 0; layer < kLayers; ++layer) {
            core::Object weight;
            weight.layer = layer;
            weight.layers = kLayers;
            weight.step = 1;
            weight.shards = core::IndexSet{rank};
            weight.total = kRanks;
            trace.finalWeights[std::size_t(rank)][layer] = weight;
        }
}

} // namespace

core::Trace syntheticTrace(std::size_t events, std::size_t changes)
{
    core::Trace trace;
    trace.config.ranks = kRanks;
    trace.config.layers = kLayers;
    trace.config.batches = kRanks;
    std::vector<RankClock> clocks(kRanks);
    trace.events.reserve(events);
    for (std::size_t i = 0; i < events; ++i) {
        const int rank = int(i / kSliceLength % kRanks);
        trace.events.push_back(makeEvent(rank, clocks[std::size_t(rank)], trace.config.cost));
    }
    addSlicesAndChanges(trace, changes);
    addNotes(trace);
    trace.figures = core::computeFigures(trace.events, kRanks);
    trace.check = core::checkFinalWeights(trace.finalWeights, kLayers);
    return trace;
}

} // namespace rankstep::testing
