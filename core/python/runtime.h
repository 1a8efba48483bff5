// SPDX-License-Identifier: MIT
#pragma once

#include "core/error.h"
#include "core/trace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rankstep::python {

// One run of a learner's puzzle file.
struct RunRequest {
    std::string source;
    std::string fileName = "<puzzle>"; // shown in tracebacks and used to find the learner's lines
    std::string function;              // the puzzle function to run on every rank
    core::RunConfig config;
    std::int64_t maxOperations = 5'000'000; // 0: unlimited
    double timeLimitSeconds = 30.0;         // wall clock; 0: unlimited
    bool echoOutput = false; // also write what the learner prints to this process's stdout
};

struct RunOutcome {
    core::Trace trace;
    std::string output; // what the code printed: its first 1 MiB, then how much was dropped
};

struct FunctionInfo {
    std::string name;
    int line = 0;
    bool isAsync = false;
};

// The embedded CPython 3.11 (Debian's), started once per process, isolated from the user's
// environment. Every entry point takes the GIL itself; any thread may call them.
class Runtime
{
public:
    Runtime();
    ~Runtime();
    Runtime(const Runtime &) = delete;
    Runtime &operator=(const Runtime &) = delete;

    // Runs request.function on every rank. Errors of every kind come back inside the trace.
    RunOutcome run(const RunRequest &request);
    // From now on, code objects made from bytes (types.CodeType, code.replace, marshal.loads)
    // raise: hand-made bytecode reads and writes the process's memory. Imports compile source
    // instead of loading cached bytecode (looked for beneath `folder`, which holds none). For the
    // process that runs learners' code; it cannot be undone.
    void refuseCodeMadeFromBytes(const std::string &folder);
    // Thread-safe: stops the run in progress; its report names the line each rank was on.
    void requestStop();
    // The top-level functions a source defines, found without running it.
    core::Result<std::vector<FunctionInfo>> listFunctions(const std::string &source,
                                                          const std::string &fileName);

    struct Impl; // internal, defined in runtime.cpp

private:
    std::unique_ptr<Impl> m_impl;
};

} // namespace rankstep::python
