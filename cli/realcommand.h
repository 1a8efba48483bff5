// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace rankstep::cli {

// `rankstep-cli real FILE --function F --ranks R --layers L --batches B ...` (issue 17): the
// program is simulated first, then run by one process per rank on real tensors through
// torch.distributed (core/real/rankstep_real), and the ranks' final weights are compared with one
// process training the same model on every batch. Runs in the unsandboxed supervisor, which
// starts the rank processes; never inside the runner that hosts learner code.
int realCommand(const std::vector<std::string> &args);
// realCommand with a usage error or an unexpected one turned into its message and exit code.
int runReal(const std::vector<std::string> &args);

// The folder holding the rankstep_real package: RANKSTEP_REAL_DIR, else the installed
// share/rankstep/python beside bin/, else the source tree's core/real.
std::string realPackageDir();

} // namespace rankstep::cli
