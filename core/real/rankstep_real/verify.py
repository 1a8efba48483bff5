# SPDX-License-Identifier: MIT
"""After a real run: do the ranks' final weights, put together, equal what one process training
the same model on every batch gets? `python3 -m rankstep_real.verify --out DIR ...`

The single process runs the same layers on all batches at once, takes the gradient of the same
loss and makes one Adam step (tensors.py). Each layer's final weight is assembled from the shards
every rank set with set_final_weight (across nodes, the other nodes' ranks sent theirs:
exchange.py); a value two ranks both hold must agree. Writes the largest difference per layer, and
the ranks whose values differ, to verdict.txt, the run to report.json and, with --profile, the
ranks' profiles merged to profile.json (profilemerge.py).

The ranks' files were written by processes that ran the learner's code, so they are read as data
only (weightsfile.py: no pickle), every field checked, and this runs as `rankstep-runner
__real-rank --check-module rankstep_real.verify` (cli/realrank.h), sandboxed as the ranks are but
without the network: it reads their folder (--from) and writes only its own (--out).
"""
import argparse
import json
import os
import sys

import torch

from . import profilemerge, tensors, weightsfile

WEIGHTS_DIFFER = 3  # the exit code rankstep-cli real reads as "trains another model"
REFUSED = 4  # a rank's file is not what a rank writes: the run does not count
REPORT_LIMIT = 64 << 20  # a rank's report: its events and storage changes
TOLERANCE = 1e-9  # float64 sums in another order differ by about 1e-16 of the values here


def reference_weights(sizes, layers, batches):
    """Every layer's weight after one training step of one process on all batches."""
    everything = list(range(batches))
    weights = [tensors.initial_weight(sizes, layer) for layer in range(layers)]
    activations = [tensors.rows_of(sizes, everything, tensors.batch_inputs)]
    for layer in range(layers):
        activations.append(tensors.forward(activations[-1], weights[layer]))
    targets = tensors.rows_of(sizes, everything, tensors.batch_targets)
    grad = tensors.loss_grad(activations[-1], targets, batches, sizes.length)
    updated = [None] * layers
    for layer in reversed(range(layers)):
        grad_weight, grad = tensors.backward(activations[layer], grad, weights[layer])
        zeros = torch.zeros_like(grad_weight)
        updated[layer], _, _ = tensors.adam(weights[layer], grad_weight, zeros, zeros.clone(), 1)
    return updated


def _offsets(total_values, total):
    offsets = [0]
    for piece in tensors.split_flat(torch.empty(total_values), total):
        offsets.append(offsets[-1] + piece.numel())
    return offsets


def assemble(rank_weights, layer, hidden):
    """(flat weight or None, the ranks' largest disagreement, steps seen) for one layer."""
    total_values = hidden * hidden
    flat = torch.full((total_values,), float("nan"), dtype=tensors.DTYPE)
    disagreement, steps = 0.0, set()
    for weights in rank_weights:
        entry = weights.get(layer)
        if entry is None:
            continue
        steps.add(entry["step"])
        offsets = _offsets(total_values, entry["total"])
        for shard, part in entry["parts"].items():
            region = flat[offsets[shard]: offsets[shard + 1]]
            known = ~torch.isnan(region)
            if known.any():
                disagreement = max(disagreement,
                                   float((region[known] - part[known]).abs().max()))
            flat[offsets[shard]: offsets[shard + 1]] = part
    if torch.isnan(flat).any():
        return None, disagreement, steps
    return flat.view(hidden, hidden), disagreement, steps


def differing_ranks(rank_weights, layer, expected):
    """The ranks whose shards of `layer` differ from one process's weight by more than the
    tolerance, in order."""
    flat, wrong = expected.reshape(-1), []
    for rank, weights in enumerate(rank_weights):
        entry = weights.get(layer)
        if entry is None:
            continue
        offsets = _offsets(flat.numel(), entry["total"])
        if any(part.numel() and float(
                (flat[offsets[shard]: offsets[shard + 1]] - part).abs().max()) > TOLERANCE
               for shard, part in entry["parts"].items()):
            wrong.append(rank)
    return wrong


class Refused(Exception):
    """A rank's file that is not what a rank writes; its sentence says which and why."""


def _whole(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _shard_length(values, total, shard):
    """The length of shard `shard` of `total` as torch.tensor_split cuts `values` values."""
    return values // total + (1 if shard < values % total else 0)


def load_rank(folder, rank, layers, hidden):
    """One rank's final weights as assemble() takes them: {layer: {"step", "total", "parts"}}.
    Raises Refused when the file is not a rank's."""
    name = f"rank-{rank}.weights"
    limit = layers * hidden * hidden * 8 + weightsfile.HEADER_LIMIT + 64
    try:
        parts, meta = weightsfile.read(os.path.join(folder, name), limit)
        return _checked(parts, meta, layers, hidden)
    except weightsfile.WeightsFileError as error:
        raise Refused(f"Rank {rank}'s final weights ({name}) were refused: {error}. The rank's "
                      "process ran the code and wrote that file, so the code may have changed "
                      "it; the run does not count.") from None
    except FileNotFoundError:
        raise Refused(f"Rank {rank}'s final weights ({name}) are missing: the rank ended without "
                      "writing them or, across nodes, they never came from its node; the run "
                      "does not count.") from None
    except OSError as error:
        raise Refused(f"Rank {rank}'s final weights ({name}) could not be read "
                      f"({error.strerror}); the run does not count.") from None


def _checked(parts, meta, layers, hidden):
    values = hidden * hidden
    listed = meta.get("layers")
    if not isinstance(listed, dict):
        raise weightsfile.WeightsFileError("it lists no layers")
    weights = {}
    for key, entry in listed.items():
        if not (key.isdigit() and _whole(int(key), 0, layers - 1)) or not isinstance(entry, dict) \
                or not _whole(entry.get("step"), 0, 2**31) \
                or not _whole(entry.get("total"), 1, values):
            raise weightsfile.WeightsFileError(f"its layer entry {key!r} is not a layer of this "
                                               "run with a step and a number of shards")
        weights[int(key)] = {"step": entry["step"], "total": entry["total"], "parts": {}}
    for name, part in parts.items():
        layer, _, shard = name.partition("/")
        entry = weights.get(int(layer)) if layer.isdigit() else None
        if entry is None or not shard.isdigit() or int(shard) >= entry["total"]:
            raise weightsfile.WeightsFileError(f"it holds {name!r}, no shard of a listed layer")
        if part.dtype != tensors.DTYPE or part.dim() != 1 or \
                part.numel() != _shard_length(values, entry["total"], int(shard)):
            raise weightsfile.WeightsFileError(f"shard {name!r} is not a float64 slice of the "
                                               "length its layer's shards have")
        entry["parts"][int(shard)] = part
    return weights


def verify(out, ranks, layers, batches, sizes):
    # Every rank's file, also across nodes: the ranks of the other nodes sent theirs
    # (exchange.py), so each node checks the whole model.
    rank_weights = [load_rank(out, r, layers, sizes.hidden) for r in range(ranks)]
    expected = reference_weights(sizes, layers, batches)
    per_layer, first_wrong, largest = [], None, 0.0
    for layer in range(layers):
        weight, disagreement, steps = assemble(rank_weights, layer, sizes.hidden)
        row = {"layer": layer, "steps": sorted(steps), "ranks_disagree_by": disagreement}
        if weight is None:
            row["max_abs_diff"] = None
            row["problem"] = "no rank set the whole final weight of this layer"
        else:
            row["max_abs_diff"] = float((weight - expected[layer]).abs().max())
            largest = max(largest, row["max_abs_diff"])
            if row["max_abs_diff"] > TOLERANCE or disagreement > TOLERANCE:
                row["problem"] = "differs from one process trained on every batch"
                row["ranks_differ"] = differing_ranks(rank_weights, layer, expected[layer])
        if "problem" in row and first_wrong is None:
            first_wrong = layer
        per_layer.append(row)
    return {"weights_match": first_wrong is None, "first_wrong_layer": first_wrong,
            "max_abs_diff": largest, "layers": per_layer, "tolerance": TOLERANCE}


def _node_of(rank, ranks, nnodes):
    return rank // (ranks // nnodes)


def _listed(numbers):
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def whose_values(wrong, ranks, nnodes):
    """ "rank 5 (node 1)", "ranks 4 and 5 (node 1) and rank 0 (node 0)": the ranks holding values
    that differ, by node when the run spans nodes."""
    if not wrong:
        return ""
    if nnodes == 1:
        return ("rank " if len(wrong) == 1 else "ranks ") + _listed(wrong)
    by_node = {}
    for rank in wrong:
        by_node.setdefault(_node_of(rank, ranks, nnodes), []).append(rank)
    return _listed([("rank " if len(members) == 1 else "ranks ") + _listed(members) +
                    f" (node {node})" for node, members in by_node.items()])


def describe(verdict, ranks, nnodes=1):
    """The verdict as the learner reads it."""
    lines = ["layer  largest |difference| from one process"]
    for row in verdict["layers"]:
        diff = row["max_abs_diff"]
        text = "none set" if diff is None else f"{diff:.3g}"
        problem = f"   <- {row['problem']}" if "problem" in row else ""
        lines.append(f"{row['layer']:>5}  {text}{problem}")
    if verdict["weights_match"]:
        on_nodes = f" on {nnodes} nodes" if nnodes > 1 else ""
        whose = "The weights of the one rank" if ranks == 1 else \
            f"The weights of the {ranks} ranks{on_nodes}, put together,"
        lines.append(f"{whose} match one process trained "
                     f"on every batch (largest difference {verdict['max_abs_diff']:.3g}, "
                     f"tolerance {verdict['tolerance']:g}).")
    else:
        layer = verdict["first_wrong_layer"]
        lines.append(f"Layer {layer} is the first that differs from one process trained on every "
                     "batch: the program trains another model.")
        wrong = verdict["layers"][layer].get("ranks_differ", [])
        if wrong and ranks > 1:
            lines.append(f"Its values differ on {whose_values(wrong, ranks, nnodes)}.")
    return "\n".join(lines) + "\n"


def report(out, args, verdict):
    """The run as JSON: the simulation's trace schema in seconds and real bytes, plus the result."""
    ranks = []
    for rank in range(args.ranks):
        path = os.path.join(out, f"rank-{rank}.json")
        if os.path.exists(path):
            try:
                with weightsfile.open_regular(path) as file:
                    text = file.read(REPORT_LIMIT + 1)
                data = json.loads(text) if len(text) <= REPORT_LIMIT else None
            except (OSError, ValueError):
                data = None
            if not isinstance(data, dict):
                raise Refused(f"Rank {rank}'s report (rank-{rank}.json) is not what a rank "
                              "writes; the run does not count.")
            ranks.append({"rank": rank, "events": data.get("events", []),
                          "changes": data.get("changes", []),
                          "final_weights": data.get("final_weights", []),
                          "memory_end": data.get("memory_end", 0)})
    return {
        "format": "rankstep-trace", "version": 1, "clock": "seconds", "memory": "bytes",
        "config": {"ranks": args.ranks, "layers": args.layers, "batches": args.batches,
                   "hidden": args.hidden, "length": args.length, "seed": args.seed},
        "result": {"status": "ok", "correct": verdict["weights_match"],
                   "weights_match": verdict["weights_match"],
                   "max_abs_diff": verdict["max_abs_diff"], "wall_seconds": args.wall_seconds,
                   "first_wrong_layer": verdict["first_wrong_layer"],
                   "layers": verdict["layers"]},
        "ranks": ranks,
    }


def _arguments(argv):
    parser = argparse.ArgumentParser(prog="rankstep_real.verify")
    for name in ("ranks", "layers", "batches"):
        parser.add_argument("--" + name, type=int, required=True)
    parser.add_argument("--hidden", type=int, default=512)
    parser.add_argument("--length", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--wall-seconds", type=float, default=0.0)
    parser.add_argument("--nnodes", type=int, default=1, help="the nodes the ranks ran on")
    parser.add_argument("--profile", default="", help="merge the ranks' profiles into this file")
    parser.add_argument("--from", dest="source", required=True, help="the ranks' folder")
    parser.add_argument("--out", required=True, help="where verdict.txt and report.json go")
    return parser.parse_args(argv)


def _write_new(path, text):
    """Writes a file this check makes; one already there (a rank's doing) is an error."""
    with open(path, "x", encoding="utf-8") as file:
        file.write(text)


def prepare(argv):
    """Called before the sandbox closes (cli/realrank.cpp): only reads the arguments."""
    torch.set_num_threads(1)
    return _arguments(argv)


def run(args):
    """0 the weights match, WEIGHTS_DIFFER, or REFUSED (verdict.txt says why)."""
    sizes = tensors.Sizes(args.hidden, args.length, args.seed)
    try:
        verdict = verify(args.source, args.ranks, args.layers, args.batches, sizes)
        whole = report(args.source, args, verdict)
    except Refused as refused:
        _write_new(os.path.join(args.out, "verdict.txt"), str(refused) + "\n")
        return REFUSED
    notes = []
    if args.profile:  # every rank's profile, read as untrusted data (profilemerge.py)
        try:
            notes = profilemerge.merge(args.source, args.ranks,
                                       os.path.join(args.out, "profile.json"))
        except (MemoryError, RecursionError, OSError) as error:
            notes = [f"The ranks' profiles could not be put together ({type(error).__name__}), so "
                     "no profile was written."]
    _write_new(os.path.join(args.out, "verdict.txt"),
               describe(verdict, args.ranks, args.nnodes) + "".join(n + "\n" for n in notes))
    _write_new(os.path.join(args.out, "report.json"),
               json.dumps(whole, indent=1) + "\n")
    # Not 1: an uncaught exception exits with 1, and must not read as "the weights differ".
    return 0 if verdict["weights_match"] else WEIGHTS_DIFFER


def main(argv=None):
    """Without a sandbox (for trying the package by hand)."""
    return run(prepare(argv if argv is not None else sys.argv[1:]))


if __name__ == "__main__":
    sys.exit(main())
