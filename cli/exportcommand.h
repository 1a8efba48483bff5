// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace rankstep::cli {

// `rankstep-cli export FILE --function F --ranks R --layers L --batches B --torch OUT.py`: runs
// FILE in the sandbox as `run` does and writes the schedule of the trace that comes back as a
// plain PyTorch program (torchexport.h). The learner's code runs only in the runner; the
// program is written from the checked trace alone.
int exportCommand(const std::vector<std::string> &args);

} // namespace rankstep::cli
