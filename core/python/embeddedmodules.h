// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

namespace rankstep::python {

struct EmbeddedModule {
    const char *name;
    const char *source;
};

// The Python modules built into the runtime (lib, drawing, chalk, _rankstep_support).
const std::vector<EmbeddedModule> &embeddedModules();

} // namespace rankstep::python
