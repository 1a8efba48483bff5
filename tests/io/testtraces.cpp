// SPDX-License-Identifier: MIT
#include "testtraces.h"

#include "tests/core/referencepuzzles.h"

#include <stdexcept>

namespace rankstep::testing {

core::Trace referenceTrace(const std::string &name)
{
    for (const PuzzleCase &puzzle : referencePuzzles()) {
        if (puzzle.name != name)
            continue;
        core::RunConfig config;
        config.ranks = puzzle.ranks;
        config.layers = puzzle.layers;
        config.batches = puzzle.batches;
        return runProgram(config, puzzle.program);
    }
    throw std::invalid_argument("no reference puzzle called " + name);
}

namespace {

core::RunConfig smallConfig(int ranks)
{
    core::RunConfig config;
    config.ranks = ranks;
    config.layers = 2;
    config.batches = 4;
    return config;
}

core::RankTask waitForEachOther(core::Model &m)
{
    auto [w, o] = m.loadWeights(0);
    m.weights.set(0, w);
    m.activations.set(0, m.getActivation({m.rank}));
    m.activations.set(1, m.forward(0, m.activations.get(0), m.weights.get(0)));
    m.activations.set(2, co_await m.receive());
}

core::RankTask disagree(core::Model &m)
{
    auto [w, o] = m.loadWeights(0);
    m.weights.set(0, w);
    if (m.rank == 0)
        m.weights.set(1, co_await m.allreduce(m.weights.get(0), 0));
    else
        m.weights.set(1, co_await m.allgather(m.weights.get(0), 0));
}

core::RankTask countTwice(core::Model &m)
{
    m.gradWeights.set(0, m.add(m.fakeGrad(0, {0, 1}), m.fakeGrad(0, {1})));
    auto [w, o] = m.loadWeights(0);
    m.weights.set(0, w);
    m.activations.set(0, m.getActivation({0, 1, 2, 3}));
    m.activations.set(1, m.forward(1, m.activations.get(0), m.weights.get(0)));
    co_return;
}

} // namespace

core::Trace deadlockTrace()
{
    return runProgram(smallConfig(2), waitForEachOther);
}

core::Trace mismatchTrace()
{
    return runProgram(smallConfig(2), disagree);
}

core::Trace checkErrorTrace()
{
    return runProgram(smallConfig(1), countTwice);
}

std::string decodeOutcome(const core::Result<core::Trace> &trace,
                          const io::TraceJsonOptions &options)
{
    return trace ? io::traceToJson(*trace, options) : "error: " + trace.error().message;
}

} // namespace rankstep::testing
