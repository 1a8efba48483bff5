// SPDX-License-Identifier: MIT
// The lessons' formulas beside what a run measured: the pipeline bubble, and the model-state
// memory of a rank (docs/explain.md).
#pragma once

#include "core/lessons/lesson.h"
#include "core/sentences.h"
#include "core/trace.h"

#include <cstdint>
#include <string>

namespace rankstep::explain {

// A pipeline of p stages fed m micro-batches idles (p-1)/(m+p-1) of its time (GPipe's bubble).
double bubbleFormula(int stages, int microBatches);
// The share of the run's end time the ranks spent idle, on average.
double measuredIdleShare(const core::Trace &trace);
// "Idle 45% of the time; the bubble formula (p-1)/(m+p-1) with p = 4, m = 4 gives 43%."
std::string bubbleSentence(const core::Trace &trace,
                           const core::Phrasebook &words = core::english());

// The weights and optimizer states of every layer, divided among `sharers` ranks that shard them
// (1: each rank holds the whole model).
std::int64_t modelStateBytes(const core::RunConfig &config, int sharers);

// How many ranks share one copy of the model's state in a data-parallel (1) or sharded (all)
// lesson; 0 for the others (a pipeline splits the layers instead).
int modelSharers(lessons::Parallelism parallelism, int ranks);
// "Each rank should hold 1048576 B of weights and optimizer states (2 layers × 2 × 512²,
// divided among 1 rank(s) that share them)."
std::string modelStateSentence(const core::RunConfig &config, int sharers,
                               const core::Phrasebook &words = core::english());
// The lesson's formula beside the run's measurement (its lesson.json's "parallelism"): the bubble
// for a pipeline lesson, the model state of a rank for a data-parallel or sharded one; "" for the
// others.
std::string lessonFormulaSentence(const core::Trace &trace, lessons::Parallelism parallelism,
                                  const core::Phrasebook &words = core::english());

} // namespace rankstep::explain
