# SPDX-License-Identifier: MIT
"""One rank of a real run: `rankstep_real.rank.main(ARGS)`, called by `rankstep-cli __real-rank`
(cli/realrank.h) once its sandbox is in force; `rankstep-cli real` starts it, never the learner.

It joins the process group (torch.distributed's environment: MASTER_ADDR, MASTER_PORT,
WORLD_SIZE, RANK), runs the learner's rank function to its end with the real `lib`, and writes
DIR/rank-R.json (what happened, the events) and DIR/rank-R.weights (its final weights, plain
bytes: weightsfile.py). A learner's error is written there with its line before the process ends,
so the launcher can name it and stop every other rank.
"""
import argparse
import contextlib
import datetime
import errno
import inspect
import json
import os
import resource
import sys
import time
import traceback
import types

import torch
import torch.distributed as dist

from . import exchange, lib, tensors, weightsfile


def _arguments(argv):
    parser = argparse.ArgumentParser(prog="rankstep_real.rank")
    parser.add_argument("--file", required=True)
    parser.add_argument("--source-name", default="",
                        help="the learner's own path, for messages (--file may be a copy)")
    parser.add_argument("--function", required=True)
    parser.add_argument("--layers", type=int, required=True)
    parser.add_argument("--batches", type=int, required=True)
    parser.add_argument("--hidden", type=int, default=512)
    parser.add_argument("--length", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--backend", default="gloo")
    parser.add_argument("--groups", default="", help="groups as 0,1;2,3 (from the simulated run)")
    for axis in ("tensor", "context", "pipeline", "expert"):  # the layout (lib.Layout)
        parser.add_argument("--" + axis, type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--profile", action="store_true",
                        help="record torch.profiler's trace of the learner's code")
    parser.add_argument("--node-ranks", type=int, default=0,
                        help="ranks per node when the run spans nodes (0: one node holds all)")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"),
                        help="cuda: the tensors live on the GPU numbered LOCAL_RANK")
    parser.add_argument("--out", required=True)
    return parser.parse_args(argv)


def _learner_module(path, name, args):
    """The learner's file as a module whose `from lib import ...` finds the real library."""
    lib.HIDDEN, lib.LENGTH = args.hidden, args.length
    sys.modules["lib"] = lib
    for stand_in in ("drawing", "chalk"):
        stub = types.ModuleType(stand_in)
        stub.draw, stub.draw_group = lib.draw, lib.draw_group
        stub.set_svg_height = stub.set_svg_draw_height = lambda *a, **k: None
        stub.hcat = stub.vcat = lambda *a, **k: None
        sys.modules[stand_in] = stub
    with open(path, encoding="utf-8-sig") as source:
        code = compile(source.read(), name, "exec", dont_inherit=True)
    module = types.ModuleType("__learner__")
    module.__file__ = name
    exec(code, module.__dict__)  # noqa: S102  (the learner's own file, in the rank's process)
    return module


def _drive(coroutine):
    """Runs a coroutine whose awaits all complete at once (lib._Done) to its end; a rank function
    that is no coroutine has already run."""
    if not inspect.iscoroutine(coroutine):
        return coroutine
    try:
        while True:
            coroutine.send(None)
    except StopIteration as done:
        return done.value


def _mebibytes(limit):
    soft, _ = resource.getrlimit(limit)
    return None if soft == resource.RLIM_INFINITY else soft >> 20


def _limit_message(error):
    """The sentence of a simulated run for what hit a rank's limits (cli/realrank.cpp sets
    them); None for any other error."""
    out_of_memory = isinstance(error, MemoryError) or (
        isinstance(error, RuntimeError) and "can't allocate memory" in str(error))
    if out_of_memory:
        cap = _mebibytes(resource.RLIMIT_AS)
        return "The code ran out of memory: it asked for more than " + (
            f"the {cap} MiB a rank may use." if cap else "what this machine could give.")
    if isinstance(error, OSError) and error.errno == errno.EFBIG:
        cap = _mebibytes(resource.RLIMIT_FSIZE)
        return "The code wrote a file larger than " + (
            f"the {cap} MiB a rank may write." if cap else "this system allows.")
    return None


def _learner_error(error, path):
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == path]
    line = frames[-1].lineno if frames else 0
    message = _limit_message(error) or \
        "".join(traceback.format_exception_only(type(error), error)).strip()
    return {"line": line, "message": message,
            "traceback": "".join(traceback.format_list(frames))}


def _final_weights(model):
    """The final weights' shards as weightsfile.write takes them: ([("LAYER/SHARD", part)],
    {"LAYER": {"step", "total"}})."""
    parts, layers = [], {}
    for layer, weight in model.final_weights.items():
        if not isinstance(layer, int) or not isinstance(weight, lib.Weight):
            continue
        layers[str(layer)] = {"step": int(weight.step), "total": int(weight.total)}
        if weight.slice:  # what the check reads the parts as (verify.py)
            layers[str(layer)]["split"] = "tensor"
        if weight.expert is not None:
            layers[str(layer)]["expert"] = int(weight.expert)
        parts.extend((f"{layer}/{int(s)}", p) for s, p in weight.parts.items())
    return parts, layers


def _profiler():
    """torch.profiler over the learner's code: the CPU operators PyTorch ran and the collectives
    of torch.distributed, as Perfetto and chrome://tracing read them."""
    from torch.profiler import ProfilerActivity, profile
    return profile(activities=[ProfilerActivity.CPU])


class Prepared:
    """A rank joined to the others, before any of the learner's code ran."""

    def __init__(self, args):
        self.args = args
        self.rank, self.ranks = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
        self.device = torch.device("cpu")
        if args.device == "cuda":  # before the sandbox hides the GPU's files in /sys and /proc
            self.device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0")))
            torch.cuda.set_device(self.device)
            torch.cuda.init()
        dist.init_process_group(args.backend, timeout=datetime.timedelta(seconds=args.timeout))
        self.groups = {}
        for text in filter(None, args.groups.split(";")):
            members = sorted(int(r) for r in text.split(","))
            self.groups[tuple(members)] = dist.new_group(members)  # every rank, in one order
        # Across nodes each node's check needs every rank's files (exchange.py); they travel in a
        # group of their own, on gloo whatever the learner's backend, made before the learner's
        # code runs (which may leave the default group busy or destroyed).
        spans_nodes = 0 < args.node_ranks < self.ranks
        self.exchange = dist.new_group(list(range(self.ranks)), backend="gloo") \
            if spans_nodes else None
        if args.device == "cuda":  # NCCL makes its communicators while /sys is still readable
            for group in [None, *self.groups.values()]:
                dist.barrier(group=group)


def prepare(argv):
    """Joins the process group and makes the groups: everything that needs the network devices'
    files in /sys, before the sandbox hides them (cli/realrank.cpp)."""
    torch.set_num_threads(1)
    return Prepared(_arguments(argv))


def run(prepared):
    """Runs the learner's rank function and writes what happened; 0, or ends the process."""
    args, rank = prepared.args, prepared.rank
    report = {"rank": rank, "status": "finished", "events": []}
    out = os.path.join(args.out, f"rank-{rank}")
    path = os.path.abspath(args.file)
    name = args.source_name or path
    progress = open(out + ".progress", "w", encoding="utf-8")  # noqa: SIM115 (lives with the rank)
    recorder = lib.Recorder(name, progress)
    sizes = tensors.Sizes(args.hidden, args.length, args.seed)
    layout = lib.Layout(prepared.ranks, args.tensor, args.context, args.pipeline, args.expert)
    model = lib.Model(rank, prepared.ranks, args.layers, args.batches, sizes, recorder,
                      prepared.groups, prepared.device, layout)
    status = 0
    profiler = _profiler() if args.profile else contextlib.nullcontext()
    try:
        module = _learner_module(path, name, args)
        dist.barrier()  # a common start for every rank's clock
        recorder.start = recorder.begin()
        # Wall-clock µs at the profiler's zero: the ranks' profiles go on one clock (profilemerge)
        report["profile_start_us"] = time.time_ns() / 1000
        with profiler:
            _drive(getattr(module, args.function)(model))
            model.finish_sends()
    except Exception as error:  # the learner's: reported with its line, then every rank stops
        report["status"] = "failed"
        report["failed_at"] = time.time()  # the launcher names the first rank that failed
        report["error"] = _learner_error(error, name)
        status = 3
    if args.profile:
        profiler.export_chrome_trace(out + ".profile.json")  # profilemerge.py merges them
    report["events"] = recorder.events
    report["changes"] = recorder.changes
    report["final_weights"] = sorted(
        ({"layer": layer, "object": lib.describe(weight)}
         for layer, weight in model.final_weights.items()
         if isinstance(layer, int) and isinstance(weight, lib.Weight)),
        key=lambda entry: entry["layer"])
    report["memory_end"] = model.memory()
    parts, layers = _final_weights(model)
    weightsfile.write(out + ".weights", parts, {"layers": layers})
    with open(out + ".json.part", "w", encoding="utf-8") as file:
        json.dump(report, file)
    os.replace(out + ".json.part", out + ".json")
    if status:
        os._exit(status)  # the others wait in a collective: the launcher stops them
    if prepared.exchange is not None:
        suffixes = [".weights", ".json"] + ([".profile.json"] if args.profile else [])
        try:
            exchange.share(prepared.exchange, rank, prepared.ranks, args.node_ranks, args.out,
                           suffixes)
        except Exception as error:  # noqa: BLE001 (gloo's, a file's, or the learner's doing)
            sys.stderr.write(f"Rank {rank} could not exchange the ranks' files with the other "
                             f"nodes ({error}): a rank of another node stopped before it.\n")
            sys.stderr.flush()
            os._exit(exchange.FAILED)
    dist.destroy_process_group()
    return 0


def main(argv=None):
    """Both steps without a sandbox between them (for trying the package by hand)."""
    return run(prepare(argv if argv is not None else sys.argv[1:]))


if __name__ == "__main__":
    sys.exit(main())
