// SPDX-License-Identifier: MIT
// The system's Python for a rank of a real run (cli/realrank.h). Unlike Runtime it is not
// isolated: the rank needs PYTHONPATH (where rankstep_real is) and the system's packages (PyTorch).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rankstep::python {

struct SystemModuleRun {
    std::string module;            // imported first: "rankstep_real.rank"
    std::string preamble;          // Python code run in __main__ after the import
    std::vector<std::string> args; // module.prepare's one argument, a list of str
};

// Thrown when the system's Python cannot start; `message` is CPython's.
struct PythonNotStarted {
    std::string message;
};

// Starts the system's Python, imports the module, runs the preamble and calls
// module.prepare(args); then calls `between` (while prepare's result is held: the rank locks
// itself down there) and returns module.run(prepared) as an int (0 when it returns another
// value). On a Python exception, prints it as the interpreter does (SystemExit ends the process)
// and returns nothing. Throws PythonNotStarted when Python cannot start. Once a process: never
// in a process that has a Runtime, and the interpreter is not shut down at the end (threads that
// PyTorch started may still hold it).
std::optional<int> runSystemModule(const SystemModuleRun &run,
                                   const std::function<void()> &between);

} // namespace rankstep::python
