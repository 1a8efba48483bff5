// SPDX-License-Identifier: MIT
#pragma once

#include "objects.h"
#include "simtime.h"

namespace rankstep::core {

// How long each operation takes and how big objects are. The defaults are docs/simulation.md's.
struct CostModel {
    SimTime forwardPerBatch = SimTime::steps(1);
    SimTime backwardPerBatch = SimTime::steps(1);
    SimTime loss = SimTime::steps(0);
    SimTime update = SimTime::fromTicks(500);
    SimTime allreduce = SimTime::fromTicks(300);
    SimTime allgather = SimTime::fromTicks(300);
    SimTime scatterreduce = SimTime::fromTicks(300);
    SimTime passTo = SimTime::fromTicks(200);
    SimTime receive = SimTime::fromTicks(200);
    Sizes sizes;
};

} // namespace rankstep::core
