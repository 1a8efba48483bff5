// SPDX-License-Identifier: MIT
// libFuzzer target over the embedded Python runtime: the input becomes a learner's puzzle file
// built from the puzzle API's calls (snippetgrammar.h), run on 1-4 ranks with a small operation
// budget and time limit. Any outcome is fine (ok, a check error, an exception, a deadlock, a
// stop); a crash, UB, a leak, a hang or a broken trace invariant is a finding.
//
// Input: byte 0 ranks (1-4), byte 1 layers (1-4), byte 2 batches (1-4), then grammar choices.
// RANKSTEP_FUZZ_PRINT=1 in the environment prints each generated file (to read a finding).
#include "snippetgrammar.h"
#include "traceinvariants.h"

#include "core/python/runtime.h"

#include <cstdio>
#include <cstdlib>

namespace {

using namespace rankstep;

// One interpreter per process, as in rankstep-cli; started on the first input.
python::Runtime &runtime()
{
    static python::Runtime instance;
    return instance;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 3)
        return 0;
    python::RunRequest request;
    request.config.ranks = 1 + data[0] % 4;
    request.config.layers = 1 + data[1] % 4;
    request.config.batches = 1 + data[2] % 4;
    request.source = fuzz::SnippetGrammar(data + 3, size - 3).source();
    request.fileName = "<fuzz>";
    request.function = "puzzle";
    request.maxOperations = 500;
    request.timeLimitSeconds = 5.0;
    static const bool print = std::getenv("RANKSTEP_FUZZ_PRINT") != nullptr;
    if (print)
        std::fprintf(stderr, "--- ranks %d layers %d batches %d\n%s", request.config.ranks,
                     request.config.layers, request.config.batches, request.source.c_str());

    auto functions = runtime().listFunctions(request.source, request.fileName);
    if (!functions || functions->size() != 1 || functions->front().name != "puzzle")
        fuzz::broken("the generated file does not define exactly puzzle()");

    const python::RunOutcome outcome = runtime().run(request);
    const core::Trace &trace = outcome.trace;
    fuzz::checkTrace(trace);
    fuzz::replayChanges(trace);
    if (trace.error && trace.error->kind == core::ErrorKind::Syntax)
        fuzz::broken("the grammar wrote a syntax error: " + trace.error->message);
    if (trace.error && trace.error->kind == core::ErrorKind::Internal)
        fuzz::broken("internal error: " + trace.error->message);
    if (print)
        std::fprintf(stderr, "--- %s: %s\n", core::runStatusName(trace.status),
                     trace.error ? trace.error->message.c_str() : "");
    return 0;
}
