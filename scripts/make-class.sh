#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/make-class.sh OUT
# Writes a class folder for trying `rankstep-cli grade --roster` (README "Grading a class"): ten
# learners, one folder each, with the eight notebook puzzles from the lessons' solutions and the
# typical mistakes: an update before the allreduce (two learners), a syntax error, a rank that
# skips a collective, an endless loop, an FSDP left as its starter, and lessons not handed in.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:?usage: scripts/make-class.sh OUT}"
LESSONS=(10-basic 20-grad_accum 30-ddp 40-wsdp 50-fsdp 60-pipeline 70-gpipe 80-pipeline_fsdp)
LEARNERS=(ana ben cho dev eli fay gus hal ivy jon)
mkdir -p "$OUT"
for who in "${LEARNERS[@]}"; do
    mkdir -p "$OUT/$who"
    for lesson in "${LESSONS[@]}"; do
        cp "$ROOT/lessons/$lesson/solution.py" "$OUT/$who/${lesson#*-}.py"
    done
done
sum='        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)'
ddp="$ROOT/lessons/30-ddp/solution.py"
# Update before allreduce: the sum is missing, each rank updates with its own batch's gradient.
grep -vF "$sum" "$ddp" > "$OUT/ben/ddp.py"
grep -vF "$sum" "$ddp" > "$OUT/eli/ddp.py"
# A syntax error.
sed 's/for layer in range(model.LAYERS):/for layer in range(model.LAYERS)/' "$ddp" > "$OUT/cho/ddp.py"
# Rank 0 returns before the allreduce the others wait in.
awk -v sum="$sum" '$0 == sum { print "        if model.rank == 0:"; print "            return model" } { print }' \
    "$ddp" > "$OUT/dev/ddp.py"
# An endless loop.
printf 'async def ddp(model):\n    while True:\n        pass\n' > "$OUT/fay/ddp.py"
cp "$ROOT/lessons/50-fsdp/starter.py" "$OUT/gus/fsdp.py"
# Not handed in.
rm "$OUT/hal/gpipe.py" "$OUT/hal/pipeline_fsdp.py" "$OUT/ivy/wsdp.py"
echo "$OUT: ${#LEARNERS[@]} learners"
