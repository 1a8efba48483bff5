# SPDX-License-Identifier: MIT
"""`from lib import Model` in a real run: the puzzle API of the simulator, on real tensors.

Every call keeps the simulator's rules on what identifies an object (docs/simulation.md); the run
was simulated first (`rankstep-cli real`), so a broken rule has already been reported in the
simulator's words before any process started. Collectives go through torch.distributed:
allreduce is `all_reduce`; allgather is `all_gather` (each rank's slices padded to one length);
scatterreduce is `all_reduce` and then the rank's own slice (the gloo backend of PyTorch 1.13 has
no `reduce_scatter`); pass_to and receive are `isend` and `recv` (pass_to_start sends at the call,
receive_start receives when awaited); alltoall is
`all_to_all_single` with a split per rank (gloo has no `all_to_all` of a list of tensors). The
tensor-parallel layers and the experts are blocks.py's; a context run's attention layers are
blocks.py's too, and context.py holds their calls.
"""
import io
import json
import sys
import time

import torch
import torch.distributed as dist

from . import blocks, tensors
from .context import ContextLayers, refuse_unknown
from .objects import (  # noqa: F401  (the names a learner imports)
    Activation,
    ActivationGrad,
    KeysValues,
    OptState,
    PuzzleError,
    Weight,
    WeightGrad,
    _Done,
    nbytes,
)
from .objects import _Rows
from .parallel import AXES, Layout, SplitLayers, gather_ints  # noqa: F401  (Layout: rank.py makes one)

HIDDEN = 512
LENGTH = 256


class Recorder:
    """The events of this rank: wall-clock seconds from the run's common start, and the bytes
    the rank's five dictionaries hold when each call is made."""

    def __init__(self, learner_file, progress=None):
        self.learner_file = learner_file
        self.start = time.perf_counter()
        self.events = []
        self.changes = []
        self.messages_sent = 0
        # A line per call as it happens (DIR/rank-R.progress): a rank stopped by the timeout
        # writes no report, and this says where it stood (cli/realcommand.cpp).
        self.progress = progress
        self.scopes = []  # the profiler's names of the calls begun and not yet ended

    def enter(self, op, layer, peer=None):
        """A communication call is starting: the rank may wait in it."""
        self._note({"at": "in", "op": op, "layer": layer, "peer": peer, "line": self.line()})

    def line(self):
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename == self.learner_file:
                return frame.f_lineno
            frame = frame.f_back
        return 0

    def begin(self, op=None, layer=-1, peer=None):
        """A call starts: its clock; under `real --profile` also its name in torch.profiler's
        trace ("forward L0", "pass_to L1 to 2"), which the app reads as the puzzle's operation."""
        if op is not None and torch.autograd._profiler_enabled():
            name = op if layer < 0 else f"{op} L{layer}"
            scope = torch.autograd.profiler.record_function(
                name if peer is None else f"{name} to {peer}")
            scope.__enter__()
            self.scopes.append(scope)
        return time.perf_counter()

    def end(self, began, op, layer, memory, about=None, **extra):
        if self.scopes:
            if op == "receive" and extra.get("peer") is not None:
                # The sender, known only now: "from 1" inside the receive.
                with torch.autograd.profiler.record_function(f"from {extra['peer']}"):
                    pass
            self.scopes.pop().__exit__(None, None, None)
        event = {"op": op, "layer": layer, "start": began - self.start,
                 "duration": time.perf_counter() - began, "memory": memory, "line": self.line()}
        event.update(_identity(about))
        event.update(extra)
        self.events.append(event)
        self._note({"at": "done", "op": op, "layer": layer, "line": event["line"]})

    def _note(self, entry):
        if self.progress is not None:
            self.progress.write(json.dumps(entry) + "\n")
            self.progress.flush()

    def change(self, storage, key, value, memory_after):
        """A set (value not None) or delete in one of the five dictionaries, as the simulator's
        trace records it (docs/trace-format.md, `changes`): when, after how many of this rank's
        events, and the bytes the rank holds after it."""
        self.changes.append({
            "map": storage, "key": list(key) if isinstance(key, tuple) else key,
            "op": "delete" if value is None else "set",
            "object": None if value is None else describe(value),
            "line": self.line(), "events": len(self.events),
            "time": time.perf_counter() - self.start, "memory_after": memory_after})


def _identity(value):
    """The batches and shards of the object an operation works on, as the simulator's events
    carry them."""
    if value is None:
        return {}
    return {"batches": sorted(getattr(value, "batches", ())),
            "shards": sorted(getattr(value, "shards", ())),
            "shard_total": getattr(value, "total", 1)}


def describe(value):
    """A puzzle object as the trace writes it: kind, layer, step, batches, shards, total, and
    where set slice, partial, block and expert (docs/trace-format.md)."""
    kind = type(value).__name__
    described = {"kind": kind, "layer": value.layer, "step": getattr(value, "step", 0),
                 "batches": sorted(getattr(value, "batches", ())),
                 "shards": sorted(getattr(value, "shards", ())),
                 "total": getattr(value, "total", 1)}
    for mark in ("slice", "partial"):
        if getattr(value, mark, False):
            described[mark] = True
    if getattr(value, "block", 0):
        described["block"] = value.block
    if getattr(value, "expert", None) is not None:
        described["expert"] = value.expert
    if getattr(value, "context", False):  # a sequence chunk's, or its part of a gradient
        described["context"] = True
    if getattr(value, "attended", None):  # an unfinished attention: its chunks as the step's bits
        described["step"] = sum(1 << c for p in value.attended for c in p.shards)
    return described


def _recordable(key, value):
    """What the trace can hold: a puzzle object (or a delete) under an integer or a tuple of
    integers, as the simulator's dictionaries take them."""
    whole = isinstance(key, int) or (isinstance(key, tuple) and all(isinstance(k, int)
                                                                     for k in key))
    return whole and (value is None or isinstance(value, (Weight, OptState, Activation,
                                                           ActivationGrad, WeightGrad,
                                                           KeysValues)))


class Storage(dict):
    """One of a rank's five dictionaries; every set and delete is recorded, as the simulator
    records them, so the app can show what each real rank held at any moment."""

    def __init__(self, name, model):
        super().__init__()
        self._name, self._model = name, model

    def _record(self, key, value):
        if _recordable(key, value):
            self._model.recorder.change(self._name, key, value, self._model.memory())

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self._record(key, value)

    def __delitem__(self, key):
        super().__delitem__(key)
        self._record(key, None)

    def pop(self, key, *default):
        had = key in self
        value = super().pop(key, *default)
        if had:
            self._record(key, None)
        return value

    def popitem(self):
        key, value = super().popitem()
        self._record(key, None)
        return key, value

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def clear(self):
        for key in list(self):
            del self[key]

    def __ior__(self, other):
        self.update(other)
        return self


class Dist:
    """The notebook's launcher. In a real run `rankstep-cli real` starts the ranks instead."""

    def __init__(self, ranks):
        self.ranks = ranks


def _sorted_batches(batches):
    return sorted(set(batches))


def _batches_of(*values):
    """The batches of every value that has some (a check names a wrong kind later)."""
    return set().union(*(getattr(value, "batches", ()) for value in values))


class Model(SplitLayers, ContextLayers):
    def __init__(self, rank, ranks, layers, batches, sizes, recorder, groups=None, device=None,
                 layout=None):
        self.rank = rank
        self._layout = layout or Layout(ranks)
        self.TENSOR, self.CONTEXT, self.PIPELINE, self.DATA, self.EXPERT = (
            self._layout.degrees[a] for a in AXES)
        self.coords = self._layout.coords(rank)
        # Where the tensors live: the CPU, or with --backend nccl the rank's GPU (LOCAL_RANK).
        self.device = device if device is not None else torch.device("cpu")
        self.RANKS = ranks
        self.LAYERS = layers
        self.BATCHES = batches
        self.sizes = sizes
        self.recorder = recorder
        self.weights, self.opt_states = Storage("weights", self), Storage("opt_states", self)
        self.activations = Storage("activations", self)
        self.grad_activations = Storage("grad_activations", self)
        self.grad_weights = Storage("grad_weights", self)
        self.final_weights = {}
        self._groups = groups or {}
        self._outbox = []
        # The weight each layer's forward used on this rank: backward_weight takes none, and the
        # real layer's output gradient needs it (tanh(x @ w) is recomputed, as in backward).
        self._forward_weights = {}
        # In a run with experts: batch -> its home rank, for the tokens an alltoall brought here
        # and none has sent home (parallel.py, _move_tokens).
        self._away = {}

    def storage(self):
        return (self.weights, self.opt_states, self.activations, self.grad_activations,
                self.grad_weights)

    def memory(self):
        return sum(v.memory() for d in self.storage() for v in d.values() if hasattr(v, "memory"))

    # ----- operations (docs/simulation.md, "Operations and their cost") -----

    def group(self, axis):
        if axis not in AXES:
            raise ValueError("group(axis): the axes are 'tensor', 'context', 'pipeline', 'data' "
                             "and 'expert'")
        return self._layout.group(self.rank, axis)

    def load_weights(self, layer, shard=0, total=1, split=None, expert=None):
        op = f"load_weights(layer {layer})"
        if split not in (None, "tensor"):
            raise PuzzleError(f'{op}: split must be "tensor" or None, not {split!r}')
        if not 0 <= shard < total:
            raise PuzzleError(f"{op}: shard {shard} does not exist among {total}")
        if split == "tensor":
            # A slice of both blocks' matrices (blocks.py), never a ZeRO shard of them.
            layer_weights = blocks.initial_tensor_layer(self.sizes, layer)
            piece = blocks.slice_flat(layer_weights, shard, total).to(self.device)
        elif expert is not None:
            self._check_expert(op, int(expert))
            flat = blocks.initial_expert(self.sizes, layer, int(expert)).reshape(-1)
            piece = tensors.split_flat(flat.to(self.device), total)[shard]
        elif self.CONTEXT > 1:  # a context run's layers have attention (blocks.py)
            flat = blocks.initial_attention_layer(self.sizes, layer).reshape(-1).to(self.device)
            piece = tensors.split_flat(flat, total)[shard]
        else:
            flat = tensors.initial_weight(self.sizes, layer).reshape(-1).to(self.device)
            piece = tensors.split_flat(flat, total)[shard]
        zeros = torch.zeros_like(piece)
        weight = Weight(layer, self.LAYERS, 0, {shard}, total, {shard: piece.clone()})
        state = OptState(layer, self.LAYERS, 0, {shard}, total, {shard: (zeros, zeros.clone())})
        for made in (weight, state):
            made.slice = split == "tensor"
            made.expert = None if expert is None else int(expert)
        return weight, state

    def get_activation(self, batches):
        batches = _sorted_batches(batches)
        rows = tensors.rows_of(self.sizes, batches, tensors.batch_inputs).to(self.device)
        return self._chunk_rows(rows, batches)  # a context group's rank holds its chunk only

    def _check_weight(self, op, layer, weight):
        if not isinstance(weight, Weight) or weight.layer != layer or not (
                weight.is_complete() or weight.slice):
            raise PuzzleError(f"{op}(layer {layer}): needs the whole weight of layer {layer}, "
                              f"not {weight!r}")

    def forward(self, layer, inp, weight, kv=None, so_far=None, **unknown):
        op = f"forward(layer {layer})"
        refuse_unknown("forward(layer, inp, weight, kv=None, so_far=None)", op, unknown)
        self._check_whole(op, inp)
        self._check_weight("forward", layer, weight)
        self._forward_weights[layer] = weight
        if not isinstance(inp, Activation) or inp.layer != layer:
            raise PuzzleError(f"forward(layer {layer}): needs an activation of layer {layer}, "
                              f"not {inp!r}")
        self._check_tokens(op, weight, inp.batches)
        self._check_home(op, weight, inp.batches)
        before = self._so_far(op, "forward", layer, inp, None, so_far)
        self._check_keys_values(op, layer, inp, weight, kv, {c for p in before for c in p.shards})
        began, memory = self.recorder.begin("forward", layer), self.memory()
        if weight.slice:
            made = self._forward_slice(layer, inp, weight)
        elif inp.context:
            made = self._forward_blockwise(layer, inp, weight, kv, before)
        else:
            out = tensors.forward(inp.value, weight.matrix(self.sizes.hidden))
            made = Activation(layer + 1, self.LAYERS, inp.batches, self.BATCHES, out)
        self.recorder.end(began, "forward", layer, memory, inp)
        return made

    def loss(self, inp):
        self._check_whole("loss", inp)
        if not isinstance(inp, Activation) or inp.layer != self.LAYERS:
            raise PuzzleError(f"loss: needs the activation of layer {self.LAYERS}, not {inp!r}")
        self._check_home("loss", None, inp.batches)
        began, memory = self.recorder.begin("loss", -1), self.memory()
        targets = self._chunk_targets(inp)
        grad = tensors.loss_grad(inp.value, targets, self.BATCHES, self.sizes.length)
        self.recorder.end(began, "loss", -1, memory, inp,
                          value=tensors.loss_value(inp.value, targets, self.BATCHES,
                                                   self.sizes.length))
        made = ActivationGrad(self.LAYERS - 1, self.LAYERS, inp.batches, self.BATCHES, grad)
        return made.chunk_of(inp)

    def backward(self, layer, inp, grad, weight, kv=None, so_far=None, **unknown):
        op = f"backward(layer {layer})"
        refuse_unknown("backward(layer, inp, grad, weight, kv=None, so_far=None)", op, unknown)
        self._check_weight("backward", layer, weight)
        self._check_home(op, weight, _batches_of(inp, grad))
        if weight.slice:
            self._check_slice_backward(op, inp, grad)
            self._check_keys_values(op, layer, inp, weight, kv)
            began, memory = self.recorder.begin("backward", layer), self.memory()
            made = self._backward_slice(op, layer, inp, grad, weight)
            self.recorder.end(began, "backward", layer, memory, inp)
            return made
        self._check_backward("backward", layer, inp, grad)
        self._check_tokens(op, weight, inp.batches)
        before = self._so_far(op, "backward", layer, inp, grad, so_far)
        self._check_keys_values(op, layer, inp, weight, kv, {c for p in before for c in p.shards})
        if inp.context:
            began, memory = self.recorder.begin("backward", layer), self.memory()
            made = self._backward_blockwise(layer, inp, grad, weight, kv, before)
            self.recorder.end(began, "backward", layer, memory, inp)
            return made
        began, memory = self.recorder.begin("backward", layer), self.memory()
        grad_weight, grad_inp = tensors.backward(inp.value, grad.value,
                                                 weight.matrix(self.sizes.hidden))
        self.recorder.end(began, "backward", layer, memory, inp)
        weight_grad = WeightGrad(layer, self.LAYERS, inp.batches, self.BATCHES, {0}, 1,
                                 {0: grad_weight.reshape(-1)})
        weight_grad.expert = weight.expert  # an expert's weight has an expert's gradient
        return (weight_grad,
                ActivationGrad(layer - 1, self.LAYERS, inp.batches, self.BATCHES, grad_inp))

    def _check_backward(self, op, layer, inp, grad):
        for value in (inp, grad):
            self._check_whole(f"{op}(layer {layer})", value)
        if not isinstance(inp, Activation) or not isinstance(grad, ActivationGrad) or \
                inp.layer != layer or grad.layer != layer or inp.batches != grad.batches:
            raise PuzzleError(f"{op}(layer {layer}): needs the activation and the gradient of "
                              f"layer {layer} on the same batches, not {inp!r} and {grad!r}")

    # The backward in two halves (docs/simulation.md, "Beyond the notebook").
    def backward_input(self, layer, inp, grad, weight):
        self._check_weight("backward_input", layer, weight)
        self._check_home(f"backward_input(layer {layer})", weight, _batches_of(inp, grad))
        if weight.slice:
            op = f"backward_input(layer {layer})"
            self._check_slice_backward(op, inp, grad)
            began, memory = self.recorder.begin("backward_input", layer), self.memory()
            _, made = self._backward_slice(op, layer, inp, grad, weight)
            self.recorder.end(began, "backward_input", layer, memory, inp)
            return made
        self._check_backward("backward_input", layer, inp, grad)
        self._check_split_chunk(f"backward_input(layer {layer})", inp, grad)
        self._check_tokens(f"backward_input(layer {layer})", weight, inp.batches)
        began, memory = self.recorder.begin("backward_input", layer), self.memory()
        _, grad_inp = tensors.backward(inp.value, grad.value, weight.matrix(self.sizes.hidden))
        self.recorder.end(began, "backward_input", layer, memory, inp)
        return ActivationGrad(layer - 1, self.LAYERS, inp.batches, self.BATCHES, grad_inp)

    def backward_weight(self, layer, inp, grad, weight=None):
        self._check_backward("backward_weight", layer, inp, grad)
        self._check_split_chunk(f"backward_weight(layer {layer})", inp, grad)
        if weight is not None:  # names whose gradient it is; the real layer's is the forward's
            self._check_weight("backward_weight", layer, weight)
            self._check_home(f"backward_weight(layer {layer})", weight, _batches_of(inp, grad))
        weight = self._forward_weights.get(layer)
        if weight is None:
            raise PuzzleError(f"backward_weight(layer {layer}): this rank never ran forward at "
                              f"layer {layer}, whose weight the real layer needs")
        if weight.slice or weight.expert is not None:
            raise PuzzleError(f"backward_weight(layer {layer}): a tensor-parallel slice or an "
                              "expert has no split backward; use backward")
        began, memory = self.recorder.begin("backward_weight", layer), self.memory()
        grad_weight, _ = tensors.backward(inp.value, grad.value, weight.matrix(self.sizes.hidden))
        self.recorder.end(began, "backward_weight", layer, memory, inp)
        return WeightGrad(layer, self.LAYERS, inp.batches, self.BATCHES, {0}, 1,
                          {0: grad_weight.reshape(-1)})

    def update(self, layer, weight_grad, weight, opt_state):
        op = f"update(layer {layer})"
        self._check_attended(op, weight_grad)
        if weight_grad.slice and weight_grad.block != 3:
            raise PuzzleError(f"{op}: the weight gradient covers only the "
                              f"{'attention' if weight_grad.block == 1 else 'MLP'} block of the "
                              "slice; add the other block's gradient first (model.add)")
        if weight_grad.slice != weight.slice:
            raise PuzzleError(f"{op}: a tensor-parallel slice and a ZeRO shard do not mix "
                              f"({weight_grad!r} against {weight!r})")
        needed = set(range(self.BATCHES))
        if weight.expert is not None or weight_grad.expert is not None:
            if weight.expert is None:
                raise PuzzleError(f"{op}: the weight gradient is expert {weight_grad.expert}'s, "
                                  "but the weight is no expert's")
            if weight_grad.expert != weight.expert:
                raise PuzzleError(f"{op}: the weight is expert {weight.expert}'s, but the weight "
                                  f"gradient is not: a backward with expert {weight.expert}'s "
                                  "weight makes its gradient")
            needed = {b for b in needed if self.expert_of(b) == weight.expert}
        self._check_update_context(op, weight_grad)
        covers = weight_grad.is_complete() or (weight_grad.total == weight.total and
                                               weight.shards <= weight_grad.shards)
        if not needed <= weight_grad.batches or weight.shards != opt_state.shards or \
                not covers or weight.step != opt_state.step:
            raise PuzzleError(f"update(layer {layer}): {weight_grad!r} does not fit {weight!r} "
                              f"and {opt_state!r}")
        began, memory = self.recorder.begin("update", layer), self.memory()
        step = weight.step + 1
        new_weight, new_state = {}, {}
        for shard in sorted(weight.shards):
            grad = weight_grad.parts[shard] if weight_grad.total == weight.total else \
                tensors.split_flat(weight_grad.flat(), weight.total)[shard]
            first, second = opt_state.parts[shard]
            new_weight[shard], *moments = tensors.adam(weight.parts[shard], grad, first, second,
                                                       step)
            new_state[shard] = tuple(moments)
        self.recorder.end(began, "update", layer, memory, weight)
        made = (Weight(layer, self.LAYERS, step, weight.shards, weight.total, new_weight),
                OptState(layer, self.LAYERS, step, weight.shards, weight.total, new_state))
        for value in made:
            value.slice, value.expert = weight.slice, weight.expert
        return made

    def fake_grad(self, layer, batches):
        zeros = torch.zeros(self._layer_values(), dtype=tensors.DTYPE, device=self.device)
        return WeightGrad(layer, self.LAYERS, _sorted_batches(batches), self.BATCHES, {0}, 1,
                          {0: zeros})

    def set_final_weight(self, layer, weight):
        self.final_weights[layer] = weight

    # ----- communication (docs/simulation.md, "Communication") -----

    def add(self, first, second):
        """The sum of two weight gradients, as `first + second`."""
        return first + second

    def _members(self, group):
        return list(range(self.RANKS)) if group is None else sorted(set(int(r) for r in group))

    def _group(self, group):
        if group is None:
            return None, list(range(self.RANKS))
        members = self._members(group)
        if len(members) == self.RANKS:
            return None, members
        if tuple(members) not in self._groups:
            raise PuzzleError(f"group={members}: this group was not prepared for the real run")
        return self._groups[tuple(members)], members

    def allreduce(self, value, layer, group=None):
        if isinstance(value, _Rows):
            return self._rows_collective("allreduce", value, layer, group)
        self._check_attended(f"allreduce(layer {layer})", value)
        handle, members = self._group(group)
        began, memory = self.recorder.begin("allreduce", layer), self.memory()
        self.recorder.enter("allreduce", layer)
        # Each member's context mark, then its batches.
        gathered = gather_ints(
            [int(bool(getattr(value, "context", False)))] + sorted(value.batches), handle,
            len(members), self.device)
        summed = self._check_context_sum(f"allreduce(layer {layer})",
                                         [bool(g[0]) for g in gathered], members)
        flat = _cat_parts(value, self.device)
        dist.all_reduce(flat, group=handle)
        batches = set().union(*(set(g[1:]) for g in gathered))
        result = WeightGrad(value.layer, self.LAYERS, batches, self.BATCHES, value.shards,
                            value.total, _uncat_parts(flat, value))._marked(value)
        result.context = result.context and not summed
        self.recorder.end(began, "allreduce", layer, memory, value, group=members,
                          bytes=_nbytes(flat))
        return _Done(result)

    def allgather(self, value, layer, group=None):
        if isinstance(value, _Rows):
            return self._rows_collective("allgather", value, layer, group)
        handle, members = self._group(group)
        began, memory = self.recorder.begin("allgather", layer), self.memory()
        self.recorder.enter("allgather", layer)
        mine = {s: value.parts[s] for s in sorted(value.shards)}
        flat = _cat_parts(value, self.device)
        # Per shard: its number, how many tensors, their sizes.
        ints = []
        for shard, part in mine.items():
            ints += [shard, len(_sizes(part)), *_sizes(part)]
        gathered = []
        for row in gather_ints(ints, handle, len(members), self.device):
            shards, at = [], 0
            while at < len(row):
                count = row[at + 1]
                shards.append((row[at], row[at + 2: at + 2 + count]))
                at += 2 + count
            gathered.append(shards)
        longest = max(sum(sum(n) for _, n in g) for g in gathered)
        padded = torch.zeros(longest, dtype=tensors.DTYPE, device=self.device)
        padded[: flat.numel()] = flat
        received = [torch.zeros_like(padded) for _ in members]
        dist.all_gather(received, padded, group=handle)
        result = value
        for shards, data in zip(gathered, received):
            parts, at = {}, 0
            for shard, lengths in shards:
                pieces = []
                for n in lengths:
                    pieces.append(data[at: at + n].clone())
                    at += n
                parts[shard] = pieces[0] if len(pieces) == 1 else tuple(pieces)
            result = result.combine(value._with(set(parts), value.total, parts))
        self.recorder.end(began, "allgather", layer, memory, value, group=members,
                          bytes=_nbytes(padded))
        return _Done(result)

    def scatterreduce(self, value, layer, group=None):
        if isinstance(value, _Rows):
            return self._rows_collective("scatterreduce", value, layer, group)
        handle, members = self._group(group)
        began, memory = self.recorder.begin("scatterreduce", layer), self.memory()
        self.recorder.enter("scatterreduce", layer)
        gathered = gather_ints(
            [int(bool(getattr(value, "context", False)))] + sorted(value.batches), handle,
            len(members), self.device)
        self._check_context_sum(f"scatterreduce(layer {layer})",
                                [bool(g[0]) for g in gathered], members)
        gathered = [g[1:] for g in gathered]
        flat = value.flat().clone()
        dist.all_reduce(flat, group=handle)
        position, count = members.index(self.rank), len(members)
        batches = set().union(*(set(g) for g in gathered))
        piece = tensors.split_flat(flat, count)[position].clone()
        result = WeightGrad(value.layer, self.LAYERS, batches, self.BATCHES, {position}, count,
                            {position: piece})
        result.expert = value.expert
        self.recorder.end(began, "scatterreduce", layer, memory, value, group=members,
                          bytes=_nbytes(flat))
        return _Done(result)

    # The non-blocking forms (docs/simulation.md, "Overlapped communication"). For real they run
    # the collective at the call and hand back its result to await: the weights are what the
    # simulation's are; the real run does not overlap them with compute yet (docs/command-line.md,
    # "Running it for real").
    def allreduce_start(self, value, layer, group=None):
        return self.allreduce(value, layer, group)

    def allgather_start(self, value, layer, group=None):
        return self.allgather(value, layer, group)

    def scatterreduce_start(self, value, layer, group=None):
        return self.scatterreduce(value, layer, group)

    def alltoall_start(self, pieces, layer, group=None):
        return self.alltoall(pieces, layer, group)

    def pass_to(self, rank, value, op="pass_to"):
        self._check_attended(op, value)
        began, memory = self.recorder.begin("pass_to", getattr(value, "layer", -1),
                                                   rank), self.memory()
        self.recorder.enter("pass_to", getattr(value, "layer", -1), peer=rank)
        buffer = io.BytesIO()
        torch.save(value, buffer)
        payload = torch.frombuffer(bytearray(buffer.getvalue()), dtype=torch.uint8).to(self.device)
        size = torch.tensor([payload.numel()], dtype=torch.int64, device=self.device)
        # Sends never wait for the receiver (docs/simulation.md, "Beyond the notebook").
        self._outbox += [dist.isend(size, rank), dist.isend(payload, rank), size, payload]
        self.recorder.end(began, "pass_to", getattr(value, "layer", -1), memory, value, peer=rank,
                          bytes=int(payload.numel()))
        return _Done(None)

    def receive(self, source=None):
        began, memory = self.recorder.begin("receive", -1), self.memory()
        self.recorder.enter("receive", -1, peer=source)
        size = torch.zeros(1, dtype=torch.int64, device=self.device)
        sender = dist.recv(size, src=source)
        payload = torch.zeros(int(size[0]), dtype=torch.uint8, device=self.device)
        dist.recv(payload, src=sender)
        value = torch.load(io.BytesIO(payload.cpu().numpy().tobytes()), map_location=self.device)
        self.recorder.end(began, "receive", getattr(value, "layer", -1), memory, value, peer=sender,
                          bytes=int(payload.numel()))
        return _Done(value)

    # The overlapped ring (docs/simulation.md, "Overlapped ring attention"): pass_to_start sends
    # at the call, as pass_to does (an isend, which never waits for the receiver, so every rank of
    # the ring may post its send and its receive before awaiting either); receive_start receives
    # when its handle is awaited. Each handle is awaited once, as in the simulator.
    def pass_to_start(self, rank, value):
        self.pass_to(rank, value, op="pass_to_start")
        return _Once(lambda: None)

    def receive_start(self, source=None):
        return _Once(lambda: self.receive(source).value)

    def finish_sends(self):
        for item in self._outbox:
            if hasattr(item, "wait"):
                item.wait()
        self._outbox.clear()


class _Once:
    """The handle of pass_to_start or receive_start: awaiting it completes the message (a
    receive_start's is received then) and gives its value, once."""

    def __init__(self, complete):
        self._complete = complete

    def __await__(self):
        if self._complete is None:
            raise PuzzleError("this handle was already awaited: await each handle of "
                              "allreduce_start, allgather_start, scatterreduce_start, "
                              "alltoall_start, pass_to_start or receive_start once")
        complete, self._complete = self._complete, None
        return complete()
        yield  # pragma: no cover  (makes this a generator, as __await__ must be)


def _sizes(part):
    return [p.numel() for p in part] if isinstance(part, tuple) else [part.numel()]


def _cat_parts(value, device):
    pieces = []
    for shard in sorted(value.shards):
        part = value.parts[shard]
        pieces += list(part) if isinstance(part, tuple) else [part]
    if not pieces:
        return torch.zeros(0, dtype=tensors.DTYPE, device=device)
    return torch.cat(pieces).clone()


def _uncat_parts(flat, like):
    parts, at = {}, 0
    for shard in sorted(like.shards):
        lengths = _sizes(like.parts[shard])
        pieces = []
        for n in lengths:
            pieces.append(flat[at: at + n])
            at += n
        parts[shard] = pieces[0] if len(pieces) == 1 else tuple(pieces)
    return parts


_nbytes = nbytes


def draw(*args, **kwargs):
    """Marks a snapshot in the simulator; a real run has no viewer to mark."""


def draw_group(*args, **kwargs):
    """See draw."""
