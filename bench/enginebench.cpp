// SPDX-License-Identifier: MIT
// Engine throughput, run by hand (never a test): the FSDP reference program at 1024 ranks and
// 96 layers, and each of the eight reference puzzles at its published size.
//   rankstep_engine_bench --benchmark_filter=FsdpLarge
#include "tests/core/referencepuzzles.h"

#include "peakmemory.h"

#include <benchmark/benchmark.h>

#include <functional>
#include <string>

namespace {

using rankstep::core::RankTask;
using rankstep::core::RunConfig;
using rankstep::core::Trace;
using Program = std::function<RankTask(rankstep::core::Model &)>;

RunConfig makeConfig(int ranks, int layers, int batches)
{
    RunConfig config;
    config.ranks = ranks;
    config.layers = layers;
    config.batches = batches;
    return config;
}

// Runs the program once per iteration; a run that is not correct invalidates the benchmark.
void runPuzzle(benchmark::State &state, RunConfig config, const Program &program)
{
    std::int64_t events = 0;
    std::size_t eventsPerRun = 0;
    for (auto _ : state) {
        const Trace trace = rankstep::testing::runProgram(config, program);
        if (!trace.correct()) {
            const std::string why = trace.error ? trace.error->message : trace.check.message;
            state.SkipWithError(("the run is not correct: " + why).c_str());
            break;
        }
        eventsPerRun = trace.events.size();
        events += std::int64_t(eventsPerRun);
    }
    state.counters["events"] = benchmark::Counter(double(events), benchmark::Counter::kIsRate);
    state.counters["events_per_run"] = double(eventsPerRun);
    rankstep::bench::reportPeakMemory(state);
}

// FSDP gives rank r the activation of batch r, so the run needs as many batches as ranks.
constexpr int kLargeRanks = 1024;
constexpr int kLargeLayers = 96;

void registerBenchmarks()
{
    const std::string large = "FsdpLarge/ranks:" + std::to_string(kLargeRanks) +
                              "/layers:" + std::to_string(kLargeLayers) +
                              "/batches:" + std::to_string(kLargeRanks);
    benchmark::RegisterBenchmark(large.c_str(),
                                 [](benchmark::State &state) {
                                     runPuzzle(state,
                                               makeConfig(kLargeRanks, kLargeLayers, kLargeRanks),
                                               rankstep::testing::fsdp);
                                 })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);

    for (const rankstep::testing::PuzzleCase &puzzle : rankstep::testing::referencePuzzles()) {
        const RunConfig config = makeConfig(puzzle.ranks, puzzle.layers, puzzle.batches);
        const Program program = puzzle.program;
        benchmark::RegisterBenchmark(
            ("Reference/" + puzzle.name).c_str(),
            [config, program](benchmark::State &state) { runPuzzle(state, config, program); })
            ->Unit(benchmark::kMicrosecond);
    }
}

} // namespace

int main(int argc, char **argv)
{
    registerBenchmarks();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
