#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/bench-sweep.sh [BUILD_DIR] [ROUNDS]
# A benchmark, run by hand (never a test): `rankstep-cli sweep` throughput, settings a second,
# as a learner sweeps. Three grids, each ROUNDS times (default 3), with --jobs 1 and with every
# core: the bubble lesson's GPipe sweep over micro-batches (4 settings), a 64-setting grid of the GPipe
# solution (ranks 2-16, layers 8-64, micro-batches 1-8), and the FSDP solution at 8 to 64 ranks
# under a real-scale preset with 4 bandwidths (16 settings, up to 64 ranks x 64 layers). Prints
# the median wall time of each and its settings a second, and checks every row solved.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${1:-$ROOT/build}"
ROUNDS="${2:-3}"
CLI="$BUILD_DIR/cli/rankstep-cli"
[[ -x "$CLI" ]] || { echo "no $CLI: build the rankstep-cli target first" >&2; exit 64; }

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

GRIDS=(
    "gpipe-micro-batches|$ROOT/lessons/94-bubble/solution.py --ranks 4 --layers 8 --batches 1,2,4,8"
    "gpipe-64-settings|$ROOT/lessons/94-bubble/solution.py --ranks 2,4,8,16 --layers 16,32,48,64 --batches 1,2,4,8"
    "fsdp-to-64-ranks|$ROOT/lessons/50-fsdp/solution.py --function fsdp --ranks 8,16,32,64 --layers 64 --batches 8,16,32,64 --cost llama2-7b-8xh100 --bandwidth 25,50,100,450"
)
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
printf '%-22s %5s %9s %11s %15s\n' grid jobs settings "median ms" "settings a s"
for grid in "${GRIDS[@]}"; do
    name="${grid%%|*}"
    read -r -a args <<< "${grid#*|}"
    for jobs in 1 "$(nproc)"; do
        times=()
        for ((round = 0; round < ROUNDS; ++round)); do
            start=$(now_ms)
            "$CLI" sweep "${args[@]}" --jobs "$jobs" --csv > "$out" 2>/dev/null
            times+=("$(( $(now_ms) - start ))")
        done
        settings=$(( $(wc -l < "$out") - 1 ))
        # FSDP's solution gives a rank one batch: only batches = ranks solves; the rest refuse.
        solved=$(grep -c ',solved,true,' "$out" || true)
        ms=$(printf '%s\n' "${times[@]}" | median)
        printf '%-22s %5s %9s %11s %15s   (%s solved)\n' "$name" "$jobs" "$settings" "$ms" \
            "$(awk -v n="$settings" -v ms="$ms" 'BEGIN { printf "%.1f", n * 1000 / ms }')" "$solved"
    done
done
