# SPDX-License-Identifier: MIT
"""The parts of `lib.Model` that tensor, sequence and expert parallelism add (docs/simulation.md,
"Layouts", "Tensor and sequence parallelism", "Expert parallelism"), on real tensors.

A slice's forward runs one block on the rank's columns and rows (blocks.py) and leaves a partial
activation, full size, that an all-reduce (`all_reduce`) over the tensor group completes, or a
reduce-scatter leaves as sequence shards (`all_reduce`, then the rank's part of each batch's
sequence: gloo in PyTorch 1.13 has no `reduce_scatter`); an all-gather of sequence shards joins
them again (`all_gather`, each padded to the longest). alltoall is `all_to_all_single` with a split
per rank: gloo has no `all_to_all` of a list of tensors, but has the single-tensor form with
uneven splits. The checks say what the simulator says; the simulated run made them first.
"""
import torch
import torch.distributed as dist

from . import blocks, tensors
from .objects import (
    Activation,
    ActivationGrad,
    PuzzleError,
    WeightGrad,
    _Done,
    _Rows,
    nbytes,
    sequence_join,
    sequence_split,
)

AXES = ("tensor", "context", "pipeline", "data", "expert")


class Layout:
    """The run's layout (docs/simulation.md, "Layouts"; core/layout.h): tensor innermost, data
    outermost, the experts carved out of the data-parallel ranks."""

    def __init__(self, ranks, tensor=1, context=1, pipeline=1, expert=1):
        self.ranks = ranks
        self.degrees = {"tensor": tensor, "context": context, "pipeline": pipeline,
                        "data": max(ranks // (tensor * context * pipeline), 1), "expert": expert}

    def coords(self, rank):
        t, c, p = (self.degrees[a] for a in ("tensor", "context", "pipeline"))
        data = rank // (t * c * p)
        return {"tensor": rank % t, "context": rank // t % c, "pipeline": rank // (t * c) % p,
                "data": data, "expert": data % self.degrees["expert"]}

    def rank_at(self, at):
        t, c, p = (self.degrees[a] for a in ("tensor", "context", "pipeline"))
        return at["tensor"] + t * (at["context"] + c * (at["pipeline"] + p * at["data"]))

    def group(self, rank, axis):
        at = self.coords(rank)
        if axis == "expert":
            first = at["data"] - at["expert"]
            return [self.rank_at(dict(at, data=first + e)) for e in range(self.degrees["expert"])]
        return [self.rank_at(dict(at, **{axis: i})) for i in range(self.degrees[axis])]


def _kind_words(value):
    return "activation gradient" if isinstance(value, ActivationGrad) else "activation"


def _place(layer, block):
    return f"layer {layer} after its attention block" if block else f"layer {layer}'s input"


def _batches_text(batches):
    batches = sorted(batches)
    if len(batches) == 1:
        return f"batch {batches[0]}"
    return "batches {" + ", ".join(str(b) for b in batches) + "}"

class SplitLayers:
    """Mixed into lib.Model, whose rank, sizes, device, BATCHES, LAYERS, EXPERT, coords,
    recorder, _away, memory(), _members() and _group() it uses."""

    def _check_expert(self, op, expert):
        if self.EXPERT == 1:
            raise PuzzleError(f"{op}: this run has no experts: lay its ranks out with --expert E "
                              "(lesson.json \"expert\")")
        if not 0 <= expert < self.EXPERT:
            raise PuzzleError(f"{op}: there is no expert {expert}; the experts are "
                              f"0-{self.EXPERT - 1}")
        if expert != self.coords["expert"]:
            raise PuzzleError(f"{op}: rank {self.rank} holds expert {self.coords['expert']} of "
                              f"each expert layer (its expert coordinate), not expert {expert}: "
                              f"the tokens for expert {expert} go with alltoall to the rank that "
                              "holds it")

    def _check_tokens(self, op, weight, batches):
        """An expert's weight computes only the tokens the router sends that expert."""
        if weight.expert is None:
            return
        strangers = sorted(b for b in batches if self.expert_of(b) != weight.expert)
        if strangers:
            other = self.expert_of(strangers[0])
            theirs = [b for b in strangers if self.expert_of(b) == other]
            raise PuzzleError(f"{op}: the router sends {_batches_text(theirs)} to expert {other}, "
                              f"but this weight is expert {weight.expert}'s: send each token to "
                              "the rank of its expert with an alltoall over "
                              "model.group(\"expert\") first")

    def _check_home(self, op, weight, batches):
        """In a run with experts, the loss and a dense layer (`weight` None: the loss) take only
        tokens at home: none an alltoall brought here that no alltoall sent back (_away)."""
        if weight is not None and weight.expert is not None:
            return
        away = self._away
        held = sorted(b for b in batches if b in away)
        if held:
            home = away[held[0]]
            theirs = [b for b in held if away[b] == home]
            raise PuzzleError(f"{op} needs the tokens of {_batches_text(theirs)} back on rank "
                              f"{home}: they are still with expert {self.coords['expert']} on "
                              f"rank {self.rank}; combine them with alltoall first")

    def _move_tokens(self, plans, members, pieces):
        """After an alltoall of an expert run: what left for its home or from it (_away, batch
        -> its home rank), as the simulator keeps it (core/experts.cpp)."""
        if self.EXPERT <= 1:
            return
        away = self._away
        me = members.index(self.rank)
        for at, piece in enumerate(pieces):
            if piece is not None and at != me:
                for batch in piece.batches:
                    away.pop(batch, None)
        for sender, plan in enumerate(plans):
            if sender == me or plan[me] is None:
                continue
            for batch, home in zip(plan[me][3], plan[me][5]):
                if home == self.rank:
                    away.pop(batch, None)
                else:
                    away[batch] = home

    def _check_whole(self, op, value):
        """Partial sums and sequence shards go into a collective before a computation takes
        them (docs/simulation.md, "Tensor and sequence parallelism"); an unfinished attention's
        output continues its attention first (context.py)."""
        self._check_attended(op, value)
        if getattr(value, "partial", False):
            raise PuzzleError(f"{op}: layer {value.layer}'s {_kind_words(value)} is partial on "
                              f"rank {self.rank}: all-reduce it over the tensor group")
        if isinstance(value, _Rows) and value.is_sequence_shard():
            raise PuzzleError(f"{op}: layer {value.layer}'s {_kind_words(value)} on rank "
                              f"{self.rank} holds only shards {{"
                              + ", ".join(str(s) for s in sorted(value.shards))
                              + f"}} of {value.total} of the sequence: all-gather it over the "
                              "tensor group first")

    def _block_matrices(self, weight, shard, block):
        matrices = blocks.slice_matrices(weight.parts[shard], self.sizes.hidden, shard,
                                         weight.total)
        return matrices[2 * block], matrices[2 * block + 1]

    def _forward_slice(self, layer, inp, weight):
        """One block on this rank's slice: its term of the block's output, partial."""
        block = inp.block  # 0: attention, from the layer's input; 1: the MLP after it
        out = sum(blocks.block_forward(inp.value, *self._block_matrices(weight, s, block))
                  for s in sorted(weight.shards))
        made = inp.like(layer if block == 0 else layer + 1, out, block=1 - block)
        made.partial, made.shards, made.total = True, weight.shards, weight.total
        return made

    def _backward_slice(self, op, layer, inp, grad, weight):
        """One block's backward on the slice: the slice's gradient of that block (zeros in the
        other block's values) and its partial term of the input's gradient."""
        needed = 1 if grad.block == 0 else 0  # the MLP block took the activation after attention
        if not (inp.layer == layer and inp.block == needed and grad.layer == layer):
            at = _place(grad.layer + 1, 0) if grad.block == 0 else _place(grad.layer, 1)
            raise PuzzleError(f"{op}: the gradient is of {at}, so this backward runs that block "
                              f"and needs the activation its forward took (at "
                              f"{_place(layer, needed)}), not the one at "
                              f"{_place(inp.layer, inp.block)}")
        parts, term = {}, None
        for shard in sorted(weight.shards):
            column, row = self._block_matrices(weight, shard, needed)
            grad_column, grad_row, grad_inp = blocks.block_backward(inp.value, grad.value, column,
                                                                    row)
            pieces = [torch.zeros(column.numel(), dtype=tensors.DTYPE, device=self.device),
                      torch.zeros(row.numel(), dtype=tensors.DTYPE, device=self.device)] * 2
            pieces[2 * needed], pieces[2 * needed + 1] = grad_column.reshape(-1), \
                grad_row.reshape(-1)
            parts[shard] = torch.cat(pieces)
            term = grad_inp if term is None else term + grad_inp
        weight_grad = WeightGrad(layer, self.LAYERS, inp.batches, self.BATCHES, weight.shards,
                                 weight.total, parts)
        weight_grad.slice, weight_grad.block = True, 2 if needed == 1 else 1
        out = grad.like(grad.layer if grad.block == 0 else grad.layer - 1, term, block=needed)
        out.partial, out.shards, out.total = True, weight.shards, weight.total
        return weight_grad, out

    def _check_slice_backward(self, op, inp, grad):
        if not isinstance(inp, Activation) or not isinstance(grad, ActivationGrad):
            raise PuzzleError(f"{op}: needs an activation and an activation gradient, not "
                              f"{inp!r} and {grad!r}")
        self._check_whole(op, inp)
        self._check_whole(op, grad)
        if inp.batches != grad.batches:
            raise PuzzleError(f"{op}: the activation covers {_batches_text(inp.batches)} and the "
                              f"gradient {_batches_text(grad.batches)}; they must be the same")

    def expert_of(self, batch):
        if not 0 <= batch < self.BATCHES:
            raise ValueError(f"expert_of(batch): there is no batch {batch}; the batches are "
                             f"0-{self.BATCHES - 1}")
        return blocks.expert_of(batch, self.EXPERT)

    def alltoall(self, pieces, layer, group=None):
        """Piece i to the group's i-th rank (docs/simulation.md, "Expert parallelism"): what
        every member sends whom is shared first, as numbers in a tensor (_plan_tensor: no
        pickle from another process is read), then the rows travel in one all_to_all_single
        with a split per rank (gloo has no all_to_all of a list)."""
        op, members = f"alltoall(layer {layer})", self._members(group)
        pieces = list(pieces)
        if len(pieces) != len(members):
            raise PuzzleError(f"{op}: give one piece (or None) for each of the {len(members)} "
                              f"ranks of the group {{{', '.join(str(m) for m in members)}}}, in "
                              f"the order of their ranks, but {len(pieces)} were given")
        for piece in pieces:
            if piece is not None and not isinstance(piece, _Rows):
                raise PuzzleError(f"{op}: alltoall sends activations or activation gradients, "
                                  f"not {piece!r}")
            if piece is not None and (piece.partial or piece.total > 1):
                self._check_whole(op, piece)
        handle, members = self._group(group)
        began, memory = self.recorder.begin("alltoall", layer), self.memory()
        self.recorder.enter("alltoall", layer)
        plan = self._plan_tensor(op, pieces)
        gathered = [torch.zeros_like(plan) for _ in members]
        dist.all_gather(gathered, plan, group=handle)
        plans = [self._plan_of(shared) for shared in gathered]
        me, width = members.index(self.rank), self.sizes.hidden
        sent = [p.value.reshape(-1) for p in pieces if p is not None]
        out_splits = [0 if p is None else p.value.numel() for p in pieces]
        in_splits = [0 if plans[j][me] is None else plans[j][me][4] * width
                     for j in range(len(members))]
        inbound = torch.zeros(sum(in_splits), dtype=tensors.DTYPE, device=self.device)
        outbound = torch.cat(sent) if sent else torch.zeros(0, dtype=tensors.DTYPE,
                                                            device=self.device)
        dist.all_to_all_single(inbound, outbound.contiguous(), in_splits, out_splits,
                               group=handle)
        result = self._joined(plans, me, torch.split(inbound, in_splits), pieces)
        self._move_tokens(plans, members, pieces)
        sent_batches = sorted(set().union(*(p.batches for p in pieces if p is not None)))
        self.recorder.end(began, "alltoall", layer, memory, None, group=members,
                          batches=sent_batches, bytes=nbytes(outbound))
        return _Done(result)

    def _plan_tensor(self, op, pieces):
        """What this rank sends each member, a row per member of the same length on every rank:
        whether it sends, an activation gradient or not, layer, block, rows, then per batch of
        the run 0, or 1 + its home rank when sent (_move_tokens)."""
        plan = torch.zeros(len(pieces), 5 + self.BATCHES, dtype=torch.int64, device=self.device)
        for at, piece in enumerate(pieces):
            if piece is None:
                continue
            outside = sorted(b for b in piece.batches if not 0 <= b < self.BATCHES)
            if outside:
                raise PuzzleError(f"{op}: there is no batch {outside[0]}; the batches are "
                                  f"0-{self.BATCHES - 1}")
            plan[at, :5] = torch.tensor([1, int(isinstance(piece, ActivationGrad)), piece.layer,
                                         piece.block, piece.value.shape[0]])
            for b in piece.batches:
                plan[at, 5 + b] = 1 + self._away.get(b, self.rank)
        return plan

    def _plan_of(self, shared):
        """A member's _plan_tensor read back: per member None, or (kind, layer, block, sorted
        batches, rows, each batch's home)."""
        kinds = ("Activation", "ActivationGrad")
        return [None if not row[0] else
                (kinds[row[1] != 0], row[2], row[3],
                 [b for b in range(self.BATCHES) if row[5 + b]], row[4],
                 [row[5 + b] - 1 for b in range(self.BATCHES) if row[5 + b]])
                for row in shared.tolist()]

    def _joined(self, plans, me, received, pieces):
        """What every member sent this rank, one object of that kind and layer, its rows in
        ascending batch order."""
        known = [p for plan in plans for p in plan if p is not None]
        kind, layer, block = known[0][:3] if known else ("Activation", 0, 0)
        rows, batches = {}, set()
        for sender, plan in enumerate(plans):
            if plan[me] is None:
                continue
            names = plan[me][3]
            per = plan[me][4] // max(len(names), 1)
            value = received[sender].view(len(names), per, self.sizes.hidden)
            for at, batch in enumerate(names):
                rows[batch] = value[at]
                batches.add(batch)
        order = sorted(batches)
        value = torch.cat([rows[b] for b in order]) if order else \
            torch.zeros(0, self.sizes.hidden, dtype=tensors.DTYPE, device=self.device)
        made = (ActivationGrad if kind == "ActivationGrad" else Activation)(
            layer, self.LAYERS, order, self.BATCHES, value.clone())
        made.block = block
        return made

    def _check_sum(self, op, value, members):
        """A sum of activations (gradients) is of partial terms, over their tensor group."""
        if not value.partial:
            raise PuzzleError(f"{op}: this collective sums weight gradients or partial "
                              f"activations (and gradients), not a complete {_kind_words(value)}")
        if len(members) != value.total:
            raise PuzzleError(f"{op}: the {_kind_words(value)} is partial over a tensor group of "
                              f"{value.total} ranks, but this group has {len(members)}: sum it "
                              "over the tensor group, model.group(\"tensor\")")

    def _rows_collective(self, name, value, layer, group):
        """allreduce, scatterreduce and allgather of activations (gradients): the sums of
        tensor parallelism and the sequence shards of sequence parallelism."""
        op, members = f"{name}(layer {layer})", self._members(group)
        if name == "allgather":
            if not value.is_sequence_shard():
                raise PuzzleError(f"{op}: allgather joins shards of weights, optimizer states, "
                                  "weight gradients or sequence shards of activations, not a "
                                  f"whole {_kind_words(value)}")
        else:
            self._check_sum(op, value, members)
        handle, members = self._group(group)
        began, memory = self.recorder.begin(name, layer), self.memory()
        self.recorder.enter(name, layer)
        count, batches = len(members), len(value.batches)
        if name == "allgather":
            made = self._gathered_sequence(value, handle, members)
            moved = made.value
        else:
            moved = value.value.clone().contiguous()
            dist.all_reduce(moved, group=handle)
            made = value.like(value.layer, moved)
            if name == "scatterreduce":
                position = members.index(self.rank)
                made = value.like(value.layer,
                                  sequence_split(moved, batches, count)[position].clone())
                made.shards, made.total = frozenset({position}), count
        self.recorder.end(began, name, layer, memory, value, group=members, bytes=nbytes(moved))
        return _Done(made)

    def _gathered_sequence(self, value, handle, members):
        """Every member's sequence shard, joined into whole batches in shard order."""
        # Each member's rows, then its shards.
        shards = [(row[1:], row[0]) for row in gather_ints(
            [value.value.shape[0]] + sorted(value.shards), handle, len(members), self.device)]
        longest = max(rows for _, rows in shards)
        width = self.sizes.hidden
        padded = torch.zeros(longest, width, dtype=tensors.DTYPE, device=self.device)
        padded[: value.value.shape[0]] = value.value
        received = [torch.zeros_like(padded) for _ in members]
        dist.all_gather(received, padded, group=handle)
        by_shard = {}
        for (held, rows), data in zip(shards, received):
            by_shard.setdefault(held[0] if held else -1, data[:rows])
        if sorted(by_shard) != list(range(value.total)):
            raise PuzzleError(f"allgather(layer {value.layer}): the group's sequence shards are "
                              f"{sorted(by_shard)}, not every one of {value.total}")
        joined = sequence_join([by_shard[s] for s in range(value.total)], len(value.batches))
        return value.like(value.layer, joined.clone())


def gather_ints(values, group, count, device):
    """Every member's list of ints, shared as numbers in tensors (its length first, then the
    lists padded to the longest): no member reads a pickle another process wrote, as
    all_gather_object would make it."""
    mine = torch.tensor([len(values)], dtype=torch.int64, device=device)
    lengths = [torch.zeros_like(mine) for _ in range(count)]
    dist.all_gather(lengths, mine, group=group)
    longest = max(int(n.item()) for n in lengths)
    padded = torch.zeros(max(longest, 1), dtype=torch.int64, device=device)
    if values:
        padded[: len(values)] = torch.tensor([int(v) for v in values], dtype=torch.int64)
    shared = [torch.zeros_like(padded) for _ in range(count)]
    dist.all_gather(shared, padded, group=group)
    return [row[: int(n.item())].tolist() for row, n in zip(shared, lengths)]
