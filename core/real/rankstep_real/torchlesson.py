# SPDX-License-Identifier: MIT
"""One rank of a PyTorch lesson (torch_loop, torch_amp, torch_ddp, torch_ddp_accum, torch_zero,
torch_fsdp, torch_checkpoint, torch_checklist).
`rankstep-cli lesson NAME FILE` starts one `rankstep-cli __real-rank --torch-lesson` per rank
(cli/realcommand.h), which calls prepare() before its sandbox closes and run() after; each rank
leaves its final weights (rank-R.weights, weightsfile.py) and what it saw of itself (rank-R.json).
The verdict is torchjudge.py's, made in a process of its own that never ran the learner's code.

The model, data and optimizer are those of the PyTorch training notebook the lessons follow
(docs/torch-lessons.md): SimpleModel with vocab_size 10, n_embd 1000 (smaller with --embd),
batches of 2 x 8 tokens, AdamW at lr 1e-4, torch.manual_seed(740) before the model is built. The
learner's `train(run)` trains it; torchjudge.py then checks what the lesson asks for against the
reference loop (reference() here), on the same batches:

- loop: the loss at initialization close to ln(vocab_size) (the training checklist's sanity
  check), the weights equal to the plain loop's, one logged loss per step, a falling loss;
- amp: every forward in bf16 under autocast, the weights still float32, the loss close to the
  fp32 loop's;
- ddp: every rank's weights equal one process trained on every rank's batches together;
- ddp_accum: as ddp with run.accumulation micro-batches a step, and DDP's all-reduces (counted
  from the bytes the ranks sent each other) one per optimizer step;
- zero, fsdp, checkpoint, checklist: torchrecipes.py.
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

from . import torchrecipes, weightsfile
from .rank import _learner_error  # the learner's error with its line, as a puzzle rank reports it

VOCAB_SIZE = 10
BATCH_SIZE = 2
CONTEXT_SIZE = 8
DATA_SIZE = 100
LEARNING_RATE = 1e-4
SEED = 740
# Equal to float rounding: one process summing in another order than DDP's all-reduce.
WEIGHTS_TOLERANCE = 1e-6
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


def build_model(n_embd, check="loop"):
    """The lesson's model as every rank and the reference start from it."""
    torch.manual_seed(SEED)
    if check == "checkpoint":
        return torchrecipes.DeepModel(VOCAB_SIZE, n_embd)
    model = SimpleModel(VOCAB_SIZE, n_embd)
    return torchrecipes.careless_readout(model) if check == "checklist" else model


def batch_size(check):
    return torchrecipes.CHECKPOINT_BATCH if check == "checkpoint" else BATCH_SIZE


def learning_rate(check):
    return torchrecipes.CHECKLIST_LEARNING_RATE if check == "checklist" else LEARNING_RATE


def build_optimizer(model, check):
    """The optimizer run.optimizer holds: AdamW as the notebook's, with the checklist's weight
    decay in that lesson."""
    decay = torchrecipes.CHECKLIST_WEIGHT_DECAY if check == "checklist" else 0.01
    return torch.optim.AdamW(model.parameters(), lr=learning_rate(check), weight_decay=decay)


def training_tokens():
    generator = torch.Generator().manual_seed(SEED)
    return torch.randint(0, VOCAB_SIZE, (DATA_SIZE,), generator=generator, dtype=torch.int64)


def batch_starts(rank, count, size=BATCH_SIZE):
    """Where each of a rank's batches (of `size` windows) starts in the data: its own stream, the
    same in the reference."""
    generator = torch.Generator().manual_seed(SEED + 1 + rank)
    return torch.randint(0, DATA_SIZE - CONTEXT_SIZE, (count, size), generator=generator)


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
        self.learning_rate = optimizer.param_groups[0]["lr"]
        self.warmup_steps = torchrecipes.WARMUP_STEPS
        self.clip_norm = torchrecipes.CLIP_NORM
        self.grad_norms = []
        self.saved_optimizer = None  # {name: tensor}, what save_optimizer or save_shard left
        self.saved_shard = None
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

    def log(self, loss, grad_norm=None):
        self.losses.append(_finite(loss))
        if grad_norm is not None:
            self.grad_norms.append(_finite(grad_norm))

    def save_optimizer(self, optimizer):
        """Keeps the optimizer's whole state for the check, as a checkpoint would save it: with
        ZeroRedundancyOptimizer, on the rank its consolidate_state_dict(to=...) gathered it on."""
        try:
            state = optimizer.state_dict()
        except RuntimeError as error:
            if "consolidate" not in str(error):
                raise
            raise LessonError(
                f"rank {self.rank} saved the optimizer before its state was gathered there: "
                "each rank of a ZeroRedundancyOptimizer holds only its shard, so first every "
                "rank calls optimizer.consolidate_state_dict(to=0), then rank 0 alone saves "
                "(if run.rank == 0: run.save_optimizer(optimizer))") from None
        self.saved_optimizer = _state_tensors(state)

    def save_shard(self, shard, optimizer):
        """Keeps this rank's shard of the flat parameters and its optimizer's state of it: what
        an FSDP checkpoint saves per rank."""
        if not torch.is_tensor(shard) or shard.dim() != 1:
            raise LessonError("save_shard(shard, optimizer) takes the rank's flat shard: a "
                              "one-dimensional tensor")
        self.saved_shard = shard.detach().float().clone()
        self.saved_optimizer = _state_tensors(optimizer.state_dict())


def _finite(value):
    value = float(value.detach().float()) if torch.is_tensor(value) else float(value)
    return value if math.isfinite(value) else None  # JSON has no NaN


def _state_tensors(state):
    """An optimizer's state_dict as named tensors: "I.exp_avg", "I.exp_avg_sq" per parameter
    index I (only those; a step count is not a tensor to compare)."""
    tensors = {}
    for index, values in dict(state.get("state", {})).items():
        for key in ("exp_avg", "exp_avg_sq"):
            if torch.is_tensor(values.get(key)):
                tensors[f"{int(index)}.{key}"] = values[key].detach().float().clone()
    return tensors


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
        self.stepped = {}  # id -> every AdamW the rank stepped, kept for the state it held


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


def _instrument(model):
    """Counts DDP's all-reduces, the first Linear's output dtypes and AdamW's steps: those of
    run.optimizer and of any AdamW the learner makes (the one a ZeroRedundancyOptimizer wraps, the
    one of an FSDP shard)."""
    _count_ddp()

    def record(module, inputs, output):
        name = str(output.dtype).replace("torch.", "")
        COUNTERS.forward_dtypes[name] = COUNTERS.forward_dtypes.get(name, 0) + 1

    first = model.linear1 if hasattr(model, "linear1") else model.blocks[0].linear1
    first.register_forward_hook(record)
    adamw = torch.optim.AdamW
    if getattr(adamw.step, "rankstep_counted", False):
        return
    step = adamw.step

    def counted(self, *args, **kwargs):
        COUNTERS.optimizer_steps += 1
        COUNTERS.stepped.setdefault(id(self), self)
        return step(self, *args, **kwargs)

    counted.rankstep_counted = True
    adamw.step = counted


def _mark_consolidating(out):
    """Leaves OUT.entered ("consolidate_state_dict") when the rank enters
    ZeroRedundancyOptimizer.consolidate_state_dict, a collective: if only some ranks call it, they
    wait there until the timeout, and the launcher, which sees which ranks entered it and which
    returned from train(run), words that in a sentence of its own. Only a hint: the learner's code
    could write the file too, and nothing is judged by it."""
    from torch.distributed.optim import ZeroRedundancyOptimizer

    consolidate = ZeroRedundancyOptimizer.consolidate_state_dict

    def marked(self, *args, **kwargs):
        with open(out + ".entered", "w", encoding="utf-8") as file:
            file.write("consolidate_state_dict\n")
        return consolidate(self, *args, **kwargs)

    ZeroRedundancyOptimizer.consolidate_state_dict = marked


def _arguments(argv):
    parser = argparse.ArgumentParser(prog="rankstep_real.torchlesson")
    parser.add_argument("--file")
    parser.add_argument("--source-name", default="")
    parser.add_argument("--function", default="train")
    parser.add_argument("--check", choices=torchrecipes.CHECKS, default="loop")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--accumulation", type=int, default=1)
    parser.add_argument("--embd", type=int, default=1000)
    parser.add_argument("--backend", default="gloo")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--out", required=True)
    parser.add_argument("--torch-lesson", default="")  # the launcher's marker (cli/realrank.cpp)
    return parser.parse_args(argv)


class Prepared:
    def __init__(self, args):
        self.args = args
        self.rank, self.ranks = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
        dist.init_process_group(args.backend, timeout=datetime.timedelta(seconds=args.timeout))


def prepare(argv):
    """Joins the process group before the sandbox closes (cli/realrank.cpp)."""
    torch.set_num_threads(1)
    args = _arguments(argv)
    if args.check == "checkpoint":
        torchrecipes.release_freed_memory()
    return Prepared(args)


def held_state(optimizers):
    """How many values' AdamW state each optimizer the rank stepped held at the end: ZeRO's and
    FSDP's ranks hold their shard's, a rank of plain DDP the whole model's. Counted by the harness
    after train(run); the check compares it with the model's size outside the ranks."""
    counts = []
    for optimizer in optimizers:
        count = 0
        for group in optimizer.param_groups:
            for parameter in group["params"]:
                state = optimizer.state.get(parameter, {})
                if torch.is_tensor(state.get("exp_avg")):
                    count += state["exp_avg"].numel()
        counts.append(count)
    return torch.tensor(counts, dtype=torch.float64)


def _learner_module(path, name):
    with open(path, encoding="utf-8-sig") as source:
        code = compile(source.read(), name, "exec", dont_inherit=True)
    module = types.ModuleType("__learner__")
    module.__file__ = name
    exec(code, module.__dict__)  # noqa: S102  (the learner's own file, in the rank's process)
    return module


def _flat(model):
    return torch.cat([p.detach().reshape(-1) for p in model.parameters()])


def reference(args, world_size, tokens, autocast=False, keep=None):
    """The loop the lesson asks for, in one process on every rank's batches: (its model, its
    loss per step). With several ranks each step averages over all their batches, as DDP's
    all-reduce does; with accumulation, over the micro-batches too; with `autocast`, each forward
    under bf16 autocast. `keep`, a dict, gets the optimizer ("optimizer")."""
    model = build_model(args.embd, args.check)
    optimizer = build_optimizer(model, args.check)
    count = args.steps * args.accumulation
    starts = [batch_starts(rank, count, batch_size(args.check)) for rank in range(world_size)]
    losses = []
    for step in range(args.steps):
        total = 0.0
        for micro in range(args.accumulation):
            for rank in range(world_size):
                X, y = batch_at(tokens, starts[rank][step * args.accumulation + micro])
                with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=autocast):
                    _, loss = model(X, y)
                (loss / (args.accumulation * world_size)).backward()
                total += float(loss.detach()) / (args.accumulation * world_size)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        losses.append(total)
    if keep is not None:
        keep["optimizer"] = optimizer
    return model, losses


def run(prepared):
    """Runs the learner's train(run); writes DIR/rank-R.weights (the model's parameters) and
    DIR/rank-R.json (what the rank saw of itself: hints for torchjudge.py). 0, or ends the
    process after a learner error (the launcher stops the other ranks)."""
    args, rank, world_size = prepared.args, prepared.rank, prepared.ranks
    out = os.path.join(args.out, f"rank-{rank}")
    path = os.path.abspath(args.file)
    name = args.source_name or path
    report = {"rank": rank, "status": "finished", "check": args.check}
    tokens = training_tokens()
    model = build_model(args.embd, args.check)
    optimizer = build_optimizer(model, args.check)
    starts = batch_starts(rank, args.steps * args.accumulation, batch_size(args.check))
    learner_run = Run(model, optimizer, tokens, starts, args.steps, args.accumulation, rank,
                      world_size)
    _instrument(model)
    if args.check == "zero":
        _mark_consolidating(out)
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
    report["batches_drawn"] = learner_run.batches_drawn
    report["optimizer_steps"] = COUNTERS.optimizer_steps
    report["all_reduces"] = COUNTERS.syncs
    report["ddp_wrapped"] = COUNTERS.ddp_wrapped
    report["forward_dtypes"] = COUNTERS.forward_dtypes
    report["grad_norms"] = learner_run.grad_norms
    if not status:
        weightsfile.write(out + ".weights", list(model.state_dict().items()))
        if learner_run.saved_optimizer is not None:
            weightsfile.write(out + ".optimizer", sorted(learner_run.saved_optimizer.items()))
        if args.check in ("zero", "fsdp"):
            weightsfile.write(out + ".held", [("held", held_state(COUNTERS.stepped.values()))])
        if learner_run.saved_shard is not None:
            weightsfile.write(out + ".shard", [("shard", learner_run.saved_shard)])
    with open(out + ".json.part", "w", encoding="utf-8") as file:
        json.dump(report, file)
    os.replace(out + ".json.part", out + ".json")
    if status:
        os._exit(status)
    dist.barrier()
    dist.destroy_process_group()
    return 0


def main(argv=None):
    return run(prepare(argv if argv is not None else sys.argv[1:]))


if __name__ == "__main__":
    sys.exit(main())
