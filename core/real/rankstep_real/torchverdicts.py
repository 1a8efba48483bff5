# SPDX-License-Identifier: MIT
"""The checks of the later PyTorch lessons (zero, fsdp, checkpoint, checklist), made by
torchjudge.py outside the ranks: from the files the ranks left (read as data, never unpickled),
the bytes the kernel counted on their loopback, each rank's peak memory as the kernel measured it,
and reference runs this process trains itself.
"""
import itertools
import math
import os
import resource

import torch
from torch.utils.checkpoint import checkpoint

from . import torchrecipes, weightsfile
from .torchlesson import (WEIGHTS_TOLERANCE, batch_at, batch_size, batch_starts, build_model,
                          reference, training_tokens)

SLACK = 0.25  # bytes within this share of what the lesson's collectives send
# Adam's moments are sums of products: compared as the weights are, but relative to their size.
STATE_TOLERANCE = 1e-5


def check(name, passed, message):
    return {"name": name, "passed": bool(passed), "message": message}


def flat(tensors):
    return torch.cat([t.detach().float().reshape(-1) for t in tensors])


def _read(folder, name, limit):
    """A file a rank left, as {name: tensor}; None when it left none or it is not one a rank
    writes (the message says so)."""
    path = os.path.join(folder, name)
    if not os.path.lexists(path):
        return None, f"rank left no {name}"
    try:
        return weightsfile.read(path, limit)[0], ""
    except weightsfile.WeightsFileError as error:
        return None, f"{name} was refused: {error}"
    except OSError as error:
        return None, f"{name} could not be read ({error.strerror})"


def _mib(value):
    return f"{value / (1 << 20):.3g} MiB"


def _bytes_check(name, sent, expected, told, less, more):
    ratio = sent / expected if expected else 0
    said = f"the ranks sent each other {_mib(sent)}; {told} make about {_mib(expected)}"
    if ratio < 1 - SLACK:
        return check(name, False, said + ": " + less(ratio))
    if ratio > 1 + SLACK:
        return check(name, False, said + f", {ratio:.1f} times as much: " + more)
    return check(name, True, said)


def _state_check(name, saved, wanted, what):
    """`saved` (flat exp_avg and exp_avg_sq, or None and why) against the reference's."""
    diffs = [float((saved[k] - wanted[k]).abs().max() / (wanted[k].abs().max() + 1e-12))
             for k in ("exp_avg", "exp_avg_sq")]
    if max(diffs) <= STATE_TOLERANCE:
        return check(name, True, f"{what} equals the reference's AdamW state (largest relative "
                                 f"difference {max(diffs):.3g})")
    return check(name, False, f"{what} differs from the reference's AdamW state by up to "
                              f"{max(diffs):.3g} of its size")


def _held(args):
    """Each rank's count of the values whose AdamW state it held at the end (rank-R.held: the
    harness counts every AdamW the rank stepped, after train(run)), or (None, why)."""
    held = []
    for rank in range(args.ranks):
        limit = weightsfile.HEADER_LIMIT + (8 << 16)
        tensors, why = _read(args.source, f"rank-{rank}.held", limit)
        counts = None if tensors is None else tensors.get("held")
        if counts is None or counts.dim() != 1 or not bool(torch.isfinite(counts).all()) or \
                bool((counts < 0).any()) or bool((counts != counts.round()).any()):
            return None, f"rank {rank}: {why or 'rank-' + str(rank) + '.held holds no counts'}"
        held.append(int(counts.sum()))
    return held, ""


def held_check(args, count, fits, teach):
    """Whether the ranks held the optimizer state the lesson shards (`fits(held)`, each rank's
    count), not each the whole model's `count` values as every rank of plain DDP does; `teach`
    says what the lesson keeps."""
    name = "state held per rank"
    held, why = _held(args)
    if held is None:
        return check(name, False, f"what the ranks' optimizers held is not known ({why})")
    said = ", ".join(f"rank {r} {n}" for r, n in enumerate(held))
    whole = [r for r, n in enumerate(held) if n >= count]
    if whole:
        return check(name, False, f"rank {whole[0]}'s AdamW held the state of all {count} of "
                                  f"the model's values ({said}), as every rank of plain DDP "
                                  f"does: {teach}")
    if not fits(held):
        return check(name, False, f"the ranks' AdamW held the state of {said} values, of the "
                                  f"model's {count}; {teach}")
    return check(name, True, f"each rank's AdamW held the state of its shard alone: {said} of "
                             f"the model's {count} values")


def zero(args, flats):
    """ZeroRedundancyOptimizer: the optimizer state sharded (from the bytes: each rank updates
    its shard and broadcasts it), and gathered whole on rank 0 for saving."""
    found, keep = [], {}
    model, losses = reference(args, args.ranks, training_tokens(), keep=keep)
    parameters = list(model.parameters())
    found.append(_weights(flats[0], flat(parameters), "one process trained on every rank's "
                                                      "batches with AdamW"))
    count = flats[0].numel()
    if args.exchanged_bytes >= 0:
        unit = (args.ranks - 1) * count * 4
        gathered = (args.ranks - 1) ** 2 * 2 * count * 4 / args.ranks
        expected = unit * (3 * args.steps + 1) + gathered

        def less(ratio):
            if ratio < 0.45:
                return ("the gradients were not averaged every step (a ZeroRedundancyOptimizer "
                        "shards the optimizer; DDP still all-reduces the gradients)")
            return ("that is what DDP's all-reduce alone sends: every rank updated every "
                    "parameter, so every rank held the whole optimizer state. A "
                    "ZeroRedundancyOptimizer updates only its rank's shard and broadcasts it: "
                    "half an all-reduce more a step")

        found.append(_bytes_check(
            "optimizer state sharded", args.exchanged_bytes, expected,
            f"an all-reduce of the gradients and a broadcast of each rank's updated shard a step "
            f"({args.steps} steps), and gathering the state once", less,
            "more than the lesson's collectives"))
    found.append(held_check(
        args, count, lambda held: sum(held) == count,
        "a ZeroRedundancyOptimizer keeps on each rank the state of its share of the parameters "
        "alone, and steps that share"))
    state = torchrecipes.optimizer_state(keep["optimizer"], parameters)
    saved, why = _read(args.source, "rank-0.optimizer", count * 16 + weightsfile.HEADER_LIMIT)
    name = "optimizer state saved"
    if saved is None:
        found.append(check(name, False, f"rank 0 saved no optimizer state ({why}): after "
                                        "training every rank calls "
                                        "optimizer.consolidate_state_dict(to=0), then rank 0 "
                                        "calls run.save_optimizer(optimizer)"))
        return found, losses
    have = [i for i in range(len(parameters)) if f"{i}.exp_avg" in saved and
            f"{i}.exp_avg_sq" in saved and saved[f"{i}.exp_avg"].numel() == parameters[i].numel()]
    if len(have) < len(parameters):
        found.append(check(name, False, f"rank 0's saved state covers {len(have)} of the model's "
                                        f"{len(parameters)} parameters: a rank holds only its "
                                        "shard until consolidate_state_dict(to=0) gathers "
                                        "every rank's on rank 0"))
        return found, losses
    mine = {k: torch.cat([saved[f"{i}.{k}"].reshape(-1) for i in have])
            for k in ("exp_avg", "exp_avg_sq")}
    found.append(_state_check(name, mine, state, "rank 0's saved optimizer state"))
    return found, losses


def fsdp(args):
    """Sharding by hand: each rank's shard of the flat parameters and its AdamW state of it,
    together the reference's; the bytes of an all-gather and a reduce-scatter a step."""
    keep = {}
    model, losses = reference(args, args.ranks, training_tokens(), keep=keep)
    parameters = list(model.parameters())
    whole = flat(parameters)
    count = whole.numel()
    size = -(-count // args.ranks)
    shards, states, found = [], {"exp_avg": [], "exp_avg_sq": []}, []
    for rank in range(args.ranks):
        limit = size * 16 + weightsfile.HEADER_LIMIT
        shard, why = _read(args.source, f"rank-{rank}.shard", limit)
        if shard is None or shard["shard"].numel() != size:
            held = "" if shard is None else f"it holds {shard['shard'].numel()} values"
            found.append(check("shards", False, f"rank {rank}'s shard: {why or held}; each rank "
                                                f"keeps ceil({count} / {args.ranks}) = {size} "
                                                "values and calls run.save_shard(shard, "
                                                "optimizer) after training"))
            return found, losses
        shards.append(shard["shard"].reshape(-1))
        state, why = _read(args.source, f"rank-{rank}.optimizer", limit * 2)
        if state is not None and (set(state) != {"0.exp_avg", "0.exp_avg_sq"} or
                                  state["0.exp_avg"].numel() != size):
            why = f"it holds {sum(t.numel() for t in state.values()) // 2} values' state"
            state = None
        if state is None:
            found.append(check("optimizer sharded", False, f"rank {rank}'s optimizer state is not "
                                                           f"that of its shard alone ({why}): its "
                                                           "AdamW holds one parameter, the shard"))
            return found, losses
        for key in states:
            states[key].append(state[f"0.{key}"].reshape(-1))
    found.append(check("shards", True, f"every rank kept a shard of {size} of the model's "
                                       f"{count} values, and its AdamW only that shard's state"))
    found.append(held_check(args, count, lambda held: all(n == size for n in held),
                            f"FSDP's rank steps an AdamW of its shard of {size} values alone"))
    found.append(_weights(torch.cat(shards)[:count], whole,
                          "one process trained on every rank's batches"))
    wanted = torchrecipes.optimizer_state(keep["optimizer"], parameters)
    theirs = {k: torch.cat(v)[:count] for k, v in states.items()}
    found.append(_state_check("optimizer sharded", theirs, wanted,
                              "the AdamW state the ranks' shards hold together"))
    if not found[-2]["passed"] and _summed(theirs, wanted, args.ranks):
        found.append(check("gradients averaged", False,
                           f"AdamW's first moment is {args.ranks} times the reference's: the "
                           "slices of the gradient were summed over the ranks but not divided by "
                           "run.world_size (Adam's update hides most of it; the weights still "
                           "drift)"))
    if args.exchanged_bytes >= 0:
        expected = 2 * (args.ranks - 1) * count * 4 * args.steps

        def less(ratio):
            return ("an all-gather of the parameters before each forward and a reduce-scatter of "
                    "the gradients after each backward were not both made every step")

        found.append(_bytes_check(
            "all-gather and reduce-scatter", args.exchanged_bytes, expected,
            f"an all-gather of the parameters and a reduce-scatter of the gradients a step "
            f"({args.steps} steps)", less,
            "an all-reduce of the whole gradient sends twice what a rank needs; send each "
            "slice only to the rank that owns it (dist.all_to_all_single) and add up there"))
    return found, losses


def _summed(theirs, wanted, ranks):
    """Whether `theirs` is AdamW's state of gradients `ranks` times the reference's (a sum where
    the mean belongs): its first moment is that many times the reference's."""
    scale = wanted["exp_avg"].abs().max() + 1e-12
    return float((theirs["exp_avg"] - ranks * wanted["exp_avg"]).abs().max() / scale) < 1e-2


def _weights(mine, theirs, what, name="weights", tolerance=WEIGHTS_TOLERANCE, why=""):
    diff = float((mine - theirs).abs().max()) if mine.numel() == theirs.numel() else math.inf
    if diff <= tolerance:
        return check(name, True, f"the weights equal those of {what}, to float rounding "
                                 f"(largest difference {diff:.3g})")
    return check(name, False, f"the weights differ from those of {what} by up to {diff:.3g} "
                              f"(tolerance {tolerance:g}){why}")


def _peak_kib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _checkpointed_step(args, tokens):
    """Two steps of the checkpoint lesson's loop as the lesson asks for it (the second with
    AdamW's state), for the memory they need: this process's own peak, before and after."""
    model = build_model(args.embd, args.check)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    starts = batch_starts(0, 2, batch_size(args.check))
    for step in range(2):
        x = model.token_embedding_table(batch_at(tokens, starts[step])[0])
        for block in model.blocks:
            x = checkpoint(block, x, use_reentrant=False)
        model.readout(x, batch_at(tokens, starts[step])[1])[1].backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)


def checkpoint_memory(args, flats):
    """Activation checkpointing: the weights of the plain loop, and a rank's peak memory (the
    kernel's, measured outside it) nearer to what the checkpointed step needs than to what
    keeping every activation needs, both measured here, in this process, on the same model."""
    tokens = training_tokens()
    before = _peak_kib()
    _checkpointed_step(args, tokens)
    checkpointed = _peak_kib()
    model, losses = reference(args, 1, tokens)
    kept = _peak_kib()
    # Exactly: a checkpointed block computes again what it computed, the same numbers on one
    # thread. Memory saved another way rounds differently: a batch split into slices whose
    # gradients add up (accumulation) ends 4e-07 away, within WEIGHTS_TOLERANCE, at a peak as low.
    found = [_weights(flats[0], flat(model.parameters()),
                      "the plain loop (checkpointing recomputes; it changes no number)",
                      tolerance=0.0,
                      why=": checkpointing changes no number, so the memory was saved another "
                          "way (a batch split into slices whose gradients add up rounds "
                          "differently); the lesson asks for torch.utils.checkpoint")]
    if not args.peak_rss_kib or args.peak_rss_kib[0] <= 0:
        return found, losses, ["the ranks' peak memory was not measured on this system"]
    peak = args.peak_rss_kib[0]
    saved = kept - checkpointed
    # The rank's own start (its process group, the learner's module) lies a little above this
    # process's: the allowance.
    line = checkpointed + saved / 2 + args.memory_allowance_kib
    said = (f"rank 0's peak memory was {peak / 1024:.0f} MiB (the kernel's count of its "
            f"resident pages); in this process the checkpointed step took "
            f"{(checkpointed - before) / 1024:.0f} MiB above the {before / 1024:.0f} MiB it "
            f"started at, keeping every activation {(kept - before) / 1024:.0f} MiB")
    if saved < 4096:
        return found + [check("memory", False, said + ": at this size checkpointing saves too "
                                                      "little to tell; run the lesson's own "
                                                      "size")], losses, []
    if peak <= line:
        return found + [check("memory", True, said + ": the rank kept one block's "
                                                     "activations at a time")], losses, []
    return found + [check("memory", False, said + ": the rank kept every block's activations "
                                                  "(torch.utils.checkpoint.checkpoint(block, x, "
                                                  "use_reentrant=False) around each block keeps "
                                                  "only its input; one checkpoint around all "
                                                  "of them recomputes them all at once)")], \
        losses, []


def checklist(args, flats):
    """The checklist's habits: the weights of its run (zeroed readout, warmup, clipping), or the
    habit whose run they equal when left out."""
    tokens = training_tokens()
    starts = batch_starts(0, args.steps)

    def batches(step):
        return batch_at(tokens, starts[step])

    model, losses, norms = torchrecipes.checklist_reference(build_model(args.embd, "checklist"),
                                                           batches, args.steps)
    careless = build_model(args.embd, "checklist")
    with torch.no_grad():
        init_loss = float(careless(*batches(0))[1])
    said = (f"the lesson's model starts at loss {init_loss:.3f}; ln(10) = {math.log(10):.3f} "
            "is what a model that guesses every token equally likely scores")
    found = [_weights(flats[0], flat(model.parameters()),
                      "the checklist's run (the readout zeroed, AdamW with weight decay 0.1, "
                      f"{torchrecipes.WARMUP_STEPS} warmup steps, gradients clipped to "
                      f"norm {torchrecipes.CLIP_NORM:g})")]
    if found[0]["passed"]:
        return [check("loss at init", True, said + "; the zeroed readout starts at "
                                                    "exactly ln(10)")] + found, losses, norms
    habits = list(torchrecipes.CHECKLIST_VARIANTS)
    names = {"init": "loss at init", "warmup": "warmup", "clip": "clipping"}
    for size in range(1, len(habits) + 1):
        for left_out in itertools.combinations(habits, size):
            other, _, _ = torchrecipes.checklist_reference(
                build_model(args.embd, "checklist"), batches, args.steps, leave_out=left_out)
            if float((flats[0] - flat(other.parameters())).abs().max()) > WEIGHTS_TOLERANCE:
                continue
            return found + [check(names[habit], False,
                                  "the weights equal a run where " +
                                  torchrecipes.CHECKLIST_VARIANTS[habit] +
                                  ("; " + said if habit == "init" else ""))
                            for habit in left_out], losses, norms
    return found + [check("habits", False, "the weights equal no run that leaves out some of the "
                                           "checklist's habits: compare your loop with the "
                                           "lesson's, line by line")], losses, norms
