#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/run-sanitized-tests.sh [BUILD_DIR]
# Builds the core, io, Python runtime, runner and lessons (no GUI, no benchmarks) with
# AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer in BUILD_DIR (default
# build-asan/) and runs their tests there. Any report fails the run: UB aborts
# (-fno-sanitize-recover=all), leaks fail at exit unless tests/sanitizers/lsan.supp names them.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${1:-$ROOT/build-asan}"

# Set before the build: it runs rankstep-lessoncheck (an instrumented program) over lessons/.
# Child processes (the tests spawn rankstep-cli) inherit these.
export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$ROOT/tests/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

# -O1 -g: readable stacks at about half the cost of -O0 under ASan.
"$ROOT/scripts/build.sh" "$BUILD_DIR" \
    -DRANKSTEP_SANITIZE=ON -DRANKSTEP_BUILD_GUI=OFF -DRANKSTEP_BUILD_BENCH=OFF \
    -DRANKSTEP_BUILD_TESTS=ON -DRANKSTEP_WERROR=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g"

# Not tests/hostile: they check how a run's process dies (a segfault's signal, the address-space
# cap for allocating gigabytes), which AddressSanitizer replaces with its own reports.
# One test more at once than the machine has cores, as scripts/run-tests.sh runs them.
JOBS="${CTEST_PARALLEL_LEVEL:-$(( $(nproc) + 1 ))}"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$JOBS" --no-tests=error -E '^hostile'
