// SPDX-License-Identifier: MIT
#include "describe.h"

#include <algorithm>
#include <map>

namespace rankstep::explain {
namespace {

std::string plural(const char *words, int count)
{
    return std::string(words) + (count == 1 ? "" : "s");
}

std::string batchWords(const core::IndexSet &batches)
{
    return (batches.size() == 1 ? "batch " : "batches ") + formatRanges(batches);
}

} // namespace

std::string formatRanges(const core::IndexSet &set)
{
    std::string text;
    int runStart = -1, previous = -2;
    const auto flush = [&] {
        if (runStart < 0)
            return;
        if (!text.empty())
            text.append(", ");
        text.append(std::to_string(runStart));
        if (previous > runStart)
            text.append("-").append(std::to_string(previous));
    };
    for (int i = set.first(); i >= 0 && i <= set.last(); ++i) {
        if (!set.contains(i))
            continue;
        if (i != previous + 1) {
            flush();
            runStart = i;
        }
        previous = i;
    }
    flush();
    return text;
}

std::vector<ObjectGroup> groupByKind(const std::vector<LiveObject> &objects)
{
    std::map<core::ObjectKind, ObjectGroup> groups;
    for (const LiveObject &object : objects) {
        ObjectGroup &group = groups[object.object.kind];
        group.kind = object.object.kind;
        ++group.count;
        group.bytes += object.bytes;
        if (object.object.layer >= 0) // the first backward's input gradient is of "layer -1"
            group.layers.insert(object.object.layer);
        else
            group.inputGradient = true;
        if (core::hasBatches(object.object.kind))
            group.batches |= object.object.batches;
        if (core::hasShards(object.object.kind) && object.object.total > 1) {
            group.shards |= object.object.shards;
            group.total = std::max(group.total, object.object.total);
        }
    }
    std::vector<ObjectGroup> sorted;
    for (auto &[kind, group] : groups)
        sorted.push_back(group);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const ObjectGroup &a, const ObjectGroup &b) { return a.bytes > b.bytes; });
    return sorted;
}

std::string describeGroup(const ObjectGroup &group)
{
    std::string text = plural(core::kindWords(group.kind), group.count);
    if (!group.layers.empty())
        text +=
            (group.layers.size() == 1 ? " of layer " : " of layers ") + formatRanges(group.layers);
    if (group.inputGradient)
        text += group.layers.empty() ? " of the model's input" : " and of the model's input";
    if (!group.batches.empty())
        text += " for " + batchWords(group.batches);
    if (group.total > 1)
        text += (group.shards.size() == 1 ? ", shard " : ", shards ") + formatRanges(group.shards) +
                " of " + std::to_string(group.total);
    return text + " (" + std::to_string(group.count) +
           (group.count == 1 ? " object, " : " objects, ") + std::to_string(group.bytes) + " B)";
}

std::string describeObject(const LiveObject &object)
{
    const core::Object &o = object.object;
    std::string text =
        std::string("the ") + core::kindWords(o.kind) + " of layer " + std::to_string(o.layer);
    if (core::hasBatches(o.kind))
        text += " for " + batchWords(o.batches);
    if (core::hasShards(o.kind) && o.total > 1)
        text += ", shards " + formatRanges(o.shards) + " of " + std::to_string(o.total);
    return text + " (" + std::to_string(object.bytes) + " B, line " + std::to_string(object.line) +
           ")";
}

std::string describeRemoval(const core::Trace &trace, int rank, const LiveObject &object)
{
    const std::vector<core::SimTime> times = changeTimes(trace);
    for (std::size_t i = object.change + 1; i < trace.changes.size(); ++i) {
        const core::StorageChange &c = trace.changes[i];
        if (c.rank == rank && c.map == object.map && c.key == object.key)
            return "t " + times[i].toString();
    }
    return "the end of the run";
}

} // namespace rankstep::explain
