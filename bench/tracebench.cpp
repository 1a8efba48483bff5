// SPDX-License-Identifier: MIT
// The binary trace the GUI reads from a run in a child process, run by hand (never a test):
// encode and decode a synthetic trace of exactly 1,000,000 events and 2,000,000 storage changes.
// bytes_per_second is the binary's size over the time; JsonEncode is there for comparison.
//   rankstep_trace_bench --benchmark_repetitions=3
#include "tests/io/synthetictrace.h"

#include "core/io/tracebinary.h"

#include "peakmemory.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

using rankstep::core::Trace;

constexpr std::size_t kEvents = 1000000;
constexpr std::size_t kChanges = 2000000;

const Trace &bigTrace()
{
    static const Trace trace = rankstep::testing::syntheticTrace(kEvents, kChanges);
    return trace;
}

const std::string &bigBinary()
{
    static const std::string binary = rankstep::io::traceToBinary(bigTrace(), {"big.py", "fsdp"});
    return binary;
}

void report(benchmark::State &state, std::size_t bytes)
{
    state.SetBytesProcessed(std::int64_t(bytes) * std::int64_t(state.iterations()));
    state.counters["bytes"] = double(bytes);
    state.counters["events"] = double(bigTrace().events.size());
    state.counters["changes"] = double(bigTrace().changes.size());
    rankstep::bench::reportPeakMemory(state);
}

void binaryEncode(benchmark::State &state)
{
    std::size_t bytes = 0;
    for (auto _ : state) {
        const std::string binary = rankstep::io::traceToBinary(bigTrace(), {"big.py", "fsdp"});
        bytes = binary.size();
        benchmark::DoNotOptimize(binary.data());
    }
    report(state, bytes);
}

void binaryDecode(benchmark::State &state)
{
    for (auto _ : state) {
        auto trace = rankstep::io::traceFromBinary(bigBinary());
        if (!trace.ok() || trace->events.size() != kEvents) {
            state.SkipWithError("the binary trace did not read back");
            break;
        }
        benchmark::DoNotOptimize(&trace->events.front());
        // Freeing the trace is not part of loading it.
        state.PauseTiming();
        trace = rankstep::core::Trace{};
        state.ResumeTiming();
    }
    report(state, bigBinary().size());
}

void jsonEncode(benchmark::State &state)
{
    std::size_t bytes = 0;
    for (auto _ : state) {
        const std::string json = rankstep::io::traceToJson(bigTrace(), {"big.py", "fsdp"});
        bytes = json.size();
        benchmark::DoNotOptimize(json.data());
    }
    report(state, bytes);
}

} // namespace

BENCHMARK(binaryEncode)->Name("BinaryEncode")->Unit(benchmark::kMillisecond);
// The decode of a trace this large runs on two threads: the CPU column is the process's.
BENCHMARK(binaryDecode)
    ->Name("BinaryDecode")
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(jsonEncode)->Name("JsonEncode")->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
