// SPDX-License-Identifier: MIT
// The whole malloc heap of the app and of rankstep-cli on transparent huge pages. Where the
// kernel gives huge pages only to memory that asks for them (THP `madvise`, Debian's default),
// glibc's malloc asks for them when GLIBC_TUNABLES says glibc.malloc.hugetlb=1, and glibc reads
// that only as a process starts. So the program starts itself again once, first thing in main(),
// with the setting added; the second start puts the user's GLIBC_TUNABLES back, so that the
// programs it starts get the environment the user gave. Opening a trace of 16,384 ranks faults
// in gigabytes of fresh heap: in 2 MiB pages that is about 40 % less system time
// (docs/benchmarks.md). rankstep-runner gets the setting from the supervisor instead
// (cli/supervisor.h, kRunnerMallocSettings).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rankstep::core {

// What decides whether the setting can help, as the machine tells it.
struct HugeHeapSystem {
    std::string_view thpEnabled;   // /sys/kernel/mm/transparent_hugepage/enabled, "" if none
    std::string_view glibcVersion; // gnu_get_libc_version(): "2.36"
    bool secure = false;           // a set-user-ID start: glibc reads no tunables then
    bool underValgrind = false;    // a start again would leave valgrind behind
};

// The GLIBC_TUNABLES to start again with: `current` (nullopt when unset) with
// glibc.malloc.hugetlb=1 added after the user's own settings. Nullopt when there is nothing to
// gain: the user (or the first start) already set glibc.malloc.hugetlb, to any value; THP is
// `always` (the heap gets huge pages anyway) or `never`; glibc is older than 2.35, which knows
// no such setting; or the start is secure or under valgrind.
std::optional<std::string> hugeHeapTunables(std::optional<std::string_view> current,
                                            const HugeHeapSystem &system);

// The name of the variable that tells the second start what the user's GLIBC_TUNABLES was: ""
// when it was unset, "=" and its value when it was set.
inline constexpr const char *kTunablesBeforeVariable = "RANKSTEP_GLIBC_TUNABLES_BEFORE";
// The user's GLIBC_TUNABLES from that variable's value: nullopt when it was unset.
std::optional<std::string> tunablesBefore(std::string_view marker);

// Call first thing in main(), before any thread starts: starts the program again (same process,
// same arguments, /proc/self/exe) with hugeHeapTunables when that says so, and returns when it
// does not or when the start fails. In the second start, puts the user's GLIBC_TUNABLES back.
void restartWithHugeHeap(char **argv);

} // namespace rankstep::core
