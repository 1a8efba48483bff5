// SPDX-License-Identifier: MIT
// The operations a rank performs, by kind: what an event of a trace records and what the cost
// model prices, in a header of its own so that neither of those two needs the other's.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rankstep::core {

enum class OpKind : std::uint8_t {
    Forward,
    Backward,
    Loss,
    Update,
    AllReduce,
    AllGather,
    ScatterReduce,
    PassTo,
    Receive,
    // The backward split in two (docs/simulation.md, "Beyond the notebook"): the input gradient
    // (B) and the weight gradient (W). Last, so that every older trace keeps its numbers.
    BackwardInput,
    BackwardWeight,
    // Each member sends a piece to every member (docs/simulation.md, "Expert parallelism"). After
    // the split backward, so that every older trace keeps its numbers.
    AllToAll,
};
inline constexpr int kOpCount = int(OpKind::AllToAll) + 1;
// The notebook's names: "forward", "allreduce", "pass_to", "receive", ... Inline, as the two
// below: every collective names its operation to the engine's admission check, and the figures
// ask each event whether it communicates.
inline const char *opName(OpKind op)
{
    constexpr const char *kNames[kOpCount] = {
        "forward",       "backward", "loss",    "update",         "allreduce",       "allgather",
        "scatterreduce", "pass_to",  "receive", "backward_input", "backward_weight", "alltoall"};
    return std::size_t(op) < std::size_t(kOpCount) ? kNames[std::size_t(op)] : "?";
}
inline bool isCollective(OpKind op)
{
    return op == OpKind::AllReduce || op == OpKind::AllGather || op == OpKind::ScatterReduce ||
           op == OpKind::AllToAll;
}
inline bool isCommunication(OpKind op) // collectives and point-to-point
{
    return isCollective(op) || op == OpKind::PassTo || op == OpKind::Receive;
}
// A backward or either half of one.
inline bool isBackward(OpKind op)
{
    return op == OpKind::Backward || op == OpKind::BackwardInput || op == OpKind::BackwardWeight;
}

} // namespace rankstep::core
