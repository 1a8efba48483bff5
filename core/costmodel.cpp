// SPDX-License-Identifier: MIT
#include "costmodel.h"

#include <algorithm>
#include <cmath>

namespace rankstep::core {
namespace {

SimTime seconds(double s)
{
    return SimTime::fromTicks(std::llround(std::max(0.0, s) * kRealTicksPerSecondOfCost));
}

double bandwidth(const Network &network, bool across)
{
    return across ? network.interNodeBandwidth : network.intraNodeBandwidth;
}

} // namespace

bool isNotebookCost(const CostModel &cost)
{
    const CostModel n;
    return !cost.network && cost.sizes == n.sizes && cost.routerSkew == n.routerSkew &&
           cost.forwardPerBatch == n.forwardPerBatch &&
           cost.backwardPerBatch == n.backwardPerBatch &&
           cost.backwardInputPerBatch == n.backwardInputPerBatch &&
           cost.backwardWeightPerBatch == n.backwardWeightPerBatch && cost.loss == n.loss &&
           cost.update == n.update && cost.allreduce == n.allreduce &&
           cost.allgather == n.allgather && cost.scatterreduce == n.scatterreduce &&
           cost.passTo == n.passTo && cost.receive == n.receive;
}

void CostModel::splitBackwardEvenly()
{
    backwardInputPerBatch = SimTime::fromTicks(backwardPerBatch.ticks() / 2);
    backwardWeightPerBatch = backwardPerBatch - backwardInputPerBatch;
}

bool acrossNodes(const CostModel &cost, int a, int b)
{
    if (!cost.network || cost.network->gpusPerNode <= 0)
        return false;
    return a / cost.network->gpusPerNode != b / cost.network->gpusPerNode;
}

SimTime collectiveDuration(const CostModel &cost, OpKind op, std::int64_t bytes, int groupSize,
                           bool across)
{
    if (!cost.network) {
        switch (op) {
            case OpKind::AllReduce:
                return cost.allreduce;
            case OpKind::AllGather:
            case OpKind::AllToAll: // the notebook has none: an allgather's constant
                return cost.allgather;
            default:
                return cost.scatterreduce;
        }
    }
    const Network &network = *cost.network;
    const double n = std::max(1, groupSize);
    const double b = double(bytes);
    double moved = 0; // bytes each rank sends over its link
    double steps = n - 1;
    switch (op) {
        case OpKind::AllReduce: // reduce-scatter, then all-gather: 2(n-1)/n of the value
            moved = 2.0 * (n - 1) / n * b;
            steps = 2 * (n - 1);
            break;
        case OpKind::AllGather: // every rank's shard goes round: (n-1) shards
            moved = (n - 1) * b;
            break;
        case OpKind::AllToAll: // pairwise: what the busiest member sends the others, n-1 steps
            moved = b;
            break;
        default: // scatter-reduce: (n-1)/n of the value
            moved = (n - 1) / n * b;
            break;
    }
    return seconds(moved / bandwidth(network, across) + steps * network.latencySeconds);
}

SimTime messageDuration(const CostModel &cost, OpKind op, std::int64_t bytes, bool across)
{
    if (!cost.network)
        return op == OpKind::PassTo ? cost.passTo : cost.receive;
    // The sender hands the message over at once (docs/simulation.md, "Beyond the notebook"); the
    // receiver pays the transfer.
    if (op == OpKind::PassTo)
        return seconds(cost.network->latencySeconds);
    return seconds(double(bytes) / bandwidth(*cost.network, across) + cost.network->latencySeconds);
}

} // namespace rankstep::core
