// SPDX-License-Identifier: MIT
// A random trace whose ranks each keep time and follow one of a few patterns of calls, as the
// data-parallel lanes of one pipeline stage do: the worst case for what the views share between
// ranks (memory lines, rows), used by the tests of the session's derived parts and of the series.
#pragma once

#include "core/trace.h"

#include <random>

namespace rankstep::gui::testing {

struct PatternTraceShape {
    int extraRanks = 10; // 2 ranks and up to this many more, less one
    int mostCalls = 12;  // each pattern 1 to this many calls
    // Calls of several kinds with message ids small and large (past the count of events), some
    // sent twice, some never; without, every call is a plain event (a forward) without a link.
    bool kindsAndLinks = true;
    // Each rank's calls in its own order; false: now and then its first and last swapped.
    bool inOrder = true;
};

// A few patterns of calls (each call's start, duration and memory drawn from `random`), a rank
// following one of them, some ranks changed in one call; their events interleaved at random (a
// rank may come before the first of its equals), storage changes after some calls, which may be a
// rank's last. The figures' end time is the last call's end.
core::Trace patternTrace(std::mt19937 &random, const PatternTraceShape &shape = {});

} // namespace rankstep::gui::testing
