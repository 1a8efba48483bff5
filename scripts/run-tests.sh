#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds with warnings as errors, and runs every test: the normal build's,
# then the core, Python runtime, runner and lessons again under ASan, LSan and UBSan (build-asan/).
# RANKSTEP_SKIP_SANITIZED=1 skips the second stage (a quicker local check; CI always runs it).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

"$ROOT/scripts/setup-deps.sh"
"$ROOT/scripts/build.sh" "$ROOT/build" -DRANKSTEP_WERROR=ON -DRANKSTEP_BUILD_TESTS=ON

export QT_QPA_PLATFORM=offscreen
# CPython and Qt keep global allocations; only matters for RANKSTEP_SANITIZE builds.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
# One test more at once than the machine has cores, as many of them wait on a child process or a
# timeout (CTEST_PARALLEL_LEVEL overrides it). The slowest tests carry a COST in their CMakeLists,
# which a fresh clone's ctest starts first.
JOBS="${CTEST_PARALLEL_LEVEL:-$(( $(nproc) + 1 ))}"
# A build that registers no test at all is a broken build, not a green one.
ctest --test-dir "$ROOT/build" --output-on-failure -j"$JOBS" --no-tests=error

if [[ "${RANKSTEP_SKIP_SANITIZED:-0}" != 1 ]]; then
    "$ROOT/scripts/run-sanitized-tests.sh"
fi
