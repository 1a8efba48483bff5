// SPDX-License-Identifier: MIT
#pragma once

#include "core/error.h"

#include <string>
#include <string_view>
#include <vector>

namespace rankstep::io {

// One check of a PyTorch lesson: "weights", "all-reduces", ... and what was found.
struct TorchCheck {
    std::string name;
    bool passed = false;
    std::string message;
};

struct TorchRankLosses {
    int rank = 0;
    std::vector<double> losses;    // what the learner logged, one a step
    std::vector<double> gradNorms; // run.log(loss, norm)'s norms, one a step; often none
    double seconds = 0;            // in the learner's train(run)
    int optimizerSteps = 0;
    int allReduces = 0; // DDP's, counted by a communication hook
};

// The report of `rankstep-cli lesson NAME FILE --json OUT` for a PyTorch lesson
// (core/real/rankstep_real/torchjudge.py, which decides outside the ranks).
struct TorchLessonReport {
    std::string check; // "loop", "amp", "ddp", "ddp_accum", "zero", "fsdp", "checkpoint", ...
    bool solved = false;
    double wallSeconds = 0;
    double initLoss = 0, expectedInitLoss = 0;
    std::vector<TorchCheck> checks;
    std::vector<double> referenceLosses; // the reference loop's, one a step
    // The gradient norm before clipping of the reference loop, one a step (the checklist lesson;
    // empty for the others), and the norm it clips to (0: none).
    std::vector<double> referenceGradNorms;
    double clipNorm = 0;
    std::vector<TorchRankLosses> ranks;
};

// A damaged or foreign file is an Error of kind Usage naming the member.
core::Result<TorchLessonReport> torchLessonReportFromJson(std::string_view text);

} // namespace rankstep::io
