// SPDX-License-Identifier: MIT
// The pipeline bubble: how much of the ranks' time a run spent idle, against GPipe's formula.
#pragma once

#include "trace.h"

namespace rankstep::core {

// The ranks' idle time over end time x ranks, from 0 to 1; 0 for a run without events.
double idleShare(const Trace &trace);

// GPipe's idle fraction (p - 1) / (m + p - 1) for p stages and m micro-batches (both >= 1).
double bubbleFormula(int stages, int microBatches);

} // namespace rankstep::core
