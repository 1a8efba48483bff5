# SPDX-License-Identifier: MIT
"""The parts of `lib.Model` that context parallelism adds (docs/simulation.md, "Context
parallelism"), on real tensors.

A rank of a context group holds chunk c (its context coordinate) of every batch's sequence: of
each batch's LENGTH rows the ones torch.tensor_split gives part c of CONTEXT. Every layer of such a
run is blocks.py's attention layer. `keys_values` projects the chunk's rows to real keys and
values; `forward` and `backward` on a chunk take every chunk's keys and values, joined in
sequence order, and compute the chunk's queries against all of them with a causal mask: the rows
one process gets from attention over the whole sequence. Given some chunks only, they give an
unfinished output that keeps them, continued with so_far=... (blockwise, as the overlapped ring
calls them) until the call that completes the set computes the attention. A chunk's weight
gradient is its queries' part of the sum over the sequence, marked as such until an all-reduce
over a group that holds the context group sums it. The checks say what the simulator says
(core/context.cpp).
"""
import torch

from . import blocks, tensors
from .objects import (
    Activation,
    ActivationGrad,
    KeysValues,
    OptState,
    PuzzleError,
    Weight,
    WeightGrad,
    _set_text,
    sequence_split,
)

_PHRASES = ((KeysValues, "keys and values"), (ActivationGrad, "an activation gradient"),
            (Activation, "an activation"), (WeightGrad, "a weight gradient"),
            (OptState, "an optimizer state"), (Weight, "a weight"))
_CONTEXT_GROUP = 'model.group("context")'


def describe_set(values, singular, plural):
    """core::describeSet's words: "batch 2", "batches 2 and 3", "batches 0-3"."""
    members = sorted(values)
    if not members:
        return f"no {plural}"
    if len(members) == 1:
        return f"{singular} {members[0]}"
    if len(members) > 2 and members[-1] - members[0] + 1 == len(members):
        return f"{plural} {members[0]}-{members[-1]}"
    return f"{plural} " + ", ".join(str(m) for m in members[:-1]) + f" and {members[-1]}"


def _a_kind(value):
    for kind, phrase in _PHRASES:
        if isinstance(value, kind):
            return phrase
    return repr(value)


def refuse_unknown(shown, op, unknown):
    """A keyword the real library does not take: the simulator may have a newer form."""
    if unknown:
        name = sorted(unknown)[0]
        raise PuzzleError(f"{op}: real runs have no keyword '{name}' ({shown} is what they take); "
                          "the simulator may have a newer form of this call, which `rankstep-cli "
                          "run` simulates but real runs cannot do yet")


class ContextLayers:
    """Mixed into lib.Model, whose rank, sizes, device, BATCHES, LAYERS, CONTEXT, coords and
    _layout it uses."""

    def _chunk_rows(self, rows, batches):
        """The rows of whole batches as get_activation gives them: in a context run this rank's
        chunk of each, marked as the chunk."""
        made = Activation(0, self.LAYERS, batches, self.BATCHES, rows)
        if self.CONTEXT > 1:
            chunk = self.coords["context"]
            made.value = sequence_split(rows, len(batches), self.CONTEXT)[chunk].clone()
            made.context, made.shards, made.total = True, frozenset({chunk}), self.CONTEXT
        return made

    def _chunk_targets(self, value):
        """The targets of a chunk's rows (or of whole batches)."""
        targets = tensors.rows_of(self.sizes, value.batches, tensors.batch_targets)
        if value.context:
            targets = sequence_split(targets, len(value.batches), value.total)[min(value.shards)]
        return targets.to(self.device)

    def _layer_values(self):
        """How many values a layer of this run holds: an attention layer's four matrices in a
        context run (blocks.py), else one."""
        matrices = blocks.ATTENTION_MATRICES if self.CONTEXT > 1 else 1
        return matrices * self.sizes.hidden * self.sizes.hidden

    def keys_values(self, layer, inp, weight):
        """The chunk's real keys and values at `layer` (no event: the projection is priced with
        the forward, as in the simulator)."""
        op = f"keys_values(layer {layer})"
        if not isinstance(inp, Activation):
            raise PuzzleError(f"{op}: the second argument must be an activation, but it is "
                              f"{_a_kind(inp)}")
        self._check_whole(op, inp)
        if not inp.context:
            raise PuzzleError(f"{op}: the activation holds the whole sequence: keys and values "
                              "travel only when the sequence is split across a context group "
                              "(--context)")
        if inp.layer != layer:
            raise PuzzleError(f"{op}: the activation is at layer {inp.layer}, but keys_values at "
                              f"layer {layer} needs the activation at layer {layer}")
        if not isinstance(weight, Weight):
            raise PuzzleError(f"{op}: the third argument must be a weight, but it is "
                              f"{_a_kind(weight)}")
        if weight.layer != layer:
            raise PuzzleError(f"{op}: the weight belongs to layer {weight.layer}, but keys_values "
                              f"at layer {layer} needs the weight of layer {layer}")
        if weight.slice:
            raise PuzzleError(f"{op}: a sequence chunk with a tensor-parallel slice is not "
                              "written yet")
        if not weight.is_complete():
            raise PuzzleError(f"{op}: the weight holds only shards {_set_text(weight.shards)} of "
                              f"{weight.total}; keys_values needs the complete weight (allgather "
                              "it first)")
        keys, values = blocks.projections(inp.value, self._attention_matrices(weight))
        made = KeysValues(layer, self.LAYERS, inp.batches, self.BATCHES, inp.value, keys, values)
        made.shards, made.total = inp.shards, inp.total
        return made

    def _attention_matrices(self, weight):
        hidden = self.sizes.hidden
        return weight.flat().view(blocks.ATTENTION_MATRICES, hidden, hidden)

    def _check_keys_values(self, op, layer, inp, weight, kv, before=frozenset()):
        """Keys and values of this layer and these batches, each chunk once, counting those an
        unfinished attention continued here has seen (`before`); none for a whole sequence
        (core/context.cpp, checkKeysValues). Gives every chunk seen after the call."""
        given = kv is not None and len(kv) > 0
        if not inp.context:
            if given:
                raise PuzzleError(f"{op}: the activation holds the whole sequence: keys and "
                                  "values travel only when the sequence is split across a "
                                  "context group (--context)")
            return set()
        if weight.slice:
            raise PuzzleError(f"{op}: a sequence chunk with a tensor-parallel slice is not "
                              "written yet")
        if weight.expert is not None:
            raise PuzzleError(f"{op}: an expert's layer on a sequence chunk is not written yet "
                              "for real runs")
        if not given:
            kind = "activation gradient" if isinstance(inp, ActivationGrad) else "activation"
            raise PuzzleError(f"{op}: layer {layer}'s {kind} on rank {self.rank} is chunk "
                              f"{_set_text(inp.shards)} of the sequence: its attention needs "
                              "every chunk's keys and values (kv=[...]), passed around the "
                              f"context group, {_CONTEXT_GROUP}")
        held = set(before)
        for piece in kv:
            if not isinstance(piece, KeysValues):
                raise PuzzleError(f"{op}: kv holds keys and values, not {_a_kind(piece)}")
            chunks = _set_text(piece.shards)
            if piece.layer != layer:
                raise PuzzleError(f"{op}: the keys and values of chunk {chunks} are of layer "
                                  f"{piece.layer}, not of layer {layer}")
            if piece.batches != inp.batches or piece.total != inp.total:
                raise PuzzleError(
                    f"{op}: the keys and values of chunk {chunks} are of "
                    f"{describe_set(piece.batches, 'batch', 'batches')}, but the activation is "
                    f"of {describe_set(inp.batches, 'batch', 'batches')}: they come from another "
                    f"context group; pass them around {_CONTEXT_GROUP}")
            twice = held & set(piece.shards)
            if twice:
                raise PuzzleError(f"{op}: the keys and values of chunk {_set_text(twice)} are "
                                  "given twice")
            held |= set(piece.shards)
        return held

    # Blockwise attention (docs/simulation.md, "Overlapped ring attention"): a forward or
    # backward given some chunks' keys and values gives an unfinished output that keeps them
    # (`attended`); continued with so_far=that output and the other chunks', the call that
    # completes the set computes the attention over all of them at once. The numbers are those
    # of the all-at-once form; an unfinished output holds zeros and is refused wherever it is
    # used but to continue it, in the simulator's words.
    def _unfinished(self, made, pieces):
        made.attended = pieces  # one list for both outputs of a backward
        return made

    def _check_attended(self, op, value):
        """An unfinished attention's output used before it saw every chunk (core/context.cpp,
        checkAttended)."""
        pieces = getattr(value, "attended", None)
        if not pieces:
            return
        seen = set().union(*(set(p.shards) for p in pieces))
        total = pieces[0].total
        layer = value.layer - 1 if isinstance(value, Activation) else (
            value.layer + 1 if isinstance(value, ActivationGrad) else value.layer)
        call = "forward" if isinstance(value, Activation) else "backward"
        raise PuzzleError(f"{op}: layer {layer}'s attention on rank {self.rank} has the keys and "
                          f"values of chunks {_set_text(seen)} only and lacks chunks "
                          f"{_set_text(set(range(total)) - seen)}: pass them around the context "
                          f"group, {_CONTEXT_GROUP}, and continue it with {call}(..., kv=[...], "
                          "so_far=...)")

    def _so_far(self, op, call, layer, inp, grad, so_far):
        """The keys and values an unfinished `call` given as so_far has seen ([] without one)."""
        if so_far is None:
            return []
        if not inp.context:
            raise PuzzleError(f"{op}: the activation holds the whole sequence: keys and values "
                              "travel only when the sequence is split across a context group "
                              "(--context)")
        if call == "forward":
            fits = (isinstance(so_far, Activation) and so_far.layer == layer + 1 and
                    so_far.batches == inp.batches and so_far.shards == inp.shards and
                    so_far.total == inp.total)
            pieces = getattr(so_far, "attended", None) if fits else None
        else:
            pair = so_far if isinstance(so_far, tuple) and len(so_far) == 2 else (None, None)
            weight_grad, grad_in = pair
            fits = (isinstance(weight_grad, WeightGrad) and weight_grad.layer == layer and
                    weight_grad.batches == inp.batches and isinstance(grad_in, ActivationGrad)
                    and grad_in.layer == layer - 1 and grad_in.batches == grad.batches and
                    grad_in.shards == grad.shards and grad_in.total == grad.total)
            pieces = getattr(grad_in, "attended", None) if fits else None
            if pieces is not None and getattr(weight_grad, "attended", None) is not pieces:
                pieces = None
        if not pieces:
            raise PuzzleError(f"{op}: so_far must be what an unfinished {call} of layer {layer} "
                              "on this chunk gave (one that lacks some chunks' keys and values), "
                              f"not {so_far!r}")
        return pieces

    def _forward_blockwise(self, layer, inp, weight, kv, before):
        """The chunk's rows at layer + 1 once every chunk's keys and values are there; until
        then an unfinished output that keeps them."""
        pieces = list(before) + list(kv)
        seen = set().union(*(set(p.shards) for p in pieces))
        if seen == set(range(inp.total)):
            return self._forward_chunk(layer, inp, weight, pieces)
        made = Activation(layer + 1, self.LAYERS, inp.batches, self.BATCHES,
                          torch.zeros_like(inp.value)).chunk_of(inp)
        return self._unfinished(made, pieces)

    def _backward_blockwise(self, layer, inp, grad, weight, kv, before):
        pieces = list(before) + list(kv)
        seen = set().union(*(set(p.shards) for p in pieces))
        if seen == set(range(inp.total)):
            return self._backward_chunk(layer, inp, grad, weight, pieces)
        weight_grad = WeightGrad(layer, self.LAYERS, inp.batches, self.BATCHES, {0}, 1,
                                 {0: torch.zeros(self._layer_values(), dtype=inp.value.dtype,
                                                 device=self.device)})
        weight_grad.context = True
        made = ActivationGrad(layer - 1, self.LAYERS, inp.batches, self.BATCHES,
                              torch.zeros_like(grad.value)).chunk_of(grad)
        return self._unfinished(weight_grad, pieces), self._unfinished(made, pieces)

    def _joined_keys_values(self, kv):
        """(keys, values, their input rows, their positions): every chunk's, in sequence order,
        each batch's rows together."""
        pieces = sorted(kv, key=lambda piece: min(piece.shards))
        count, hidden = len(pieces[0].batches), self.sizes.hidden

        def joined(name):
            return torch.cat([getattr(p, name).view(count, -1, hidden) for p in pieces],
                             dim=1).reshape(-1, hidden)

        positions = torch.cat([blocks.chunk_positions(self.sizes.length, min(p.shards), p.total)
                               for p in pieces])
        return joined("keys"), joined("values"), joined("inputs"), positions.to(self.device)

    def _positions(self, value):
        return blocks.chunk_positions(self.sizes.length, min(value.shards),
                                      value.total).to(self.device)

    def _forward_chunk(self, layer, inp, weight, kv):
        """The chunk's rows at layer + 1: its queries against every chunk's keys and values."""
        keys, values, _, key_positions = self._joined_keys_values(kv)
        out = blocks.attention_layer(inp.value, None, keys, values,
                                     self._attention_matrices(weight), self._positions(inp),
                                     key_positions, len(inp.batches))
        return Activation(layer + 1, self.LAYERS, inp.batches, self.BATCHES, out).chunk_of(inp)

    def _backward_chunk(self, layer, inp, grad, weight, kv):
        """(the chunk's part of the weight gradient, the chunk's input gradient)."""
        _, _, key_inputs, key_positions = self._joined_keys_values(kv)
        grad_weight, grad_inp = blocks.attention_backward(
            inp.value, key_inputs, self._attention_matrices(weight), grad.value,
            self._positions(inp), key_positions, len(inp.batches))
        weight_grad = WeightGrad(layer, self.LAYERS, inp.batches, self.BATCHES, {0}, 1,
                                 {0: grad_weight.reshape(-1)})
        weight_grad.context = True  # the chunk's queries' part of the sum over the sequence
        made = ActivationGrad(layer - 1, self.LAYERS, inp.batches, self.BATCHES, grad_inp)
        return weight_grad, made.chunk_of(grad)

    def _check_context_sum(self, op, contexts, members):
        """A sum of chunks' weight gradients is whole when the group holds each member's context
        group (core/context.cpp, checkContextSum); True when it summed such parts."""
        if not any(contexts):
            return False
        for member, context in zip(members, contexts):
            if not context:
                raise PuzzleError(f"{op}: some weight gradients are parts of the sequence and "
                                  "some are not: sum like with like")
            lacking = set(self._layout.group(member, "context")) - set(members)
            if lacking:
                raise PuzzleError(f"{op}: rank {member}'s weight gradient is its part of the "
                                  "sequence only, but the group lacks "
                                  f"{describe_set(lacking, 'rank', 'ranks')} of its context "
                                  f"group: sum it over a group that holds {_CONTEXT_GROUP}")
        return True

    def _check_update_context(self, op, weight_grad):
        if weight_grad.context:
            raise PuzzleError(f"{op}: the weight gradient is this rank's part of the sequence "
                              f"only: all-reduce it over the context group ({_CONTEXT_GROUP}) or "
                              "a group that holds it first")

    def _check_split_chunk(self, op, inp, grad):
        if getattr(inp, "context", False) or getattr(grad, "context", False):
            raise PuzzleError(f"{op}: the split backward of a sequence chunk is not written yet: "
                              "use backward")
