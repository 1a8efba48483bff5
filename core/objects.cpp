// SPDX-License-Identifier: MIT
#include "objects.h"

namespace rankstep::core {

bool Object::isComplete() const
{
    if (!hasShards(kind))
        return true;
    return shards.isPrefix(total);
}

bool hasShards(ObjectKind kind)
{
    return kind == ObjectKind::Weight || kind == ObjectKind::OptState ||
           kind == ObjectKind::WeightGrad;
}

bool hasBatches(ObjectKind kind)
{
    return kind == ObjectKind::Activation || kind == ObjectKind::ActivationGrad ||
           kind == ObjectKind::WeightGrad;
}

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
    return text + ")";
}

std::int64_t memoryOf(const Object &object, const Sizes &sizes)
{
    if (hasBatches(object.kind) && object.kind != ObjectKind::WeightGrad)
        return std::int64_t(object.batches.size()) *
               (sizes.activationBytes > 0 ? sizes.activationBytes : sizes.hidden * sizes.length);
    const std::int64_t kindBytes = object.kind == ObjectKind::Weight     ? sizes.weightBytes
                                   : object.kind == ObjectKind::OptState ? sizes.optimizerBytes
                                                                         : sizes.gradientBytes;
    const std::int64_t whole = kindBytes > 0 ? kindBytes : sizes.hidden * sizes.hidden;
    const std::int64_t numerator = whole * std::int64_t(object.shards.size());
    const std::int64_t total = object.total > 0 ? object.total : 1;
    return (2 * numerator + total) / (2 * total);
}

} // namespace rankstep::core
