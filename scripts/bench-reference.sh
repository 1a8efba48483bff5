#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/bench-reference.sh [BUILD_DIR] [ROUNDS]
# A benchmark, run by hand (never a test): the eight reference puzzles through the runner, as a
# learner runs them, `rankstep-cli lesson NAME --solution`, one process each. Each round runs all
# eight in a row; prints every lesson's median wall time and peak memory (max RSS of the process,
# GNU time) over ROUNDS rounds (default 5), and the median time of a whole round. Checks that
# every solution still solves its lesson. Expects BUILD_DIR (default build/) to hold rankstep-cli.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${1:-$ROOT/build}"
ROUNDS="${2:-5}"
CLI="$BUILD_DIR/cli/rankstep-cli"
LESSONS=(basic grad_accum ddp wsdp fsdp pipeline gpipe pipeline_fsdp)

[[ -x "$CLI" ]] || { echo "no $CLI: build the rankstep-cli target first" >&2; exit 64; }
[[ -x /usr/bin/time ]] || { echo "needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 64; }

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

declare -A times rss
rounds=()
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
for ((round = 0; round < ROUNDS; ++round)); do
    round_start=$(now_ms)
    for lesson in "${LESSONS[@]}"; do
        start=$(now_ms)
        if ! /usr/bin/time -f "%M" -o "$out" "$CLI" lesson "$lesson" --solution --quiet >/dev/null; then
            echo "$lesson: the reference solution did not solve its lesson" >&2
            exit 1
        fi
        times[$lesson]+="$(( $(now_ms) - start )) "
        rss[$lesson]="$(tail -n 1 "$out")"
    done
    rounds+=("$(( $(now_ms) - round_start ))")
done

echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $ROUNDS rounds"
printf '%-15s %12s %14s\n' lesson "median ms" "peak RSS MB"
for lesson in "${LESSONS[@]}"; do
    printf '%-15s %12s %14s\n' "$lesson" "$(tr ' ' '\n' <<<"${times[$lesson]}" | grep . | median)" \
        "$(( ${rss[$lesson]} / 1024 ))"
done
printf '%-15s %12s\n' "all eight" "$(printf '%s\n' "${rounds[@]}" | median)"
