// SPDX-License-Identifier: MIT
// Blockwise attention (docs/simulation.md, "Overlapped ring attention"): the output of a context
// chunk's forward (an Activation) or backward (its WeightGrad and ActivationGrad) that has seen the
// keys and values of some chunks only keeps those chunks in its `step`, bit c for chunk c (so at
// most kMostAttendedChunks); `step` is 0 once it has seen every chunk, as on every older object.
// Apart from objects.h, which nearly every file includes.
#pragma once

#include "objects.h"

#include <cstdint>

namespace rankstep::core {

// Chunks an unfinished attention can keep in `step` (its bits but the sign's).
inline constexpr int kMostAttendedChunks = 31;

// A chunk's output that lacks some chunks' keys and values.
inline bool isUnfinishedAttention(const Object &object)
{
    return object.context && object.step != 0 && hasBatches(object.kind) &&
           object.kind != ObjectKind::KeysValues;
}

// The chunks an unfinished output has seen (empty unless unfinished).
inline IndexSet attendedChunks(const Object &object)
{
    IndexSet chunks;
    if (!isUnfinishedAttention(object))
        return chunks;
    for (int chunk = 0; chunk < kMostAttendedChunks; ++chunk)
        if ((std::uint32_t(object.step) >> chunk) & 1U)
            chunks.insert(chunk);
    return chunks;
}

} // namespace rankstep::core
