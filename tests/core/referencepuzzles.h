// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine.h"
#include "core/model.h"

#include <functional>
#include <string>
#include <vector>

namespace rankstep::testing {

// The notebook's eight reference solutions, written as C++ rank programs.
core::RankTask basic(core::Model &m);
core::RankTask gradAccum(core::Model &m);
core::RankTask ddp(core::Model &m);
core::RankTask wsdp(core::Model &m);
core::RankTask fsdp(core::Model &m);
core::RankTask pipeline(core::Model &m);
core::RankTask gpipe(core::Model &m);
core::RankTask pipelineFsdp(core::Model &m);

struct PuzzleCase {
    std::string name;
    std::function<core::RankTask(core::Model &)> program;
    int ranks, layers, batches;
};
const std::vector<PuzzleCase> &referencePuzzles();
// The trace of the reference puzzle `name` at its settings; std::invalid_argument for an unknown
// name.
core::Trace runReference(const std::string &name);

// Runs one program on every rank of a fresh engine and returns the trace.
core::Trace runProgram(const core::RunConfig &config,
                       const std::function<core::RankTask(core::Model &)> &program,
                       core::RunLimits limits = {});

} // namespace rankstep::testing
