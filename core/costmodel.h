// SPDX-License-Identifier: MIT
#pragma once

#include "objects.h"
#include "opkind.h"
#include "simtime.h"

#include <cstdint>
#include <optional>
#include <string>

namespace rankstep::core {

// The links of a real-scale cost model (docs/cost-models.md): collectives and messages cost what
// their bytes take, by ring algorithms, on the slowest link their ranks use.
struct Network {
    int gpusPerNode = 8;           // ranks r and s share a node when r / gpusPerNode == s / ...
    double intraNodeBandwidth = 0; // bytes per second, each way
    double interNodeBandwidth = 0; // bytes per second, each way
    double latencySeconds = 0;     // per message, per step of a ring
    bool operator==(const Network &) const = default;
};

// How long each operation takes and how big objects are. The defaults are docs/simulation.md's
// (the preset `notebook`); a real-scale preset (docs/cost-models.md) sets the times from FLOPs,
// the sizes from parameters, and a network, and then a tick is a microsecond: what a simulated
// trace calls a step is a millisecond.
struct CostModel {
    SimTime forwardPerBatch = SimTime::steps(1);
    SimTime backwardPerBatch = SimTime::steps(1);
    // The two halves of a backward (backward_input, backward_weight): half of it each unless a
    // cost file says otherwise. A trace records neither: its events carry their durations.
    SimTime backwardInputPerBatch = SimTime::fromTicks(500);
    SimTime backwardWeightPerBatch = SimTime::fromTicks(500);
    SimTime loss = SimTime::steps(0);
    SimTime update = SimTime::fromTicks(500); // a whole layer's; a shard's is its share at scale
    SimTime allreduce = SimTime::fromTicks(300);
    SimTime allgather = SimTime::fromTicks(300);
    SimTime scatterreduce = SimTime::fromTicks(300);
    SimTime passTo = SimTime::fromTicks(200);
    SimTime receive = SimTime::fromTicks(200);
    Sizes sizes;
    // The router of a mixture-of-experts layer (core/router.h): 0 sends the tokens evenly; k
    // gives expert 0 k more of every EXPERT + k tokens (a cost file's "router_skew").
    int routerSkew = 0;
    std::string name = "notebook";
    std::optional<Network> network; // set: communication costs its bytes (a real-scale preset)
    // The bytes of one device's memory, what a rank's peak must fit in (a cost file's
    // "device": {"memory_bytes"}); 0 when not known. Only said and drawn: no run stops on it.
    std::int64_t deviceMemory = 0;

    bool realScale() const { return network.has_value(); }
    // Gives each half of the backward half of it (the second the rest of an odd tick).
    void splitBackwardEvenly();
};

// Whether `cost` is the notebook's in every time and size (whatever its name says): the one the
// lessons' targets are figures of.
bool isNotebookCost(const CostModel &cost);

// The most device memory a cost file or a trace may give: 10^18 bytes, an exabyte.
inline constexpr std::int64_t kMostDeviceMemory = 1'000'000'000'000'000'000;

// A ticks-per-second constant for real-scale presets: a tick is a microsecond.
inline constexpr double kRealTicksPerSecondOfCost = 1e6;

// How long a collective of `op` takes for a group of `groupSize` ranks, each giving an object of
// `bytes` (allgather: each rank's shard; allreduce and scatterreduce: the whole value reduced),
// `acrossNodes` when the group spans more than one node. The notebook's constant without a
// network; else a ring: allreduce 2(n-1)/n of the bytes, scatterreduce (n-1)/n, allgather (n-1)
// shards, plus a latency per ring step. alltoall: the allgather's constant, or `bytes` (the most
// one member sends the others) in n-1 pairwise steps.
SimTime collectiveDuration(const CostModel &cost, OpKind op, std::int64_t bytes, int groupSize,
                           bool acrossNodes);
// A pass_to or receive of an object of `bytes` (0: no puzzle object) between two ranks.
SimTime messageDuration(const CostModel &cost, OpKind op, std::int64_t bytes, bool acrossNodes);
// Whether ranks `a` and `b` sit on different nodes (never without a network).
bool acrossNodes(const CostModel &cost, int a, int b);

} // namespace rankstep::core
