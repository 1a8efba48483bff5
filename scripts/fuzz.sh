#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/fuzz.sh [TARGET|all] [SECONDS] [LIBFUZZER_FLAG...]   (defaults: all, 600)
# TARGET: core, python, notebook, pythonsource, json, tracejson or tracebinary (tests/fuzz).
# Builds the libFuzzer targets (RANKSTEP_FUZZ, clang++-16, in build-fuzz/) and runs each for
# SECONDS over a working copy of its seed corpus (tests/fuzz/corpus/TARGET). Findings (crash-*,
# leak-*, timeout-*, oom-*) are copied to fuzz-findings/TARGET/; the run fails when there is one.
# Reproduce one: build-fuzz/tests/fuzz/fuzz_TARGET fuzz-findings/TARGET/crash-...
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${1:-all}"
SECONDS_EACH="${2:-600}"
EXTRA_FLAGS=("${@:3}") # e.g. -detect_leaks=0: leaks then only at exit, many more runs per second
BUILD_DIR="${RANKSTEP_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"

ALL_TARGETS=(core python notebook pythonsource json tracejson tracebinary)
case "$TARGET" in
    all) TARGETS=("${ALL_TARGETS[@]}") ;;
    core | python | notebook | pythonsource | json | tracejson | tracebinary) TARGETS=("$TARGET") ;;
    *) echo "fuzz.sh: unknown target '$TARGET' (${ALL_TARGETS[*]} or all)" >&2; exit 2 ;;
esac

"$ROOT/scripts/setup-deps.sh" --fuzz

# LeakSanitizer on; the embedded CPython's own start-up allocations are suppressed by name.
export ASAN_OPTIONS="detect_leaks=1"
export LSAN_OPTIONS="suppressions=$ROOT/tests/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer-16 || command -v llvm-symbolizer || true)}"

cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DPython3_EXECUTABLE=/usr/bin/python3 \
    -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DRANKSTEP_FUZZ=ON -DRANKSTEP_BUILD_TESTS=OFF -DRANKSTEP_BUILD_GUI=OFF \
    -DRANKSTEP_BUILD_BENCH=OFF
cmake --build "$BUILD_DIR" -j"$(nproc)" --target "${TARGETS[@]/#/fuzz_}"

status=0
for target in "${TARGETS[@]}"; do
    work="$BUILD_DIR/fuzz-work/$target"
    findings="$ROOT/fuzz-findings/$target"
    # Earlier runs' findings were copied out already: only this run's decide its status.
    rm -rf "$work/artifacts"
    mkdir -p "$work/corpus" "$work/artifacts" "$findings"
    # New inputs go to the working copy; the committed corpus changes only by hand.
    cp -n "$ROOT/tests/fuzz/corpus/$target/"* "$work/corpus/" 2>/dev/null || true
    echo "fuzz.sh: fuzz_$target for ${SECONDS_EACH}s (log: $work/fuzz.log)"
    if ! "$BUILD_DIR/tests/fuzz/fuzz_$target" -max_total_time="$SECONDS_EACH" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${EXTRA_FLAGS[@]}" \
        "$work/corpus" >"$work/fuzz.log" 2>&1; then
        status=1
    fi
    grep -E '^#[0-9]+ +DONE|^stat::|^Done ' "$work/fuzz.log" || tail -n 40 "$work/fuzz.log"
    if compgen -G "$work/artifacts/*" >/dev/null; then
        cp "$work/artifacts/"* "$findings/"
        echo "fuzz.sh: findings of fuzz_$target copied to $findings" >&2
        status=1
    fi
done
exit "$status"
