// SPDX-License-Identifier: MIT
// A pipeline run's shape and its bubble, read from its trace alone (docs/explain.md, "The
// pipeline bubble"): which rank forwards which layers gives the stages and the chunks each rank
// holds, the forwards of layer 0 the micro-batches, and split backwards the zero-bubble schedule.
#pragma once

#include "core/sentences.h"
#include "core/trace.h"

#include <optional>
#include <string>

namespace rankstep::explain {

enum class PipelineSchedule { GPipe, OneFOneB, Interleaved, ZeroBubble };

struct PipelineShape {
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    int stages = 0;        // p: the ranks that forward layers
    int microBatches = 0;  // m: the forwards of layer 0
    int virtualStages = 1; // v: the runs of consecutive layers each rank forwards (the most)
    // A stage's mean times per micro-batch, in steps: forward, input gradient (or a whole
    // backward), weight gradient (0 without split backwards).
    double forward = 0, backwardInput = 0, backwardWeight = 0;
    // The bubble as a share of the ideal time (m micro-batches of one stage's work): measured,
    // the time a rank neither forwards nor backwards (idle, communicating; updates and the loss
    // aside) over the time it does, averaged over ranks; and the schedule's formula.
    double measured = 0, formula = 0;
};

// The shape of a run whose ranks forward disjoint sets of layers (at least two ranks); none for
// any other run (data parallel, sharded, a single rank, no forward).
std::optional<PipelineShape> pipelineShape(const core::Trace &trace);

// The schedule's formula for this shape at another number of micro-batches (m > 0): what a
// lesson's experiments over m expect before each runs.
double scheduleFormula(const PipelineShape &shape, int microBatches);

const char *scheduleName(PipelineSchedule schedule); // "1f1b", "interleaved_1f1b", ...
// "(p-1)/m", "(p-1)/(v*m)", "(p-1)(F+B-W)/(m(F+B+W))".
const char *formulaText(PipelineSchedule schedule);
// "Measured bubble 19% of the ideal time (idle or communicating, ...); the interleaved 1F1B
// formula (p-1)/(v*m) with p = 4, v = 2, m = 8 gives 19%."
std::string pipelineBubbleSentence(const PipelineShape &shape,
                                   const core::Phrasebook &words = core::english());

} // namespace rankstep::explain
