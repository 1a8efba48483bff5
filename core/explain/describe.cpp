// SPDX-License-Identifier: MIT
#include "describe.h"

#include "explainsentences.h"

#include "core/attention.h"

#include <algorithm>
#include <map>

namespace rankstep::explain {
namespace {

// "activations" or "activation" said with "for batch 0" or "for batches 0-3" after it.
std::string forBatches(const core::Phrasebook &words, std::string text,
                       const core::IndexSet &batches)
{
    return words.say(batches.size() == 1 ? sentence::kForBatch : sentence::kForBatches,
                     {std::move(text), formatRanges(batches)});
}

} // namespace

std::string timeText(bool milliseconds, core::SimTime time, const core::Phrasebook &words)
{
    return milliseconds ? words.say(sentence::kMilliseconds, {time.toString()}) : time.toString();
}

std::string timeText(const core::Trace &trace, core::SimTime time, const core::Phrasebook &words)
{
    return timeText(trace.config.cost.realScale(), time, words);
}

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

std::string describeGroup(const ObjectGroup &group, const core::Phrasebook &words)
{
    std::string text = words.say(
        group.count == 1 ? core::kindWords(group.kind) : core::kindsPhrase(group.kind), {});
    if (!group.layers.empty())
        text = words.say(group.layers.size() == 1 ? core::sentence::kOfLayer : sentence::kOfLayers,
                         {std::move(text), formatRanges(group.layers)});
    if (group.inputGradient)
        text =
            words.say(group.layers.empty() ? sentence::kOfModelInput : sentence::kAndOfModelInput,
                      {std::move(text)});
    if (!group.batches.empty())
        text = forBatches(words, std::move(text), group.batches);
    if (group.total > 1)
        text =
            words.say(group.shards.size() == 1 ? sentence::kWithShard : sentence::kWithShards,
                      {std::move(text), formatRanges(group.shards), std::to_string(group.total)});
    return words.say(group.count == 1 ? sentence::kOneObject : sentence::kObjects,
                     {std::move(text), std::to_string(group.count), std::to_string(group.bytes)});
}

std::string describeObject(const LiveObject &object, const core::Phrasebook &words)
{
    const core::Object &o = object.object;
    std::string text = words.say(sentence::kTheKindOfLayer,
                                 {words.say(core::kindWords(o.kind), {}), std::to_string(o.layer)});
    if (core::hasBatches(o.kind))
        text = forBatches(words, std::move(text), o.batches);
    if (core::hasShards(o.kind) && o.total > 1)
        text = words.say(sentence::kWithShards,
                         {std::move(text), formatRanges(o.shards), std::to_string(o.total)});
    return words.say(sentence::kBytesAtLine,
                     {std::move(text), std::to_string(object.bytes), std::to_string(object.line)});
}

std::string describeUnfinished(const core::Object &object, int contextSize,
                               const core::Phrasebook &words)
{
    if (core::isUnfinishedAttention(object)) {
        // The layer whose attention it is: a forward's output is the next layer's input, a
        // backward's input gradient the layer before's output gradient (core/context.cpp).
        const char *pattern = sentence::kAttentionWeightGradient;
        int layer = object.layer;
        if (object.kind == core::ObjectKind::Activation) {
            pattern = sentence::kAttentionOutput;
            layer = object.layer - 1;
        } else if (object.kind == core::ObjectKind::ActivationGrad) {
            pattern = sentence::kAttentionInputGradient;
            layer = object.layer + 1;
        }
        std::string text =
            forBatches(words, words.say(pattern, {std::to_string(layer)}), object.batches);
        // A weight gradient sums over the rank's chunk; its chunk is its input gradient's.
        if (object.kind != core::ObjectKind::WeightGrad && !object.shards.empty())
            text = words.say(sentence::kOfChunk, {std::move(text), formatRanges(object.shards)});
        const int chunks = object.kind == core::ObjectKind::WeightGrad ? contextSize : object.total;
        return words.say(sentence::kChunksSeen,
                         {std::move(text), std::to_string(core::attendedChunks(object).size()),
                          std::to_string(std::max(chunks, 1))});
    }
    if (object.partial)
        return words.say(sentence::kTensorPartialSum, {});
    if (object.context && object.kind == core::ObjectKind::WeightGrad)
        return words.say(sentence::kContextPartialSum, {});
    return {};
}

bool isUnfinished(const core::Object &object)
{
    return core::isUnfinishedAttention(object) || object.partial ||
           (object.context && object.kind == core::ObjectKind::WeightGrad);
}

std::string describeUnfinishedHeld(const std::vector<LiveObject> &objects, int contextSize,
                                   const core::Phrasebook &words, std::size_t most)
{
    std::string text;
    std::size_t named = 0, more = 0;
    for (const LiveObject &held : objects) {
        std::string lacks = describeUnfinished(held.object, contextSize, words);
        if (lacks.empty())
            continue;
        if (named == most) {
            ++more;
            continue;
        }
        // An unfinished attention's words name it; a partial sum's say only what it lacks.
        if (!core::isUnfinishedAttention(held.object)) {
            std::string name = words.say(sentence::kTheKindOfLayer,
                                         {words.say(core::kindWords(held.object.kind), {}),
                                          std::to_string(held.object.layer)});
            if (core::hasBatches(held.object.kind))
                name = forBatches(words, std::move(name), held.object.batches);
            lacks = words.say(sentence::kWhere, {std::move(name), std::move(lacks)});
        }
        text += (named++ == 0 ? "" : ", ") + lacks;
    }
    if (more > 0)
        text = words.say(sentence::kAndMore, {std::move(text), std::to_string(more)});
    return text;
}

std::string describeRemoval(const core::Trace &trace, int rank, const LiveObject &object,
                            const core::Phrasebook &words)
{
    for (std::size_t i = object.change + 1; i < trace.changes.size(); ++i) {
        const core::StorageChange &c = trace.changes[i];
        if (c.rank == rank && c.map == object.map && c.key == object.key)
            return words.say(sentence::kAtTime, {timeText(trace, changeTime(trace, i), words)});
    }
    return words.say(sentence::kEndOfRun, {});
}

} // namespace rankstep::explain
