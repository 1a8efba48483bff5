// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"

#include <cstddef>
#include <string>
#include <vector>

namespace rankstep::cli {

// Where a schedule came from, for the program's comments (all of it learner-made text, written
// escaped: see commentText) and the model it trains.
struct TorchExportSource {
    std::string fileName;                 // as the learner named the file
    std::string function;                 // the rank function that ran
    std::vector<std::string> sourceLines; // the file's lines, for the comments; may be empty
    int hidden = 512;                     // the model's sizes and seed, as `real` takes them
    int length = 256;
    int seed = 0;
};

struct TorchProgram {
    std::string text;               // the program; empty when `refused`
    std::vector<std::string> notes; // what the reader of the program should know, one a line
    std::string refused;            // why the schedule cannot be written, in a sentence
};

// The largest program written; a schedule whose program would be larger is refused.
inline constexpr std::size_t kMaxTorchProgramBytes = std::size_t(64) << 20;

// A standalone torch.distributed program that runs the schedule of `trace` (a run that
// finished: each rank's operations in order, with their layers, batches, shards, peers and
// groups) on real tensors, under torchrun (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and
// MASTER_PORT from the environment; NCCL and the rank's GPU when CUDA is there, else gloo),
// with `--check` to compare its final weights with one process's. It trains the model and data
// of `rankstep-cli real` (rankstep_real/tensors.py, built in).
TorchProgram torchProgram(const core::Trace &trace, const TorchExportSource &source);

// `text` as the rest of one Python comment line: printable ASCII stays, anything else (line
// breaks, control characters, every non-ASCII character) is written as a \x, \u or \U escape,
// so nothing in it can end the comment or change how Python reads the file.
std::string commentText(const std::string &text);

} // namespace rankstep::cli
