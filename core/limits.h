// SPDX-License-Identifier: MIT
// The sizes a simulated run may have, shared by the command line, lessons, sweeps and
// demonstrations (the trace readers accept more: a trace may come from a later version).
#pragma once

namespace rankstep::core {

// The most ranks of a run: the 16,384 GPUs of Llama 3 405B's training run (Dubey et al., 2024,
// Table 4).
inline constexpr int kMostRanks = 16384;

} // namespace rankstep::core
