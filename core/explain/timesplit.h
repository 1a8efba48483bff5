// SPDX-License-Identifier: MIT
// A laid-out run's time as large training jobs are read (docs/explain.md, "Time by parallelism"):
// compute, the communication of each parallelism, and the bubble (the ranks' idle time).
#pragma once

#include "core/layout.h"
#include "core/trace.h"

#include <array>
#include <optional>
#include <string>

namespace rankstep::explain {

struct TimeSplit {
    core::SimTime compute; // forward, backward, loss, update: summed over every rank
    // Communication by the axis its ranks differ along (core::kAxes' order): a collective of
    // model.group("tensor") is tensor's, a pass_to to the next stage pipeline's.
    std::array<core::SimTime, core::kAxes.size()> axes{};
    core::SimTime other; // communication among ranks that differ along several axes
    core::SimTime idle;  // waiting, summed over every rank
    int ranks = 0;       // what the sums divide by for a rank's mean
    // Whether the run has pipeline stages: only then is the waiting a pipeline's bubble (a context
    // ring's ranks wait for the next chunk's keys and values, an expert's for its tokens).
    bool pipelined = false;
    bool milliseconds = false; // a real-scale run's: its means are said in ms
};

// The split of a run laid out in more than one dimension (config.layout not plain); none for a
// plain run, whose ranks' busy, idle and communication say it all.
std::optional<TimeSplit> timeSplit(const core::Trace &trace);

// "A rank's mean time: compute 61.2 (55.0%), tensor 20.1 (18.1%), pipeline 3.2 (2.9%), data 4.0
// (3.6%), bubble 22.7 (20.4%)": the axes with time, in steps.
std::string timeSplitSentence(const TimeSplit &split);

} // namespace rankstep::explain
