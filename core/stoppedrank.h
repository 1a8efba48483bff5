// SPDX-License-Identifier: MIT
// A run that one rank's own error ended while other ranks waited for that rank: the error is why
// they waited, so what is said of the run leads with it and then names who waited (the verdict,
// the figures' summary).
#pragma once

#include "trace.h"

#include <string>

namespace rankstep::core {

// Whether the run ended on an error of one rank's own (its code raised, or an operation it called
// was refused), not on a hang, a mismatch or a stop.
bool endedOnARanksOwnError(const Trace &trace);

// What the ranks that waited for the rank an error of its own stopped wait in, from the
// diagnosis: "rank 0 waits for it in allreduce(layer 0)", "ranks 0 and 1 wait for it in ..." (the
// first waiter's call and every rank waiting in it); empty when none waited for it.
std::string waitingOnTheStoppedRank(const Trace &trace);

} // namespace rankstep::core
