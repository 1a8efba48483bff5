# SPDX-License-Identifier: MIT
"""After a real run: do the ranks' final weights, put together, equal what one process training
the same model on every batch gets? `python3 -m rankstep_real.verify --out DIR ...`

The single process runs the same layers on all batches at once, takes the gradient of the same
loss and makes one Adam step (tensors.py). A layer the simulated run trained as tensor-parallel
slices is blocks.py's two-block layer, a layer of experts blocks.py's experts with its router, a
layer of a run whose context group split the sequence blocks.py's attention layer over the whole
sequence (--kinds and --experts, which `rankstep-cli real` takes from the simulation, not from a
rank).
Each layer's final weight (each expert's) is assembled from the shards or slices every rank set
with set_final_weight (across nodes, the other nodes' ranks sent theirs: exchange.py); a value
two ranks both hold must agree. Writes the largest difference per layer, and
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

from . import blocks, profilemerge, tensors, weightsfile

WEIGHTS_DIFFER = 3  # the exit code rankstep-cli real reads as "trains another model"
REFUSED = 4  # a rank's file is not what a rank writes: the run does not count
REPORT_LIMIT = 64 << 20  # a rank's report: its events and storage changes
TOLERANCE = 1e-9  # float64 sums in another order differ by about 1e-16 of the values here


def reference_weights(sizes, layers, batches, kinds=None, experts=1):
    """Every layer's weights after one training step of one process on all batches, flat, by
    unit: (layer, None), or (layer, e) for expert e of an expert layer."""
    kinds = kinds or ["dense"] * layers
    weights = [_initial(sizes, layer, kind, experts) for layer, kind in enumerate(kinds)]
    activations = [tensors.rows_of(sizes, list(range(batches)), tensors.batch_inputs)]
    middles = []  # a tensor-parallel layer's activation between its two blocks
    for layer, kind in enumerate(kinds):
        x = activations[-1]
        if kind == "tensor":
            middles.append(blocks.block_forward(x, weights[layer][0], weights[layer][1]))
            activations.append(blocks.block_forward(middles[-1], weights[layer][2],
                                                    weights[layer][3]))
        elif kind == "attention":  # every batch's whole sequence at once
            middles.append(None)
            every = torch.arange(sizes.length)
            activations.append(blocks.attention_layer(x, x, None, None, weights[layer], every,
                                                      every, batches))
        else:
            middles.append(None)
            activations.append(_by_batch(x, sizes, batches, experts, kind, weights[layer],
                                         tensors.forward))
    targets = tensors.rows_of(sizes, list(range(batches)), tensors.batch_targets)
    grad = tensors.loss_grad(activations[-1], targets, batches, sizes.length)
    updated = {}
    for layer in reversed(range(layers)):
        grads, grad = _backward(sizes, batches, experts, kinds[layer], weights[layer],
                                activations[layer], middles[layer], grad)
        for unit, (weight, grad_weight) in _units(layer, kinds[layer], weights[layer], grads):
            zeros = torch.zeros_like(grad_weight)
            updated[unit], _, _ = tensors.adam(weight, grad_weight, zeros, zeros.clone(), 1)
            updated[unit] = updated[unit].reshape(-1)
    return updated


def _initial(sizes, layer, kind, experts):
    if kind == "tensor":
        return blocks.initial_tensor_layer(sizes, layer)
    if kind == "attention":
        return blocks.initial_attention_layer(sizes, layer)
    if kind == "expert":
        return [blocks.initial_expert(sizes, layer, e) for e in range(experts)]
    return tensors.initial_weight(sizes, layer)


def _by_batch(x, sizes, batches, experts, kind, weight, compute):
    """A dense layer's compute, or an expert layer's: each batch's rows with its expert's."""
    if kind != "expert":
        return compute(x, weight)
    rows = x.view(batches, sizes.length, -1)
    return torch.cat([compute(rows[b], weight[blocks.expert_of(b, experts)])
                      for b in range(batches)])


def _backward(sizes, batches, experts, kind, weight, x, middle, grad):
    """(the layer's weight gradients as _units takes them, the gradient of its input)."""
    if kind == "tensor":
        grad_a1, grad_b1, grad_middle = blocks.block_backward(middle, grad, weight[2], weight[3])
        grad_a0, grad_b0, grad_x = blocks.block_backward(x, grad_middle, weight[0], weight[1])
        return torch.stack([grad_a0, grad_b0, grad_a1, grad_b1]), grad_x
    if kind == "attention":
        every = torch.arange(sizes.length)
        return blocks.attention_backward(x, x, weight, grad, every, every, batches)
    if kind != "expert":
        return tensors.backward(x, grad, weight)
    grads = [torch.zeros_like(w) for w in weight]
    inputs = x.view(batches, sizes.length, -1)
    outputs = grad.view(batches, sizes.length, -1)
    grad_x = []
    for b in range(batches):
        e = blocks.expert_of(b, experts)
        grad_weight, grad_inp = tensors.backward(inputs[b], outputs[b], weight[e])
        grads[e] += grad_weight
        grad_x.append(grad_inp)
    return grads, torch.cat(grad_x)


def _units(layer, kind, weight, grads):
    if kind == "expert":
        return [((layer, e), (w, g)) for e, (w, g) in enumerate(zip(weight, grads))]
    return [((layer, None), (weight, grads))]


def unit_values(kind, hidden):
    """How many values one unit (a layer, or one expert of it) holds."""
    matrices = {"tensor": blocks.MATRICES, "attention": blocks.ATTENTION_MATRICES}.get(kind, 1)
    return matrices * hidden * hidden


def region(kind, hidden, shard, total):
    """Where shard `shard` of `total` of a unit sits in its flat values."""
    if kind == "tensor":
        return blocks.slice_indices(hidden, shard, total)
    offsets = _offsets(unit_values(kind, hidden), total)
    return torch.arange(offsets[shard], offsets[shard + 1])


def _offsets(total_values, total):
    offsets = [0]
    for piece in tensors.split_flat(torch.empty(total_values), total):
        offsets.append(offsets[-1] + piece.numel())
    return offsets


def _entry_of(weights, unit):
    entry = weights.get(unit[0])
    return entry if entry is not None and entry.get("expert") == unit[1] else None


def assemble(rank_weights, unit, kind, hidden):
    """(flat weights or None, the ranks' largest disagreement, steps seen) for one unit."""
    flat = torch.full((unit_values(kind, hidden),), float("nan"), dtype=tensors.DTYPE)
    disagreement, steps = 0.0, set()
    for weights in rank_weights:
        entry = _entry_of(weights, unit)
        if entry is None:
            continue
        steps.add(entry["step"])
        for shard, part in entry["parts"].items():
            where = region(kind, hidden, shard, entry["total"])
            held = flat[where]
            known = ~torch.isnan(held)
            if known.any():
                disagreement = max(disagreement, float((held[known] - part[known]).abs().max()))
            flat[where] = part
    if torch.isnan(flat).any():
        return None, disagreement, steps
    return flat, disagreement, steps


def differing_ranks(rank_weights, unit, kind, expected, hidden):
    """The ranks whose shards of `unit` differ from one process's weights by more than the
    tolerance, in order."""
    wrong = []
    for rank, weights in enumerate(rank_weights):
        entry = _entry_of(weights, unit)
        if entry is None:
            continue
        if any(part.numel() and float((expected[region(kind, hidden, shard, entry["total"])]
                                       - part).abs().max()) > TOLERANCE
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


def load_rank(folder, rank, kinds, hidden, experts=1):
    """One rank's final weights as assemble() takes them: {layer: {"step", "total", "parts",
    "expert"}}. Raises Refused when the file is not a rank's."""
    name = f"rank-{rank}.weights"
    limit = sum(unit_values(k, hidden) for k in kinds) * 8 + weightsfile.HEADER_LIMIT + 64
    try:
        parts, meta = weightsfile.read(os.path.join(folder, name), limit)
        return _checked(parts, meta, kinds, hidden, experts)
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


def _marks_fit(entry, kind, hidden, experts):
    """The entry's split and expert are what the simulated run trained that layer as."""
    if kind == "tensor":
        return entry.get("split") == "tensor" and "expert" not in entry and \
            _whole(entry.get("total"), 1, hidden)
    if kind == "expert":
        return "split" not in entry and _whole(entry.get("expert"), 0, experts - 1)
    return "split" not in entry and "expert" not in entry


def _expected_length(kind, hidden, total, shard):
    if kind == "tensor":
        return blocks.slice_length(hidden, shard, total)
    return _shard_length(unit_values(kind, hidden), total, shard)


def _checked(parts, meta, kinds, hidden, experts):
    layers, values = len(kinds), hidden * hidden
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
        kind = kinds[int(key)]
        if not _marks_fit(entry, kind, hidden, experts):
            raise weightsfile.WeightsFileError(
                f"its layer entry {key!r} is not a {kind} layer's, as the simulated run trained it")
        weights[int(key)] = {"step": entry["step"], "total": entry["total"], "parts": {},
                             "expert": entry.get("expert"), "kind": kind}
    for name, part in parts.items():
        layer, _, shard = name.partition("/")
        entry = weights.get(int(layer)) if layer.isdigit() else None
        if entry is None or not shard.isdigit() or int(shard) >= entry["total"]:
            raise weightsfile.WeightsFileError(f"it holds {name!r}, no shard of a listed layer")
        if part.dtype != tensors.DTYPE or part.dim() != 1 or part.numel() != _expected_length(
                entry["kind"], hidden, entry["total"], int(shard)):
            raise weightsfile.WeightsFileError(f"shard {name!r} is not a float64 slice of the "
                                               "length its layer's shards have")
        entry["parts"][int(shard)] = part
    return weights


def verify(out, ranks, layers, batches, sizes, kinds=None, experts=1):
    # Every rank's file, also across nodes: the ranks of the other nodes sent theirs
    # (exchange.py), so each node checks the whole model.
    kinds = kinds or ["dense"] * layers
    rank_weights = [load_rank(out, r, kinds, sizes.hidden, experts) for r in range(ranks)]
    expected = reference_weights(sizes, layers, batches, kinds, experts)
    per_layer, first_wrong, largest = [], None, 0.0
    for layer, kind in enumerate(kinds):
        row = {"layer": layer, "steps": [], "ranks_disagree_by": 0.0, "max_abs_diff": 0.0}
        if kind != "dense":
            row["kind"] = kind
        for unit in (expected_unit for expected_unit in expected if expected_unit[0] == layer):
            _check_unit(row, rank_weights, unit, kind, expected[unit], sizes.hidden)
        largest = max(largest, row["max_abs_diff"] or 0.0)
        if "problem" in row and first_wrong is None:
            first_wrong = layer
        per_layer.append(row)
    return {"weights_match": first_wrong is None, "first_wrong_layer": first_wrong,
            "max_abs_diff": largest, "layers": per_layer, "tolerance": TOLERANCE}


def _check_unit(row, rank_weights, unit, kind, expected, hidden):
    """One unit's verdict into its layer's row: the largest difference of the layer's units."""
    weight, disagreement, steps = assemble(rank_weights, unit, kind, hidden)
    row["steps"] = sorted(set(row["steps"]) | steps)
    row["ranks_disagree_by"] = max(row["ranks_disagree_by"], disagreement)
    whose = "" if unit[1] is None else f" of expert {unit[1]}"
    if weight is None:
        row["max_abs_diff"] = None
        row.setdefault("problem", f"no rank set the whole final weight{whose} of this layer")
        return
    diff = float((weight - expected).abs().max())
    if row["max_abs_diff"] is not None:
        row["max_abs_diff"] = max(row["max_abs_diff"], diff)
    if diff > TOLERANCE or disagreement > TOLERANCE:
        row.setdefault("problem", "differs from one process trained on every batch")
        row["ranks_differ"] = sorted(set(row.get("ranks_differ", [])) | set(
            differing_ranks(rank_weights, unit, kind, expected, hidden)))


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
    config = {"ranks": args.ranks, "layers": args.layers, "batches": args.batches,
              "hidden": args.hidden, "length": args.length, "seed": args.seed}
    layout = {"tensor": args.tensor, "context": args.context, "pipeline": args.pipeline,
              "expert": args.experts}
    if any(degree != 1 for degree in layout.values()):  # as a simulated trace says it
        config["layout"] = layout
    return {
        "format": "rankstep-trace", "version": 1, "clock": "seconds", "memory": "bytes",
        "config": config,
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
    parser.add_argument("--kinds", default="",
                        help="each layer as the simulation trained it: dense, tensor, expert or "
                        "attention")
    parser.add_argument("--experts", type=int, default=1, help="the experts of an expert layer")
    for axis in ("tensor", "context", "pipeline"):  # the layout, for the report's config
        parser.add_argument("--" + axis, type=int, default=1)
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
    args = _arguments(argv)
    kinds = args.kinds.split(",") if args.kinds else []
    if kinds and (len(kinds) != args.layers or
                  not set(kinds) <= {"dense", "tensor", "expert", "attention"}):
        raise SystemExit(f"--kinds {args.kinds!r}: one of dense, tensor, expert, attention per "
                         "layer")
    return args


def run(args):
    """0 the weights match, WEIGHTS_DIFFER, or REFUSED (verdict.txt says why)."""
    sizes = tensors.Sizes(args.hidden, args.length, args.seed)
    try:
        kinds = args.kinds.split(",") if args.kinds else None
        verdict = verify(args.source, args.ranks, args.layers, args.batches, sizes, kinds,
                         args.experts)
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
