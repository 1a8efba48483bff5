// SPDX-License-Identifier: MIT
// Python-driven throughput, run by hand (never a test):
//   rankstep_python_bench --benchmark_filter=Operations   puzzle API calls per second
//   rankstep_python_bench --benchmark_filter=FsdpLarge    lessons/50-fsdp at 1024 ranks, 96 layers
//   rankstep_python_bench --benchmark_filter=FourDLlama   lessons/99-four_d at Llama 3 405B's
//                                                        16,384 ranks (tensor 8 x pipeline 16)
// An "operation" is one call the learner's code makes into the simulation that the trace
// records: a timed operation (event) or a storage set or delete (change).
#include "core/python/runtime.h"

#include "peakmemory.h"

#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {

using rankstep::python::RunRequest;
using rankstep::python::Runtime;

Runtime &runtime()
{
    static Runtime instance;
    return instance;
}

std::string readFile(const std::string &path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void runRequest(benchmark::State &state, const RunRequest &request)
{
    std::size_t operations = 0, events = 0;
    for (auto _ : state) {
        const auto outcome = runtime().run(request);
        if (outcome.trace.status != rankstep::core::RunStatus::Ok) {
            state.SkipWithError(outcome.trace.error ? outcome.trace.error->message.c_str()
                                                    : "failed");
            break;
        }
        operations = outcome.trace.events.size() + outcome.trace.changes.size();
        events = outcome.trace.events.size();
    }
    state.counters["events"] = benchmark::Counter(double(events) * double(state.iterations()),
                                                  benchmark::Counter::kIsRate);
    state.counters["events_per_run"] = double(events);
    state.counters["ops"] = benchmark::Counter(double(operations) * double(state.iterations()),
                                               benchmark::Counter::kIsRate);
    state.counters["ops_per_run"] = double(operations);
    rankstep::bench::reportPeakMemory(state);
}

// One rank repeating forward and backward on one layer: the cost of a call from Python.
void BM_PythonOperations(benchmark::State &state)
{
    RunRequest request;
    request.fileName = "operations.py";
    request.function = "loop";
    request.config.layers = 1;
    request.config.batches = 1;
    request.maxOperations = 0;
    request.timeLimitSeconds = 0;
    request.source = R"(
def loop(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    weights[0], opt_states[0] = model.load_weights(0)
    activations[0] = model.get_activation([0])
    for _ in range()" +
                     std::to_string(state.range(0)) + R"():
        activations[1] = model.forward(0, activations[0], weights[0])
        grad_activations[1] = model.loss(activations[1])
        grad_weights[0], grad_activations[0] = model.backward(0, activations[0], grad_activations[1], weights[0])
        del activations[1], grad_activations[1], grad_activations[0]
)";
    runRequest(state, request);
}
BENCHMARK(BM_PythonOperations)->Arg(20000)->Unit(benchmark::kMillisecond);

void BM_PythonFsdpLarge(benchmark::State &state)
{
    RunRequest request;
    request.fileName = RANKSTEP_SOURCE_DIR "/lessons/50-fsdp/solution.py";
    request.source = readFile(request.fileName);
    request.function = "fsdp";
    request.config.ranks = 1024;
    request.config.layers = 96;
    request.config.batches = 1024;
    request.maxOperations = 0;
    request.timeLimitSeconds = 0;
    runRequest(state, request);
}
BENCHMARK(BM_PythonFsdpLarge)->Iterations(1)->Unit(benchmark::kMillisecond);

// The largest run: 16,384 ranks, 128 layers, 2048 batches, 16 micro-batches a pipeline.
void BM_PythonFourDLlama(benchmark::State &state)
{
    RunRequest request;
    request.fileName = RANKSTEP_SOURCE_DIR "/lessons/99-four_d/solution.py";
    request.source = readFile(request.fileName);
    request.function = "four_d";
    request.config.ranks = 16384;
    request.config.layers = 128;
    request.config.batches = 2048;
    request.config.layout.tensor = 8;
    request.config.layout.pipeline = 16;
    request.maxOperations = 0;
    request.timeLimitSeconds = 0;
    runRequest(state, request);
}
BENCHMARK(BM_PythonFourDLlama)->Iterations(1)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
