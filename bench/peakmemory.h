// SPDX-License-Identifier: MIT
// The peak memory of a benchmark process, as a Google Benchmark counter. ru_maxrss is the high
// water mark of the whole process: run one benchmark per process (--benchmark_filter) to read
// it as that benchmark's peak.
#pragma once

#include <benchmark/benchmark.h>

#include <sys/resource.h>

namespace rankstep::bench {

// Peak resident memory in MB of this process (who = RUSAGE_SELF) or of its finished children
// (RUSAGE_CHILDREN: the largest of them).
inline double peakMemoryMb(int who = RUSAGE_SELF)
{
    rusage usage{};
    getrusage(who, &usage);
    return double(usage.ru_maxrss) / 1024.0; // Linux reports KiB
}

inline void reportPeakMemory(benchmark::State &state, int who = RUSAGE_SELF)
{
    state.counters[who == RUSAGE_SELF ? "peak_rss_MB" : "child_peak_rss_MB"] = peakMemoryMb(who);
}

} // namespace rankstep::bench
