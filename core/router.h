// SPDX-License-Identifier: MIT
// The router of a mixture-of-experts layer (docs/simulation.md, "Expert parallelism"): which
// expert each token (a batch, in the puzzle) goes to. Fixed by the run, not learned, so that a
// learner's program and the checks agree on it.
#pragma once

#include "indexset.h"

namespace rankstep::core {

// The most experts a layer has (an object keeps its expert in 16 bits), and the largest skew a
// cost file or trace may give.
inline constexpr int kMostExperts = 32767;
inline constexpr int kMostRouterSkew = 1 << 16;

// The expert, from 0 to experts - 1, that `batch` goes to. An even router (skew 0) sends batch b
// to expert b mod experts. A skew of k sends, of every experts + k batches in a row, the first
// k + 1 to expert 0 and one to each other expert: expert 0 gets k more tokens than the others.
int expertOf(int batch, int experts, int skew);
// The batches of 0..batches-1 that go to `expert`.
IndexSet batchesOfExpert(int expert, int experts, int skew, int batches);

} // namespace rankstep::core
