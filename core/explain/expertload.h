// SPDX-License-Identifier: MIT
// The experts' load of a run with expert parallelism (docs/explain.md, "The experts' load"): how
// many tokens the router sends each expert, and how long the ranks holding it wait, which is where
// an uneven router (a cost file's "router_skew") shows.
#pragma once

#include "core/trace.h"

#include <optional>
#include <string>
#include <vector>

namespace rankstep::explain {

struct ExpertShare {
    int expert = 0;
    int tokens = 0;         // the batches of the run the router sends it
    std::vector<int> ranks; // the ranks holding it (model.coords["expert"] == expert), ascending
    core::SimTime idle;     // its ranks' mean idle time
};

struct ExpertLoad {
    int batches = 0;
    int skew = 0;                     // the cost model's router_skew
    std::vector<ExpertShare> experts; // by expert number
    bool milliseconds = false;        // a real-scale run's: its idle times are said in ms
};

// None for a run without experts (--expert 1) or whose layout does not fit its ranks.
std::optional<ExpertLoad> expertLoad(const core::Trace &trace);

// "The router (skew 2) sends expert 0 3 of the 4 tokens, expert 1 1; the ranks of expert 1 wait
// 4.0 steps on average for the busiest expert's, expert 0's 0.0." Up to 8 experts by name; more
// are told as the busiest and the least busy.
std::string expertLoadSentence(const ExpertLoad &load);

} // namespace rankstep::explain
