// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace rankstep::cli {

// `explain FILE [run options] [--at TIME|peak] [--target-memory B] [--json]`: runs FILE as `run`
// does and prints why the run behaves as it does (docs/explain.md); exits as `run` would.
int explainCommand(const std::vector<std::string> &rest);
// `compare A B [--json]`: two trace files (JSON or binary) side by side; 0, or 64 when a file
// cannot be read.
int compareCommand(const std::vector<std::string> &rest);

} // namespace rankstep::cli
