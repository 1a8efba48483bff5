# SPDX-License-Identifier: MIT
"""The floor under the runner's speed: a learner's program against a library that does nothing.

Runs FILE's async FUNCTION once per rank against a stand-in `lib` whose calls return at once
and whose collectives only suspend the coroutine once, driven by a bare round-robin loop of
`coroutine.send(None)`. What it costs is what CPython alone costs for that program: no
simulation, no record, no checks. The engine's own time is judged against it on the same
machine (docs/benchmarks.md).

    /usr/bin/time -f "%e s %M KB" python3 bench/floor.py \
        lessons/50-fsdp/solution.py fsdp 1024 96 1024
    /usr/bin/time -f "%e s %M KB" python3 bench/floor.py \
        lessons/99-four_d/solution.py four_d 16384 128 2048 8 16

The optional TENSOR and PIPELINE degrees lay the ranks out as core/layout.h does (tensor
innermost, data outermost) for model.coords and model.group.

--order tensor is an experiment, not the runner's order: each tensor group's ranks (TENSOR
neighbours) are resumed round-robin among themselves until they finish, one group after another,
where the default resumes every rank once a round. A rank's coroutine, frames and dictionaries
then stay in the processor's caches between its turns; the difference between the two is what
the cache misses of a round over thousands of ranks cost CPython alone (docs/benchmarks.md).
--order lane does the same with a data-parallel lane's TENSOR x PIPELINE ranks, an order a
simulator could keep: a lane's ranks wait only on each other until the data-parallel sums.
"""

import sys
import types


class Thing:
    """Any puzzle object: the stand-in keeps nothing in it."""

    __slots__ = ()

    def __add__(self, other):
        return self


THING = Thing()


class Suspend:
    """An awaitable that gives the loop one turn, then hands back the stand-in object."""

    __slots__ = ()

    def __await__(self):
        yield None
        return THING


SUSPEND = Suspend()


class Model:
    def __init__(self, rank, ranks, layers, batches, tensor=1, pipeline=1):
        self.rank = rank
        self.RANKS = ranks
        self.LAYERS = layers
        self.BATCHES = batches
        self.TENSOR, self.CONTEXT, self.PIPELINE, self.EXPERT = tensor, 1, pipeline, 1
        self.DATA = ranks // (tensor * pipeline)
        self.coords = {
            "tensor": rank % tensor,
            "context": 0,
            "pipeline": rank // tensor % pipeline,
            "data": rank // (tensor * pipeline),
            "expert": 0,
        }

    def group(self, axis):
        strides = {"tensor": 1, "context": self.TENSOR, "pipeline": self.TENSOR,
                   "data": self.TENSOR * self.PIPELINE}
        degrees = {"tensor": self.TENSOR, "context": 1, "pipeline": self.PIPELINE,
                   "data": self.DATA}
        base = self.rank - self.coords[axis] * strides[axis]
        return [base + i * strides[axis] for i in range(degrees[axis])]

    def storage(self):
        return {}, {}, {}, {}, {}

    def get_activation(self, batches):
        return THING

    def load_weights(self, layer, shard=0, total=1, split=None):
        return THING, THING

    def forward(self, layer, activation, weight):
        return THING

    def backward(self, layer, activation, grad, weight):
        return THING, THING

    def loss(self, activation):
        return THING

    def update(self, layer, grad, weight, opt_state):
        return THING, THING

    def set_final_weight(self, layer, weight):
        pass

    def allreduce(self, obj, layer, group=None):
        return SUSPEND

    def allgather(self, obj, layer, group=None):
        return SUSPEND

    def scatterreduce(self, obj, layer, group=None):
        return SUSPEND

    def pass_to(self, rank, obj):
        return SUSPEND

    def receive(self, source=None):
        return SUSPEND


def resume_round_robin(running):
    """Resumes each coroutine once a round until all have finished; returns the turns taken."""
    turns = 0
    while running:
        still = []
        for coroutine in running:
            try:
                coroutine.send(None)
                still.append(coroutine)
            except StopIteration:
                pass
            turns += 1
        running = still
    return turns


def main(argv):
    argv = list(argv)
    order = "all"
    if "--order" in argv:
        at = argv.index("--order")
        order = argv[at + 1] if at + 1 < len(argv) else ""
        del argv[at:at + 2]
    if len(argv) not in (6, 8) or order not in ("all", "tensor", "lane"):
        print("usage: floor.py [--order all|tensor|lane] FILE FUNCTION RANKS LAYERS BATCHES "
              "[TENSOR PIPELINE]", file=sys.stderr)
        return 2
    path, function = argv[1], argv[2]
    ranks, layers, batches = (int(value) for value in argv[3:6])
    degrees = [int(value) for value in argv[6:8]] or [1, 1]

    lib = types.ModuleType("lib")
    lib.Model = Model
    sys.modules["lib"] = lib
    namespace = {"__name__": "__learner__"}
    with open(path, encoding="utf-8") as source:
        exec(compile(source.read(), path, "exec"), namespace)

    program = namespace[function]
    running = [program(Model(rank, ranks, layers, batches, *degrees)) for rank in range(ranks)]
    if order == "all":
        turns = resume_round_robin(running)
    else:  # a tensor group's ranks are neighbours (tensor innermost), then a lane's
        block = degrees[0] if order == "tensor" else degrees[0] * degrees[1]
        turns = sum(resume_round_robin(running[first:first + block])
                    for first in range(0, ranks, block))
    print(f"{ranks} ranks finished after {turns} turns ({order} order)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
