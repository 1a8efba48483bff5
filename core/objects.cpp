// SPDX-License-Identifier: MIT
#include "objects.h"

#include "attention.h"

namespace rankstep::core {

const char *kindName(ObjectKind kind)
{
    switch (kind) {
        case ObjectKind::Weight:
            return "Weight";
        case ObjectKind::OptState:
            return "OptState";
        case ObjectKind::Activation:
            return "Activation";
        case ObjectKind::ActivationGrad:
            return "ActivationGrad";
        case ObjectKind::WeightGrad:
            return "WeightGrad";
        case ObjectKind::KeysValues:
            return "KeysValues";
    }
    return "?";
}

const char *kindWords(ObjectKind kind)
{
    switch (kind) {
        case ObjectKind::Weight:
            return "weight";
        case ObjectKind::OptState:
            return "optimizer state";
        case ObjectKind::Activation:
            return "activation";
        case ObjectKind::ActivationGrad:
            return "activation gradient";
        case ObjectKind::WeightGrad:
            return "weight gradient";
        case ObjectKind::KeysValues:
            return "keys and values";
    }
    return "?";
}

std::string describe(const Object &object)
{
    std::string text =
        std::string(kindName(object.kind)) + "(layer=" + std::to_string(object.layer);
    if (object.kind == ObjectKind::Weight || object.kind == ObjectKind::OptState)
        text += ", step=" + std::to_string(object.step);
    if (hasBatches(object.kind))
        text += ", batches=" + formatSet(object.batches);
    if (hasShards(object.kind))
        text += ", shards=" + formatSet(object.shards) + ", total=" + std::to_string(object.total);
    // Tensor and sequence parallelism: only where set, so that every older repr stays.
    if (object.isSequenceShard() || object.partial)
        text += ", shards=" + formatSet(object.shards) + ", total=" + std::to_string(object.total);
    if (object.partial)
        text += ", partial=True";
    if (object.block != 0)
        text += ", block=" + std::to_string(object.block);
    if (object.slice)
        text += ", split='tensor'";
    if (object.expert >= 0)
        text += ", expert=" + std::to_string(object.expert);
    // Context parallelism: a chunk's (or keys and values') chunks of the context group.
    if (object.context && object.kind != ObjectKind::WeightGrad)
        text +=
            ", chunks=" + formatSet(object.shards) + ", context=" + std::to_string(object.total);
    else if (object.context)
        text += ", context='partial'";
    // Blockwise attention: the chunks whose keys and values an unfinished output has seen.
    if (isUnfinishedAttention(object))
        text += ", attended=" + formatSet(attendedChunks(object));
    return text + ")";
}

} // namespace rankstep::core
