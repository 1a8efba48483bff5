# SPDX-License-Identifier: MIT
"""The verdict of a PyTorch lesson, made outside the processes that ran the learner's code.

`rankstep-cli lesson NAME FILE` runs this as `rankstep-cli __real-rank --check-module
rankstep_real.torchjudge` (cli/realrank.h) once the ranks have ended: a sandboxed process of its
own, without the network, that reads the ranks' folder (--from) and writes only its own (--out).
It trains the lesson's reference loop itself and compares it with the weights each rank left
(weightsfile.py: plain bytes, no pickle); the traffic between the ranks (--exchanged-bytes) is
what the kernel counted on their own loopback, outside them too. Those decide. What only the
ranks could see of themselves (how often get_batch, optimizer.step or run.log ran, the forward's
dtypes, DDP's own hook) came from the processes that ran the learner's code: it is shown as a
hint and never decides.
"""
import argparse
import json
import math
import os
import sys

import torch

from . import torchrecipes, torchverdicts, weightsfile
from .torchlesson import (INIT_LOSS_TOLERANCE, VOCAB_SIZE, WEIGHTS_TOLERANCE, batch_at,
                          batch_size, batch_starts, build_model, reference, training_tokens)

NOT_MET = 3
REFUSED = 4
REPORT_LIMIT = 16 << 20  # what a rank says of itself: a few counters and a loss a step
# The bytes the ranks sent each other within this share of what one all-reduce a step sends.
ALL_REDUCE_SLACK = 0.25


class Refused(Exception):
    """A rank's file that is not what a rank writes: the run does not count."""


def _arguments(argv):
    parser = argparse.ArgumentParser(prog="rankstep_real.torchjudge")
    parser.add_argument("--check", choices=torchrecipes.CHECKS, required=True)
    parser.add_argument("--ranks", type=int, required=True)
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--accumulation", type=int, default=1)
    parser.add_argument("--embd", type=int, required=True)
    parser.add_argument("--wall-seconds", type=float, default=0)
    parser.add_argument("--exchanged-bytes", type=int, default=-1,
                        help="what the ranks sent each other on their loopback; -1 unknown")
    parser.add_argument("--peak-rss-kib", type=lambda text: [int(v) for v in text.split(",")],
                        default=[], help="each rank's peak resident memory, the kernel's count")
    parser.add_argument("--memory-allowance-kib", type=int, default=4 << 10,
                        help="how much more a rank's process starts with than this one")
    parser.add_argument("--from", dest="source", required=True, help="the ranks' folder")
    parser.add_argument("--out", required=True)
    return parser.parse_args(argv)


def prepare(argv):
    """Called before the sandbox closes (cli/realrank.cpp): only reads the arguments."""
    torch.set_num_threads(1)
    args = _arguments(argv)
    if args.check == "checkpoint":
        torchrecipes.release_freed_memory()
    return args


def _check(name, passed, message):
    return {"name": name, "passed": bool(passed), "message": message}


def _flat(tensors):
    return torch.cat([t.detach().float().reshape(-1) for t in tensors])


def load_weights(folder, rank, embd, check="loop"):
    """Rank `rank`'s final parameters in the model's order, checked against the model's names and
    shapes; raises Refused with a sentence otherwise."""
    expected = build_model(embd, check).state_dict()
    name = f"rank-{rank}.weights"
    limit = sum(t.numel() for t in expected.values()) * 8 + weightsfile.HEADER_LIMIT + 64
    try:
        found, _ = weightsfile.read(os.path.join(folder, name), limit)
        if set(found) != set(expected):
            raise weightsfile.WeightsFileError(
                f"it holds {', '.join(sorted(found)) or 'nothing'}, not the model's parameters")
        for key, tensor in expected.items():
            if list(found[key].shape) != list(tensor.shape):
                raise weightsfile.WeightsFileError(
                    f"{key} has the shape {list(found[key].shape)}, not {list(tensor.shape)}")
        return [found[key] for key in expected]
    except weightsfile.WeightsFileError as error:
        raise Refused(f"Rank {rank}'s final weights ({name}) were refused: {error}. The rank's "
                      "process ran the code and wrote that file, so the code may have changed "
                      "it; the run does not count.") from None
    except OSError as error:
        raise Refused(f"Rank {rank}'s final weights ({name}) could not be read "
                      f"({error.strerror}); the run does not count.") from None


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def load_reported(folder, rank):
    """What rank `rank` reported of itself (rank-R.json), as plain numbers; anything else in it
    is left out. Only ever shown as a hint."""
    try:
        with weightsfile.open_regular(os.path.join(folder, f"rank-{rank}.json")) as file:
            text = file.read(REPORT_LIMIT + 1)
        data = json.loads(text) if len(text) <= REPORT_LIMIT else None
    except (OSError, ValueError):
        data = None
    data = data if isinstance(data, dict) else {}
    losses = data.get("losses")
    losses = [v if _number(v) and math.isfinite(v) else None
              for v in losses] if isinstance(losses, list) else []
    norms = data.get("grad_norms")
    norms = [v if _number(v) and math.isfinite(v) else None
             for v in norms] if isinstance(norms, list) else []
    dtypes = data.get("forward_dtypes")
    dtypes = {str(k): v for k, v in dtypes.items() if _number(v)} if isinstance(dtypes, dict) \
        else {}
    whole = {key: int(data[key]) if _number(data.get(key)) and math.isfinite(data[key]) else 0
             for key in ("batches_drawn", "optimizer_steps", "all_reduces", "ddp_wrapped")}
    seconds = data.get("seconds")
    return {"rank": rank, "losses": losses, "grad_norms": norms, "forward_dtypes": dtypes,
            "seconds": float(seconds) if _number(seconds) and math.isfinite(seconds) else 0.0,
            **whole}


def _weights_check(args, mine, theirs, what):
    diff = float((mine - theirs).abs().max()) if mine.numel() else 0.0
    name = "autocast weights" if args.check == "amp" else "weights"
    if diff <= WEIGHTS_TOLERANCE:
        return _check(name, True, f"the weights equal those of {what}, to float rounding "
                                  f"(largest difference {diff:.3g})")
    return _check(name, False, f"the weights differ from those of {what} by up to {diff:.3g} "
                               f"(tolerance {WEIGHTS_TOLERANCE:g})")


def _all_reduce_check(args, parameters):
    """DDP's all-reduces, from the bytes the ranks sent each other: a ring all-reduce of P
    float32 values sends 2 (W - 1) P 4 bytes in all, DDP's first broadcast (W - 1) P 4."""
    unit = (args.ranks - 1) * parameters * 4
    expected = unit * (2 * args.steps + 1)
    ratio = args.exchanged_bytes / expected
    told = (f"the ranks sent each other {args.exchanged_bytes / (1 << 20):.3g} MiB; one "
            f"all-reduce of the gradients ({parameters * 4 / (1 << 20):.3g} MiB) per optimizer "
            f"step makes about {expected / (1 << 20):.3g} MiB over {args.steps} steps")
    if ratio < 1 - ALL_REDUCE_SLACK:
        return _check("all-reduces", False, told + ": the gradients were not averaged across "
                                                   "the ranks every step")
    if ratio > 1 + ALL_REDUCE_SLACK:
        why = (": model.no_sync() keeps every micro-step but the last from synchronizing"
               if args.accumulation > 1 else "")
        return _check("all-reduces", False, told + f", {ratio:.1f} times as much{why}")
    return _check("all-reduces", True, told + ": one a step")


def decide_later(args, flats):
    """The later lessons' checks (torchverdicts.py): (checks, reference losses, reference
    gradient norms, notes)."""
    found, notes, norms = [], [], []
    if args.check == "zero":
        found.append(_agree(args, flats))
        checks, losses = torchverdicts.zero(args, flats)
    elif args.check == "fsdp":
        checks, losses = torchverdicts.fsdp(args)
    elif args.check == "checkpoint":
        checks, losses, notes = torchverdicts.checkpoint_memory(args, flats)
    else:
        checks, losses, norms = torchverdicts.checklist(args, flats)
    if args.exchanged_bytes < 0 and args.ranks > 1:
        notes.append("the bytes the ranks sent each other were not counted: this system refused "
                     "the ranks a network of their own, whose traffic would tell")
    return found + checks, losses, norms, notes


def _agree(args, flats):
    agree = max(float((f - flats[0]).abs().max()) for f in flats)
    worst = max(range(args.ranks), key=lambda r: float((flats[r] - flats[0]).abs().max()))
    return _check("ranks agree", agree <= WEIGHTS_TOLERANCE,
                  "every rank's weights equal rank 0's" if agree <= WEIGHTS_TOLERANCE else
                  f"rank {worst}'s weights differ from rank 0's by up to {agree:.3g}: without "
                  "DDP each rank trains a model of its own")


def decide(args, tokens, weights):
    """The checks that decide, made here: (checks, the reference's losses, notes)."""
    found, notes = [], []
    expected = math.log(VOCAB_SIZE)
    if args.check == "loop":
        model = build_model(args.embd)
        first = batch_starts(0, args.steps * args.accumulation)[0]
        with torch.no_grad():
            init_loss = float(model(*batch_at(tokens, first))[1])
        found.append(_check(
            "loss at init", abs(init_loss - expected) <= INIT_LOSS_TOLERANCE,
            f"the loss at initialization is {init_loss:.4f}; ln({VOCAB_SIZE}) = {expected:.4f}, "
            "what a model that guesses every token equally likely scores"))
    flats = [_flat(w) for w in weights]
    if args.ranks > 1:
        found.append(_agree(args, flats))
    autocast = args.check == "amp"
    ref_model, ref_losses = reference(args, args.ranks, tokens, autocast=autocast)
    what = {"loop": "the plain loop (forward, backward, step, zero_grad each batch)",
            "amp": "the loop with its forward under torch.autocast(device_type='cpu', "
                   "dtype=torch.bfloat16)",
            "ddp": "one process trained on every rank's batches",
            "ddp_accum": "one process trained on every rank's micro-batches, synchronizing "
                         "every one"}[args.check]
    found.append(_weights_check(args, flats[0], _flat(ref_model.parameters()), what))
    if autocast:
        dtypes = sorted({str(t.dtype).replace("torch.", "") for w in weights for t in w})
        found.append(_check(
            "weights in fp32", dtypes == ["float32"],
            f"the weights are {', '.join(dtypes)}: autocast computes in bf16 but keeps the "
            "weights (and the optimizer's update) in fp32"))
    if args.check in ("ddp", "ddp_accum"):
        if args.exchanged_bytes >= 0:
            found.append(_all_reduce_check(args, flats[0].numel()))
        else:
            notes.append("the all-reduces were not counted: this system refused the ranks a "
                         "network of their own, whose traffic would tell")
    return found, ref_losses, notes


def hints(args, reported):
    """What the ranks said of themselves, as sentences: never part of the verdict."""
    found = []
    wanted = args.steps * args.accumulation
    for key, count, text in (
            ("batches", wanted, "get_batch() was called {} times; the lesson's loop takes {}"),
            ("optimizer steps", args.steps, "optimizer.step() ran {} times; the lesson takes {}"),
            ("loss logged", args.steps, "run.log(loss) was called {} times: once per step ({}) "
                                        "draws the loss curve")):
        field = {"batches": "batches_drawn", "optimizer steps": "optimizer_steps"}.get(key)
        values = [len(r["losses"]) if field is None else r[field] for r in reported]
        off = [v for v in values if v != count]
        found.append({"name": key, "matches": not off,
                      "message": text.format(off[0] if off else count, count)})
    if args.check == "amp":
        dtypes = reported[0]["forward_dtypes"]
        bf16, total = dtypes.get("bfloat16", 0), sum(dtypes.values())
        found.append({"name": "forward in bf16", "matches": total > 0 and bf16 == total,
                      "message": f"{bf16} of {total} forwards of the first Linear gave bfloat16 "
                                 "outputs"})
    if args.check == "checklist":
        logged = [len(r["grad_norms"]) for r in reported]
        found.append({"name": "gradient norm logged", "matches": logged[0] == args.steps,
                      "message": f"run.log(loss, norm) gave a gradient norm {logged[0]} times: "
                                 f"once a step ({args.steps}) draws the gradient-norm curve"})
    if args.check in ("ddp", "ddp_accum", "zero"):
        wrapped = min(r["ddp_wrapped"] for r in reported)
        found.append({"name": "model wrapped in DDP", "matches": wrapped > 0,
                      "message": "the model was " + ("" if wrapped else "not ") +
                                 "wrapped in DistributedDataParallel"})
    return found


def verdict_text(checks, hinted, notes):
    lines = [("ok    " if c["passed"] else "NOT   ") + c["message"] for c in checks]
    lines += [f"      ({note})" for note in notes]
    if hinted:
        lines.append("What the ranks reported of themselves (a hint: the code could have changed "
                     "it, so the verdict does not rest on it):")
        lines += [("  ok    " if h["matches"] else "  NOT   ") + h["message"] for h in hinted]
    solved = all(c["passed"] for c in checks)
    lines.append("Solved!" if solved else
                 "Not solved yet: " + next(c["name"] for c in checks if not c["passed"]) + ".")
    return "\n".join(lines) + "\n", solved


def _write_new(path, text):
    """Writes a file this check makes; one already there is an error."""
    with open(path, "x", encoding="utf-8") as file:
        file.write(text)


def run(args):
    """0 solved, NOT_MET, or REFUSED (verdict.txt says why)."""
    tokens = training_tokens()
    try:
        weights = [load_weights(args.source, rank, args.embd, args.check)
                   for rank in range(args.ranks)]
    except Refused as refused:
        _write_new(os.path.join(args.out, "verdict.txt"), str(refused) + "\n")
        return REFUSED
    reported = [load_reported(args.source, rank) for rank in range(args.ranks)]
    ref_norms = []
    if args.check in torchrecipes.CHECKS[4:]:
        checks, ref_losses, ref_norms, notes = decide_later(args, [_flat(w) for w in weights])
    else:
        checks, ref_losses, notes = decide(args, tokens, weights)
    hinted = hints(args, reported)
    text, solved = verdict_text(checks, hinted, notes)
    _write_new(os.path.join(args.out, "verdict.txt"), text)
    model = build_model(args.embd, args.check)
    first = batch_starts(0, args.steps * args.accumulation, batch_size(args.check))[0]
    with torch.no_grad():
        init_loss = float(model(*batch_at(tokens, first))[1])
    result = {
        "format": "rankstep-torch-lesson", "version": 1, "check": args.check,
        "solved": solved, "wall_seconds": args.wall_seconds,
        "init_loss": init_loss, "expected_init_loss": math.log(VOCAB_SIZE),
        "checks": checks,
        "hints": [{"name": h["name"], "matches": h["matches"], "message": h["message"]}
                  for h in hinted],
        "reference_losses": ref_losses,
        "reference_grad_norms": ref_norms,
        "clip_norm": torchrecipes.CLIP_NORM if args.check == "checklist" else 0,
        "ranks": [{"rank": r["rank"], "losses": r["losses"], "grad_norms": r["grad_norms"],
                   "seconds": r["seconds"],
                   "optimizer_steps": r["optimizer_steps"], "all_reduces": r["all_reduces"],
                   "forward_dtypes": r["forward_dtypes"]} for r in reported],
    }
    _write_new(os.path.join(args.out, "report.json"), json.dumps(result, indent=1))
    return 0 if solved else NOT_MET


def main(argv=None):
    """Without a sandbox (for trying the package by hand)."""
    return run(prepare(argv if argv is not None else sys.argv[1:]))


if __name__ == "__main__":
    sys.exit(main())
