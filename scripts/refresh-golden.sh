#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/refresh-golden.sh [BUILD_DIR]
# Rewrites tests/lessons/golden/<id>.json, the trace of every lesson's solution.py, after a
# deliberate change to a lesson or the engine; review the diff (git diff tests/lessons/golden)
# before committing. Builds rankstep-cli in BUILD_DIR (default build/) first when needed, which
# also validates lessons/. Exits non-zero when a solution does not solve its lesson.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${1:-$ROOT/build}"
BUILD_DIR="$(cd "$(dirname "$BUILD_DIR")" && pwd)/$(basename "$BUILD_DIR")"

if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DPython3_EXECUTABLE=/usr/bin/python3
fi
cmake --build "$BUILD_DIR" --target rankstep-cli
CLI="$BUILD_DIR/cli/rankstep-cli"

# From the root, so that each file records config.file as "<folder>/solution.py", the name
# tests/lessons/lessonfoldertest.cpp compares with.
cd "$ROOT"
GOLDEN=tests/lessons/golden
mkdir -p "$GOLDEN"
LISTING="$("$CLI" lessons --lessons lessons)" # fails, naming file and field, on a broken lesson
mapfile -t IDS < <(cut -f1 <<<"$LISTING")
if [[ ${#IDS[@]} -eq 0 ]]; then
    echo "refresh-golden: no lessons found in lessons/" >&2
    exit 1
fi

failed=0
for id in "${IDS[@]}"; do
    # A PyTorch lesson runs for real, not simulated: it has no golden trace (docs/torch-lessons.md).
    if grep -qs '"kind": *"torch"' lessons/*-"$id"/lesson.json; then
        continue
    fi
    status=0
    "$CLI" lesson "$id" --solution --lessons lessons --json "$GOLDEN/$id.json" --quiet \
        >/dev/null || status=$?
    if [[ $status -eq 0 ]]; then
        echo "$GOLDEN/$id.json"
    else
        echo "refresh-golden: lessons/*-$id/solution.py does not solve its lesson (exit code" \
             "$status); run: $CLI lesson $id --solution --lessons lessons" >&2
        failed=1
    fi
done

# Golden files of lessons that are gone (renamed or removed).
shopt -s nullglob
for file in "$GOLDEN"/*.json; do
    id="$(basename "$file" .json)"
    if [[ ! " ${IDS[*]} " == *" $id "* ]]; then
        rm -- "$file"
        echo "removed $file (no lesson '$id')"
    fi
done
exit $failed
