// SPDX-License-Identifier: MIT
// What the sandbox (cli/sandbox.h) asks of the Python interpreter running in this process before
// it locks the process down: where its files are, what it has imported, and a finder that says
// why a module cannot be imported in a run.
#pragma once

#include <string>
#include <vector>

namespace rankstep::python {

struct InterpreterFiles {
    std::string standardLibrary;   // its .py modules: "/usr/lib/python3.11"
    std::string extensionModules;  // its lib-dynload folder (C extensions)
    std::vector<std::string> path; // sys.path's absolute entries, in order
};

// From the interpreter running in this process (sys._stdlib_dir, sys.path); all empty when none
// runs. Takes the GIL.
InterpreterFiles interpreterFiles();

// The modules among `names` that sys.modules holds (imported before the learner's code). Takes
// the GIL; empty when no interpreter runs.
std::vector<std::string> importedAmong(const std::vector<std::string> &names);

// Puts a finder first on sys.meta_path that refuses to import `rawMemory` (and their submodules)
// with "NAME cannot be used in a Rankstep run: it would let code read and write the runner's
// memory ..." and `unavailable` with a sentence that the sandbox loads no new native code. The
// words only: the learner's code can remove the finder, the sandbox's walls hold without it.
// Takes the GIL; false when no interpreter runs or the finder could not be installed.
bool refuseImports(const std::vector<std::string> &rawMemory,
                   const std::vector<std::string> &unavailable);

} // namespace rankstep::python
