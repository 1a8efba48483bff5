// SPDX-License-Identifier: MIT
// Stepping through a large finished run, run by hand (never a test): the FSDP reference program
// at 192 ranks and 96 layers (110,784 events), and the cost of one step anywhere in it with the
// checkpointed Replayer, the whole run's state or one rank's.
//   rankstep_replay_bench --benchmark_filter=Step
#include "core/replay/replayer.h"
#include "tests/core/referencepuzzles.h"

#include "peakmemory.h"

#include <benchmark/benchmark.h>

#include <random>

namespace {

using rankstep::replay::Cursor;
using rankstep::replay::Replayer;
using rankstep::replay::StopPoints;

constexpr int kRanks = 192;
constexpr int kLayers = 96;

const rankstep::core::Trace &largeTrace()
{
    static const rankstep::core::Trace trace = [] {
        rankstep::core::RunConfig config;
        config.ranks = kRanks;
        config.layers = kLayers;
        config.batches = kRanks; // FSDP gives rank r the activation of batch r
        return rankstep::testing::runProgram(config, rankstep::testing::fsdp);
    }();
    return trace;
}

void setCounters(benchmark::State &state, const StopPoints &stops, const Replayer &replayer)
{
    state.counters["events"] = double(stops.trace().events.size());
    state.counters["changes"] = double(stops.trace().changes.size());
    state.counters["checkpoints"] = double(replayer.checkpointCount());
    rankstep::bench::reportPeakMemory(state);
}

void buildReplayer(benchmark::State &state)
{
    const rankstep::core::Trace &trace = largeTrace();
    for (auto _ : state) {
        const StopPoints stops(trace);
        Replayer replayer(stops);
        benchmark::DoNotOptimize(replayer.checkpointCount());
    }
    rankstep::bench::reportPeakMemory(state);
}

// One of: to a random event, the next operation, the previous operation.
Cursor randomStep(const Cursor &cursor, std::mt19937 &random)
{
    const std::size_t events = cursor.stops().trace().events.size();
    switch (random() % 3) {
        case 0:
            return cursor.toEvent(random() % events);
        case 1:
            return cursor.nextOperation();
        default:
            return cursor.previousOperation();
    }
}

// range(0): 1 for toEvent only, 0 for a mix of toEvent, next and previous.
void stepWholeRun(benchmark::State &state)
{
    const StopPoints stops(largeTrace());
    Replayer replayer(stops);
    std::mt19937 random(7);
    Cursor cursor(stops);
    std::size_t entries = 0;
    for (auto _ : state) {
        cursor = state.range(0) ? cursor.toEvent(random() % stops.trace().events.size())
                                : randomStep(cursor, random);
        const rankstep::replay::RunState run = replayer.stateAt(cursor);
        for (const auto &rank : run.ranks)
            for (const auto &map : rank.maps)
                entries += map.size();
        benchmark::DoNotOptimize(entries);
    }
    setCounters(state, stops, replayer);
    state.counters["entries_per_state"] = double(entries) / double(state.iterations());
}

// The same, filling one RunState again and again as a view following the cursor would.
void stepWholeRunReusingState(benchmark::State &state)
{
    const StopPoints stops(largeTrace());
    Replayer replayer(stops);
    std::mt19937 random(7);
    Cursor cursor(stops);
    rankstep::replay::RunState run;
    for (auto _ : state) {
        cursor = state.range(0) ? cursor.toEvent(random() % stops.trace().events.size())
                                : randomStep(cursor, random);
        replayer.stateAt(cursor, run);
        benchmark::DoNotOptimize(run.ranks.data());
    }
    setCounters(state, stops, replayer);
}

void stepOneRank(benchmark::State &state)
{
    const StopPoints stops(largeTrace());
    Replayer replayer(stops);
    std::mt19937 random(7);
    Cursor cursor(stops);
    for (auto _ : state) {
        cursor = state.range(0) ? cursor.toEvent(random() % stops.trace().events.size())
                                : randomStep(cursor, random);
        const int rank = stops.trace().events[cursor.lastEvent().value_or(0)].rank;
        benchmark::DoNotOptimize(replayer.rankStateAt(cursor, rank));
    }
    setCounters(state, stops, replayer);
}

} // namespace

BENCHMARK(buildReplayer)->Name("BuildStopPointsAndReplayer")->Unit(benchmark::kMillisecond);
BENCHMARK(stepWholeRun)
    ->Name("StepWholeRun")
    ->ArgName("toEventOnly")
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(stepWholeRunReusingState)
    ->Name("StepWholeRunReusingState")
    ->ArgName("toEventOnly")
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(stepOneRank)
    ->Name("StepOneRank")
    ->ArgName("toEventOnly")
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
