# SPDX-License-Identifier: MIT
"""One rank of a PyTorch lesson (torch_loop, torch_amp, torch_ddp, torch_ddp_accum), and the
summary of all ranks. `rankstep-cli lesson NAME FILE` starts one `rankstep-cli __real-rank
--torch-lesson` per rank (cli/torchlesson.h), which calls prepare() before its sandbox closes and
run() after; then `python3 -m rankstep_real.torchlesson --summarize` merges the ranks' reports.

The model, data and optimizer are those of the PyTorch training notebook the lessons follow
(docs/torch-lessons.md): SimpleModel with vocab_size 10, n_embd 1000 (smaller with --embd),
batches of 2 x 8 tokens, AdamW at lr 1e-4, torch.manual_seed(740) before the model is built. The
learner's `train(run)` trains it; this module then checks what the lesson asks for against a
reference run in the same process, on the same batches:

- loop: the loss at initialization close to ln(vocab_size) (the training checklist's sanity
  check), the weights equal to the plain loop's, one logged loss per step, a falling loss;
- amp: every forward in bf16 under autocast, the weights still float32, the loss close to the
  fp32 loop's;
- ddp: every rank's weights equal one process trained on every rank's batches together;
- ddp_accum: as ddp with run.accumulation micro-batches a step, and DDP's all-reduces (counted
  by a communication hook on the real DistributedDataParallel) one per optimizer step.
"""
import argparse
import datetime
import json
import math
import os
import sys
import time
import types

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.parallel
import torch.nn.parallel.distributed
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.nn import functional as F

from .rank import _learner_error  # the learner's error with its line, as a puzzle rank reports it

VOCAB_SIZE = 10
BATCH_SIZE = 2
CONTEXT_SIZE = 8
DATA_SIZE = 100
LEARNING_RATE = 1e-4
SEED = 740
# Equal to float rounding: one process summing in another order than DDP's all-reduce.
WEIGHTS_TOLERANCE = 1e-6
# bf16 keeps 8 bits of mantissa: the loss of the autocast loop stays within this of fp32's.
AMP_LOSS_TOLERANCE = 0.05
# The checklist's "loss at init": within this of ln(vocab_size).
INIT_LOSS_TOLERANCE = 0.25


class SimpleModel(nn.Module):
    """The notebook's model: an embedding, two GELU layers four times as wide, a readout."""

    def __init__(self, vocab_size, n_embd):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.linear1 = nn.Linear(n_embd, 4 * n_embd)
        self.activation = nn.GELU()
        self.linear2 = nn.Linear(4 * n_embd, n_embd)
        self.linear_out = nn.Linear(n_embd, vocab_size)

    def forward(self, idx, targets=None):
        x = self.activation(self.linear1(self.token_embedding_table(idx)))
        logits = self.linear_out(self.activation(self.linear2(x)))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
        return logits, loss


def build_model(n_embd):
    torch.manual_seed(SEED)
    return SimpleModel(VOCAB_SIZE, n_embd)


def training_tokens():
    generator = torch.Generator().manual_seed(SEED)
    return torch.randint(0, VOCAB_SIZE, (DATA_SIZE,), generator=generator, dtype=torch.int64)


def batch_starts(rank, count):
    """Where each of a rank's batches starts in the data: its own stream, the same in the
    reference."""
    generator = torch.Generator().manual_seed(SEED + 1 + rank)
    return torch.randint(0, DATA_SIZE - CONTEXT_SIZE, (count, BATCH_SIZE), generator=generator)


def batch_at(tokens, starts):
    X = torch.stack([tokens[i: i + CONTEXT_SIZE] for i in starts.tolist()])
    y = torch.stack([tokens[i + 1: i + CONTEXT_SIZE + 1] for i in starts.tolist()])
    return X, y


class LessonError(Exception):
    """A rule of the lesson broken while the learner's code ran (too many batches, ...)."""


class Run:
    """What `train(run)` is given (lessons/100-torch_loop/text.md)."""

    def __init__(self, model, optimizer, tokens, starts, steps, accumulation, rank, world_size):
        self.model = model
        self.optimizer = optimizer
        self.steps = steps
        self.accumulation = accumulation
        self.rank = rank
        self.world_size = world_size
        self.device_type = "cpu"
        self.losses = []
        self._tokens = tokens
        self._starts = starts
        self.batches_drawn = 0

    def get_batch(self):
        if self.batches_drawn >= len(self._starts):
            raise LessonError(f"get_batch() was called more than steps x accumulation = "
                              f"{len(self._starts)} times: this lesson's loop takes "
                              f"{self.steps} steps of {self.accumulation} batch(es)")
        X, y = batch_at(self._tokens, self._starts[self.batches_drawn])
        self.batches_drawn += 1
        return X, y

    def log(self, loss):
        value = float(loss.detach().float()) if torch.is_tensor(loss) else float(loss)
        self.losses.append(value if math.isfinite(value) else None)  # JSON has no NaN


class Counters:
    """What the harness saw of the learner's run: optimizer steps, DDP's all-reduces (one per
    backward that synchronised; hook calls counted per bucket too), the first Linear's output
    dtypes."""

    def __init__(self):
        self.optimizer_steps = 0
        self.syncs = 0
        self.buckets = 0
        self.forward_dtypes = {}
        self.ddp_wrapped = 0


COUNTERS = Counters()


def _counting_hook(state, bucket):
    COUNTERS.buckets += 1
    if bucket.is_last():
        COUNTERS.syncs += 1
    return default_hooks.allreduce_hook(state, bucket)


def _count_ddp():
    """Gives PyTorch's own DistributedDataParallel, however the learner imports it, a
    communication hook that counts its all-reduces and then performs them as the default does
    (ddp_comm_hooks.allreduce_hook). Its __init__ names its own class through the module's
    globals, so the class itself stays; only its constructor is wrapped."""
    ddp = torch.nn.parallel.DistributedDataParallel
    if getattr(ddp.__init__, "rankstep_counted", False):
        return
    original = ddp.__init__

    def counted(self, *args, **kwargs):
        original(self, *args, **kwargs)
        COUNTERS.ddp_wrapped += 1
        self.register_comm_hook(None, _counting_hook)

    counted.rankstep_counted = True
    ddp.__init__ = counted


def _instrument(model, optimizer):
    _count_ddp()

    def record(module, inputs, output):
        name = str(output.dtype).replace("torch.", "")
        COUNTERS.forward_dtypes[name] = COUNTERS.forward_dtypes.get(name, 0) + 1

    model.linear1.register_forward_hook(record)
    step = optimizer.step

    def counted(*args, **kwargs):
        COUNTERS.optimizer_steps += 1
        return step(*args, **kwargs)

    optimizer.step = counted


def _arguments(argv):
    parser = argparse.ArgumentParser(prog="rankstep_real.torchlesson")
    parser.add_argument("--file")
    parser.add_argument("--source-name", default="")
    parser.add_argument("--function", default="train")
    parser.add_argument("--check", choices=("loop", "amp", "ddp", "ddp_accum"), default="loop")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--accumulation", type=int, default=1)
    parser.add_argument("--embd", type=int, default=1000)
    parser.add_argument("--backend", default="gloo")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--out", required=True)
    parser.add_argument("--torch-lesson", default="")  # the launcher's marker (cli/realrank.cpp)
    parser.add_argument("--summarize", action="store_true")
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("--wall-seconds", type=float, default=0)
    return parser.parse_args(argv)


class Prepared:
    def __init__(self, args):
        self.args = args
        self.rank, self.ranks = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
        dist.init_process_group(args.backend, timeout=datetime.timedelta(seconds=args.timeout))


def prepare(argv):
    """Joins the process group before the sandbox closes (cli/realrank.cpp)."""
    torch.set_num_threads(1)
    return Prepared(_arguments(argv))


def _learner_module(path, name):
    with open(path, encoding="utf-8-sig") as source:
        code = compile(source.read(), name, "exec", dont_inherit=True)
    module = types.ModuleType("__learner__")
    module.__file__ = name
    exec(code, module.__dict__)  # noqa: S102  (the learner's own file, in the rank's process)
    return module


def _flat(model):
    return torch.cat([p.detach().reshape(-1) for p in model.parameters()])


def reference(args, world_size, tokens):
    """The loop the lesson asks for, in one process on every rank's batches: (its model, its
    loss per step). With several ranks each step averages over all their batches, as DDP's
    all-reduce does; with accumulation, over the micro-batches too."""
    model = build_model(args.embd)
    optimizer = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE)
    count = args.steps * args.accumulation
    starts = [batch_starts(rank, count) for rank in range(world_size)]
    losses = []
    for step in range(args.steps):
        total = 0.0
        for micro in range(args.accumulation):
            for rank in range(world_size):
                X, y = batch_at(tokens, starts[rank][step * args.accumulation + micro])
                _, loss = model(X, y)
                (loss / (args.accumulation * world_size)).backward()
                total += float(loss.detach()) / (args.accumulation * world_size)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        losses.append(total)
    return model, losses


def _mean(values):
    """Their mean; NaN when one was not finite (logged as None)."""
    if not values or any(v is None for v in values):
        return float("nan")
    return sum(values) / len(values)


def _check(name, passed, message):
    return {"name": name, "passed": bool(passed), "message": message}


def _agreement(flat, rank, world_size):
    """The largest difference between this rank's weights and rank 0's."""
    if world_size == 1:
        return 0.0
    first = flat.clone()
    dist.broadcast(first, 0)
    return float((flat - first).abs().max())


def checks_of(args, run, model, init_loss, world_size, tokens):
    """The lesson's checks on this rank, and the reference's loss curve (rank 0)."""
    found = []
    expected = math.log(VOCAB_SIZE)
    if args.check == "loop":
        found.append(_check(
            "loss at init", abs(init_loss - expected) <= INIT_LOSS_TOLERANCE,
            f"the loss at initialization is {init_loss:.4f}; ln({VOCAB_SIZE}) = {expected:.4f}, "
            "what a model that guesses every token equally likely scores"))
    wanted = args.steps * args.accumulation
    found.append(_check(
        "batches", run.batches_drawn == wanted,
        f"get_batch() was called {run.batches_drawn} times; the lesson's loop takes {wanted} "
        f"({args.steps} steps" + (f" of {args.accumulation} micro-batches)" if args.accumulation
                                  > 1 else ")")))
    found.append(_check(
        "optimizer steps", COUNTERS.optimizer_steps == args.steps,
        f"optimizer.step() ran {COUNTERS.optimizer_steps} times; the lesson takes {args.steps}"))
    found.append(_check(
        "loss logged", len(run.losses) == args.steps,
        f"run.log(loss) was called {len(run.losses)} times: once per step ({args.steps}) "
        "draws the loss curve"))
    flat = _flat(model)
    agree = _agreement(flat, run.rank, world_size)
    if world_size > 1:
        found.append(_check(
            "ranks agree", agree <= WEIGHTS_TOLERANCE,
            "every rank's weights equal rank 0's" if agree <= WEIGHTS_TOLERANCE else
            f"rank {run.rank}'s weights differ from rank 0's by up to {agree:.3g}: without DDP "
            "each rank trains a model of its own"))
    if args.check == "amp":
        bf16 = COUNTERS.forward_dtypes.get("bfloat16", 0)
        total = sum(COUNTERS.forward_dtypes.values())
        found.append(_check(
            "forward in bf16", total > 0 and bf16 == total,
            f"{bf16} of {total} forwards of the first Linear gave bfloat16 outputs; under "
            "torch.autocast(device_type='cpu', dtype=torch.bfloat16) every one does"))
        dtypes = sorted({str(p.dtype).replace("torch.", "") for p in model.parameters()})
        found.append(_check(
            "weights in fp32", dtypes == ["float32"],
            f"the weights are {', '.join(dtypes)}: autocast computes in bf16 but keeps the "
            "weights (and the optimizer's update) in fp32"))
    if args.check == "ddp_accum":
        found.append(_check(
            "all-reduces", COUNTERS.syncs == args.steps,
            f"DDP all-reduced the gradients {COUNTERS.syncs} times for {args.steps} optimizer "
            f"steps of {args.accumulation} micro-batches: model.no_sync() keeps every micro-step "
            "but the last from synchronizing"))
    if args.check in ("ddp", "ddp_accum"):
        found.append(_check(
            "model wrapped in DDP", COUNTERS.ddp_wrapped > 0,
            "the model was " + ("" if COUNTERS.ddp_wrapped else "not ") +
            "wrapped in DistributedDataParallel"))
    reference_losses = []
    if run.rank == 0:
        ref_model, reference_losses = reference(args, world_size, tokens)
        diff = float((flat - _flat(ref_model)).abs().max())
        what = {"loop": "the plain loop (forward, backward, step, zero_grad each batch)",
                "amp": "the fp32 loop", "ddp": "one process trained on every rank's batches",
                "ddp_accum": "one process trained on every rank's micro-batches, synchronizing "
                             "every one"}[args.check]
        if args.check == "amp":
            tail = max(1, args.steps // 10)
            mine = _mean(run.losses[-tail:]) if len(run.losses) >= tail else float("nan")
            theirs = _mean(reference_losses[-tail:])
            found.append(_check(
                "loss close to fp32", abs(mine - theirs) <= AMP_LOSS_TOLERANCE,
                f"the mean loss of the last {tail} steps is {mine:.4f} under autocast and "
                f"{theirs:.4f} in fp32 (tolerance {AMP_LOSS_TOLERANCE})"))
        else:
            found.append(_check(
                "weights", diff <= WEIGHTS_TOLERANCE,
                (f"the weights equal those of {what}, to float rounding (largest difference "
                 f"{diff:.3g})") if diff <= WEIGHTS_TOLERANCE else
                f"the weights differ from those of {what} by up to {diff:.3g} (tolerance "
                f"{WEIGHTS_TOLERANCE:g})"))
        if args.check == "loop" and len(run.losses) >= 10:
            tenth = max(1, len(run.losses) // 10)
            first = _mean(run.losses[:tenth])
            last = _mean(run.losses[-tenth:])
            found.append(_check("loss fell", last < first,
                                f"the mean loss fell from {first:.4f} (first {tenth} steps) "
                                f"to {last:.4f} (last {tenth})"))
    return found, reference_losses


def run(prepared):
    """Runs the learner's train(run) and checks it; writes DIR/rank-R.json. 0, or ends the
    process after a learner error (the launcher stops the other ranks)."""
    args, rank, world_size = prepared.args, prepared.rank, prepared.ranks
    out = os.path.join(args.out, f"rank-{rank}")
    path = os.path.abspath(args.file)
    name = args.source_name or path
    report = {"rank": rank, "status": "finished", "check": args.check}
    tokens = training_tokens()
    model = build_model(args.embd)
    optimizer = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE)
    starts = batch_starts(rank, args.steps * args.accumulation)
    with torch.no_grad():
        init_loss = float(model(*batch_at(tokens, starts[0]))[1])
    learner_run = Run(model, optimizer, tokens, starts, args.steps, args.accumulation, rank,
                      world_size)
    _instrument(model, optimizer)
    status = 0
    began = time.perf_counter()
    try:
        module = _learner_module(path, name)
        train = getattr(module, args.function, None)
        if not callable(train):
            raise LessonError(f"the file defines no function {args.function}(run)")
        dist.barrier()
        began = time.perf_counter()
        train(learner_run)
    except Exception as error:  # the learner's: reported with its line, then every rank stops
        report["status"] = "failed"
        report["failed_at"] = time.time()
        report["error"] = _learner_error(error, name)
        status = 3
    report["seconds"] = time.perf_counter() - began
    report["losses"] = learner_run.losses
    report["init_loss"] = init_loss
    report["expected_init_loss"] = math.log(VOCAB_SIZE)
    report["optimizer_steps"] = COUNTERS.optimizer_steps
    report["all_reduces"] = COUNTERS.syncs
    report["forward_dtypes"] = COUNTERS.forward_dtypes
    if not status:
        report["checks"], report["reference_losses"] = checks_of(args, learner_run, model,
                                                                 init_loss, world_size, tokens)
    with open(out + ".json.part", "w", encoding="utf-8") as file:
        json.dump(report, file)
    os.replace(out + ".json.part", out + ".json")
    if status:
        os._exit(status)
    dist.barrier()
    dist.destroy_process_group()
    return 0


def summarize(args):
    """Every rank's checks as one verdict (DIR/verdict.txt, DIR/report.json); 0 when solved."""
    ranks = []
    for rank in range(args.ranks):
        with open(os.path.join(args.out, f"rank-{rank}.json"), encoding="utf-8") as file:
            ranks.append(json.load(file))
    merged = []
    for rank in ranks:
        for check in rank.get("checks", []):
            known = next((c for c in merged if c["name"] == check["name"]), None)
            if known is None:
                merged.append(dict(check))
            elif known["passed"] and not check["passed"]:
                known.update(check)
    if not merged:
        raise SystemExit("no rank reported its checks")
    solved = all(c["passed"] for c in merged)
    lines = [("ok    " if c["passed"] else "NOT   ") + c["message"] for c in merged]
    lines.append("Solved!" if solved else
                 "Not solved yet: " + next(c["name"] for c in merged if not c["passed"]) + ".")
    with open(os.path.join(args.out, "verdict.txt"), "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")
    result = {
        "format": "rankstep-torch-lesson", "version": 1, "check": args.check,
        "solved": solved, "wall_seconds": args.wall_seconds,
        "init_loss": ranks[0]["init_loss"], "expected_init_loss": ranks[0]["expected_init_loss"],
        "checks": merged,
        "reference_losses": ranks[0].get("reference_losses", []),
        "ranks": [{"rank": r["rank"], "losses": r["losses"], "seconds": r["seconds"],
                   "optimizer_steps": r["optimizer_steps"], "all_reduces": r["all_reduces"],
                   "forward_dtypes": r["forward_dtypes"]} for r in ranks],
    }
    with open(os.path.join(args.out, "report.json"), "w", encoding="utf-8") as file:
        json.dump(result, file, indent=1)
    return 0 if solved else 3


def main(argv=None):
    args = _arguments(argv if argv is not None else sys.argv[1:])
    if args.summarize:
        return summarize(args)
    return run(prepare(argv if argv is not None else sys.argv[1:]))


if __name__ == "__main__":
    sys.exit(main())
