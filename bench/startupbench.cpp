// SPDX-License-Identifier: MIT
// App start to first paint, run by hand (never a test): spawns `rankstep --quit-after-first-paint`
// (offscreen unless QT_QPA_PLATFORM is set, settings in a temporary folder) once per iteration
// and times it from just before the spawn to the line the app prints once its window has painted
// for the first time. Reports the median and worst over the iterations, the app's own figure
// (from the kernel's process start, 10 ms resolution) and the app's peak memory.
//   rankstep_startup_bench --benchmark_repetitions=1
#include "peakmemory.h"

#include <benchmark/benchmark.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

extern char **environ;

namespace {

struct Launch {
    double wallMs = -1;     // spawn to the "first paint" line
    double reportedMs = -1; // what the app printed
};

// One start of the app, its stdout read through a pipe.
Launch launchOnce(const std::string &home)
{
    int out[2];
    if (pipe(out) != 0)
        return {};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    std::vector<std::string> storage = {"/usr/bin/env", "XDG_CONFIG_HOME=" + home + "/config",
                                        "XDG_DATA_HOME=" + home + "/data", RANKSTEP_APP,
                                        "--quit-after-first-paint"};
    std::vector<char *> argv;
    for (std::string &arg : storage)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    Launch launch;
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    if (spawned != 0) {
        close(out[0]);
        return {};
    }
    std::string text;
    char buffer[256];
    for (ssize_t got = 0; (got = read(out[0], buffer, sizeof buffer)) > 0;) {
        text.append(buffer, std::size_t(got));
        if (text.find('\n') != std::string::npos && launch.wallMs < 0)
            launch.wallMs =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
    }
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    std::sscanf(text.c_str(), "first paint: %lf ms", &launch.reportedMs);
    return launch;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? -1 : values[values.size() / 2];
}

void startToFirstPaint(benchmark::State &state)
{
    char pattern[] = "/tmp/rankstep-startup-XXXXXX";
    const std::string home = mkdtemp(pattern) ? pattern : "/tmp";
    std::vector<double> wall, reported;
    for (auto _ : state) {
        const Launch launch = launchOnce(home);
        if (launch.wallMs < 0) {
            state.SkipWithError("the app printed no first-paint line");
            return;
        }
        wall.push_back(launch.wallMs);
        reported.push_back(launch.reportedMs);
    }
    state.counters["median_ms"] = median(wall);
    state.counters["max_ms"] = *std::max_element(wall.begin(), wall.end());
    state.counters["app_reported_median_ms"] = median(reported);
    rankstep::bench::reportPeakMemory(state, RUSAGE_CHILDREN);
    std::error_code ignored;
    std::filesystem::remove_all(home, ignored);
}

} // namespace

BENCHMARK(startToFirstPaint)
    ->Name("BM_AppStartToFirstPaint")
    ->Iterations(11)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

int main(int argc, char **argv)
{
    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
