// SPDX-License-Identifier: MIT
// The steps of a large run without the app around them, run by hand (never a test): the trace
// named on the command line (such as the Llama 3 layout at 16,384 ranks the runner wrote with
// --trace-out), then in each step mode (time, operation, scheduler turn) the first step from the
// start, 40 steps forward and 40 back, each the move of the cursor's front and the state rebuilt
// for the ranks it moved, as the step controller does. Reports each mode's CPU time a step, the
// first, the median and the worst forward and back, in ms. StopPoints/file: the stop points of the
// trace alone (what an open makes first on its stepping thread), their wall and CPU time, the
// memory they keep and the most they add for a moment while they are made (MiB). Decode/file:
// the file read and decoded alone, its wall and CPU time and the memory the trace holds.
// Build/file times the Replayer's build
// alone over the file's stop points, on one thread and on two, and the memory it added at its
// peak (the process's high water mark is reset before, which Linux allows through clear_refs).
//   rankstep_cursor_bench [benchmark options] FILE.rstb
#include "core/io/tracebinary.h"
#include "core/replay/cutfront.h"
#include "core/replay/replayer.h"

#include "peakmemory.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

using rankstep::replay::Cursor;
using rankstep::replay::CutFront;
using rankstep::replay::Replayer;
using rankstep::replay::StopPoints;
using Step = Cursor (Cursor::*)() const;

std::string g_path;

double cpuMs()
{
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

double worst(const std::vector<double> &values)
{
    return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

// A line of /proc/self/status in MiB ("VmRSS", "VmHWM"); 0 where there is none.
double statusMib(const std::string &field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind(field + ":", 0) == 0)
            return std::stod(line.substr(field.size() + 1)) / 1024.0; // kB
    return 0;
}

// The resident memory's high-water mark set back to what is resident now.
void resetPeak()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}

// The trace named on the command line, or null with the benchmark skipped and the reason given.
std::unique_ptr<const rankstep::core::Trace> readTrace(benchmark::State &state)
{
    auto decoded = rankstep::io::traceFromBinaryFile(g_path);
    if (!decoded) {
        state.SkipWithError(decoded.error().message.c_str());
        return nullptr;
    }
    return std::make_unique<const rankstep::core::Trace>(std::move(*decoded));
}

void stopPoints(benchmark::State &state)
{
    const auto trace = readTrace(state);
    if (!trace)
        return;
    std::vector<double> wall, cpu, held, peak;
    for (auto _ : state) {
        const double before = statusMib("VmRSS");
        resetPeak();
        const auto start = std::chrono::steady_clock::now();
        const double cpuStart = cpuMs();
        const auto stops = std::make_unique<const StopPoints>(*trace);
        cpu.push_back(cpuMs() - cpuStart);
        wall.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
        held.push_back(statusMib("VmRSS") - before);
        peak.push_back(statusMib("VmHWM") - before);
        benchmark::DoNotOptimize(stops->last());
    }
    state.counters["build_ms"] = median(wall);
    state.counters["build_cpu_ms"] = median(cpu);
    // The first build's memory, as an open's: later ones can reuse what the first gave back.
    state.counters["held_MiB"] = held.front();
    state.counters["peak_added_MiB"] = peak.front();
    state.counters["events"] = double(trace->events.size());
    state.counters["ranks"] = double(trace->config.ranks);
}

// The file read and decoded, as an open reads it (the events and the changes on two threads):
// wall and CPU time (the process's, both threads), the resident memory the trace holds and the
// most the decode added for a moment, in MiB (the first decode's, as an open's).
void decode(benchmark::State &state)
{
    std::vector<double> wall, cpu, held, peak;
    std::size_t events = 0, changes = 0;
    for (auto _ : state) {
        const double before = statusMib("VmRSS");
        resetPeak();
        const auto start = std::chrono::steady_clock::now();
        const double cpuStart = cpuMs();
        const auto trace = readTrace(state);
        if (!trace)
            return;
        cpu.push_back(cpuMs() - cpuStart);
        wall.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
        held.push_back(statusMib("VmRSS") - before);
        peak.push_back(statusMib("VmHWM") - before);
        events = trace->events.size();
        changes = trace->changes.size();
    }
    state.counters["decode_ms"] = median(wall);
    state.counters["decode_cpu_ms"] = median(cpu);
    state.counters["held_MiB"] = held.front();
    state.counters["peak_added_MiB"] = peak.front();
    state.counters["events"] = double(events);
    state.counters["changes"] = double(changes);
}

// The Replayer made over the file's stop points (made untimed): its wall and CPU time, and the
// resident memory it added at its peak and kept; range(0) threads.
void build(benchmark::State &state)
{
    const auto trace = readTrace(state);
    if (!trace)
        return;
    const StopPoints stops(*trace);
    for (auto _ : state) {
        resetPeak(); // VmHWM from here
        const double before = statusMib("VmRSS");
        const double start = cpuMs();
        const Replayer replayer(stops, Replayer::kMinCheckpointGap, unsigned(state.range(0)));
        state.counters["cpu_ms"] = cpuMs() - start;
        state.counters["added_peak_MB"] = statusMib("VmHWM") - before;
        state.counters["added_kept_MB"] = statusMib("VmRSS") - before;
        state.counters["checkpoints"] = double(replayer.checkpointCount());
    }
    state.counters["changes"] = double(trace->changes.size());
}

// The cursor's front and the state that follows it, with the moved ranks gathered between the
// state's rebuilds as StepController does (here the state is rebuilt after every move).
struct Follower {
    explicit Follower(const StopPoints &stops) : replayer(stops), front(stops) {}
    void moveTo(const Cursor &cursor)
    {
        front.moveTo(cursor);
        replayer.followState(*front.cursor(), state, front,
                             first || front.allMoved() ? nullptr : &front.movedRanks());
        first = false;
    }
    Replayer replayer;
    CutFront front;
    rankstep::replay::RunState state;
    bool first = true;
};

void steps(benchmark::State &state)
{
    const auto trace = readTrace(state);
    if (!trace)
        return;
    const StopPoints stops(*trace);
    Follower follower(stops);
    follower.moveTo(Cursor::atCut(stops, stops.boundaries().back()));
    const struct {
        const char *name;
        Step forward, back;
    } modes[] = {{"time", &Cursor::nextTime, &Cursor::previousTime},
                 {"operation", &Cursor::nextOperation, &Cursor::previousOperation},
                 {"turn", &Cursor::nextSlice, &Cursor::previousSlice}};
    for (auto _ : state) {
        for (const auto &mode : modes) {
            follower.moveTo(Cursor(stops)); // home, untimed
            Cursor cursor(stops);
            std::vector<double> forward, back;
            for (int i = 0; i < 41; ++i) {
                const double start = cpuMs();
                follower.moveTo((cursor.*mode.forward)());
                cursor = *follower.front.cursor(); // with its prefix, as the controller keeps it
                forward.push_back(cpuMs() - start);
            }
            for (int i = 0; i < 40; ++i) {
                const double start = cpuMs();
                follower.moveTo((cursor.*mode.back)());
                cursor = *follower.front.cursor();
                back.push_back(cpuMs() - start);
            }
            const std::string name = mode.name;
            state.counters[name + "_first_ms"] = forward.front();
            forward.erase(forward.begin());
            state.counters[name + "_forward_ms"] = median(forward);
            state.counters[name + "_forward_worst_ms"] = worst(forward);
            state.counters[name + "_back_ms"] = median(back);
            state.counters[name + "_back_worst_ms"] = worst(back);
        }
    }
    state.counters["ranks"] = double(trace->config.ranks);
    rankstep::bench::reportPeakMemory(state);
}

} // namespace

int main(int argc, char **argv)
{
    benchmark::Initialize(&argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: rankstep_cursor_bench [benchmark options] FILE.rstb\n");
        return 1;
    }
    g_path = argv[1];
    benchmark::RegisterBenchmark("Decode/file", decode)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(3);
    benchmark::RegisterBenchmark("StopPoints/file", stopPoints)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(3);
    benchmark::RegisterBenchmark("Steps/file", steps)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1);
    benchmark::RegisterBenchmark("Build/file", build)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->ArgName("threads")
        ->Arg(1)
        ->Arg(2)
        ->Iterations(1);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
