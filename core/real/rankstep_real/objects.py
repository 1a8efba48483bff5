# SPDX-License-Identifier: MIT
"""The notebook's puzzle objects, each carrying its real values.

What identifies an object (layer, step, batches, shards of total) follows docs/simulation.md,
"Objects"; the values are float64 tensors. A sharded object keeps one flat slice per shard it
holds, cut as `tensors.split_flat` cuts the layer's HIDDEN * HIDDEN values.
"""
from . import tensors


class PuzzleError(Exception):
    """A rule of the puzzle broken, in the simulator's words."""


def _set_text(values):
    return "{" + ", ".join(str(v) for v in sorted(values)) + "}"


class _Sharded:
    """Weights, optimizer states and weight gradients: `parts` maps a shard to its values."""

    def __init__(self, layer, layers, shards, total, parts):
        self.layer = layer
        self.layers = layers
        self.shards = frozenset(shards)
        self.total = total
        self.parts = parts
        # A tensor-parallel slice (its parts are blocks.slice_flat's), an expert's (its number),
        # and for a slice's gradient the blocks it covers (1 attention, 2 MLP, 3 both).
        self.slice = False
        self.expert = None
        self.block = 0
        # A weight gradient of a sequence chunk: one rank's term of a sum over its context group.
        self.context = False

    def _marked(self, like):
        self.slice, self.expert, self.block = like.slice, like.expert, like.block
        self.context = like.context
        return self

    def is_complete(self):
        return len(self.shards) == self.total

    def memory(self):
        return sum(_bytes(part) for part in self.parts.values())

    def flat(self):
        """The whole layer's values, flat; only for a complete object."""
        return _cat([self.parts[s] for s in range(self.total)])

    def _with(self, shards, total, parts):
        raise NotImplementedError

    def combine(self, other):
        if type(other) is not type(self) or other.layer != self.layer or other.total != self.total:
            raise PuzzleError(f"combine: {self!r} and {other!r} are not shards of one object")
        parts = dict(self.parts)
        parts.update({s: v for s, v in other.parts.items() if s not in parts})
        return self._with(self.shards | other.shards, self.total, parts)

    def shard(self, shard, total):
        if not self.is_complete():
            raise PuzzleError(f"shard: {self!r} is not complete; only a whole object can be cut")
        if not 0 <= shard < total:
            raise PuzzleError(f"shard: shard {shard} does not exist among {total}")
        return self._with({shard}, total, {shard: _split(self.flat(), total)[shard]})


class _Done:
    """What `await model.allreduce(...)` gets: the collective has already completed."""

    def __init__(self, value):
        self.value = value

    def __await__(self):
        return self.value
        yield  # pragma: no cover  (makes this a generator, as __await__ must be)


def nbytes(tensor):
    return tensor.numel() * tensor.element_size()


def _marks(value):
    """The end of a repr, as the simulator's: ", split='tensor'", ", expert=1",
    ", context='partial'"."""
    text = ", split='tensor'" if value.slice else ""
    text += f", expert={value.expert}" if value.expert is not None else ""
    return text + (", context='partial'" if value.context else "")


def _bytes(value):
    if isinstance(value, tuple):
        return sum(_bytes(v) for v in value)
    return value.numel() * value.element_size()


def _cat(values):
    if values and isinstance(values[0], tuple):
        return tuple(tensors.torch.cat([v[i] for v in values]) for i in range(len(values[0])))
    return tensors.torch.cat(values)


def _split(flat, total):
    if isinstance(flat, tuple):
        pieces = [tensors.split_flat(f, total) for f in flat]
        return [tuple(p[i] for p in pieces) for i in range(total)]
    return tensors.split_flat(flat, total)


class Weight(_Sharded):
    def __init__(self, layer, layers, step, shards, total, parts=None):
        super().__init__(layer, layers, shards, total, parts or {})
        self.step = step

    def _with(self, shards, total, parts):
        return Weight(self.layer, self.layers, self.step, shards, total, parts)._marked(self)

    def matrix(self, hidden):
        return self.flat().view(hidden, hidden)

    def __repr__(self):
        return (f"Weight(layer={self.layer}, step={self.step}, shards={_set_text(self.shards)}, "
                f"total={self.total}{_marks(self)})")


class OptState(_Sharded):
    """Adam's two moments: each part is a (first, second) pair of flat slices."""

    def __init__(self, layer, layers, step, shards, total, parts=None):
        super().__init__(layer, layers, shards, total, parts or {})
        self.step = step

    def _with(self, shards, total, parts):
        return OptState(self.layer, self.layers, self.step, shards, total, parts)._marked(self)

    def __repr__(self):
        return (f"OptState(layer={self.layer}, step={self.step}, shards={_set_text(self.shards)}, "
                f"total={self.total}{_marks(self)})")


class WeightGrad(_Sharded):
    def __init__(self, layer, layers, batches, total_batches, shards, total, parts=None):
        super().__init__(layer, layers, shards, total, parts or {})
        self.batches = frozenset(batches)
        self.total_batches = total_batches

    def _with(self, shards, total, parts):
        return WeightGrad(self.layer, self.layers, self.batches, self.total_batches, shards, total,
                          parts)._marked(self)

    def __add__(self, other):
        if not isinstance(other, WeightGrad) or other.layer != self.layer or \
                other.shards != self.shards or other.total != self.total:
            raise PuzzleError(f"{self!r} + {other!r}: only gradients of one layer and the same "
                              "shards add up")
        if other.slice != self.slice or other.expert != self.expert:
            raise PuzzleError(f"{self!r} + {other!r}: only gradients of the same slice or expert "
                              "add up")
        parts = {s: self.parts[s] + other.parts[s] for s in self.shards}
        total = WeightGrad(self.layer, self.layers, self.batches | other.batches,
                           self.total_batches, self.shards, self.total, parts)._marked(self)
        total.block = self.block | other.block  # a slice's two blocks: the whole slice's gradient
        total.context = self.context or other.context
        return total

    def __radd__(self, other):
        return self if other == 0 else NotImplemented

    def __repr__(self):
        return (f"WeightGrad(layer={self.layer}, batches={_set_text(self.batches)}, "
                f"shards={_set_text(self.shards)}, total={self.total}{_marks(self)})")


class _Rows:
    """Activations and their gradients: the rows of `batches`, in ascending batch order.

    Tensor parallelism (docs/simulation.md) adds three marks: `partial` (this rank's term of a sum
    over a tensor group of `total` ranks, full size), a sequence shard (`shards` of `total`, not
    partial: of each batch only that part of its LENGTH rows, cut as torch.tensor_split cuts
    them), and `block` (1: between a tensor-parallel layer's attention and MLP blocks).

    Context parallelism adds `context`: the rows are chunk `shards` of `total` (the context group's
    size) of each batch's sequence, as the simulator marks a chunk (docs/simulation.md)."""

    def __init__(self, layer, layers, batches, total_batches, value):
        self.layer = layer
        self.layers = layers
        self.batches = frozenset(batches)
        self.total_batches = total_batches
        self.value = value
        self.partial = False
        self.shards = frozenset()
        self.total = 1
        self.block = 0
        self.context = False

    def like(self, layer, value, batches=None, block=None):
        """The same kind of object with other values: whole, unless marked afterwards."""
        made = type(self)(layer, self.layers, self.batches if batches is None else batches,
                          self.total_batches, value)
        made.block = self.block if block is None else block
        return made

    def is_complete(self):
        return True

    def is_sequence_shard(self):
        return not self.partial and not self.context and self.total > 1

    def chunk_of(self, like):
        """Marks this object as the same chunk of the sequence as `like`; returns it."""
        self.context, self.shards, self.total = like.context, like.shards, like.total
        return self

    def memory(self):
        return _bytes(self.value)

    def rows_per_batch(self):
        return self.value.shape[0] // max(len(self.batches), 1)

    def shard(self, shard, total):
        """Shard `shard` of `total` of each batch's sequence (sequence parallelism)."""
        if self.partial or self.total > 1:
            raise PuzzleError(f"shard: {self!r} is not whole; only a whole activation can be cut")
        if not 0 <= shard < total:
            raise PuzzleError(f"shard: shard {shard} does not exist among {total}")
        count = len(self.batches)
        pieces = sequence_split(self.value, count, total)
        made = self.like(self.layer, pieces[shard].clone())
        made.shards, made.total = frozenset({shard}), total
        return made

    def pick(self, batches):
        """The same object on only `batches` (one piece of an alltoall)."""
        wanted = sorted(set(int(b) for b in batches))
        missing = [b for b in wanted if b not in self.batches]
        if missing:
            raise PuzzleError(f"pick: {self!r} does not hold batch {missing[0]}")
        order = sorted(self.batches)
        rows, width = self.rows_per_batch(), self.value.shape[-1]
        value = self.value.view(len(order), rows, width)[[order.index(b) for b in wanted]]
        made = self.like(self.layer, value.reshape(len(wanted) * rows, width).clone(), set(wanted))
        made.partial, made.shards, made.total = self.partial, self.shards, self.total
        made.context = self.context
        return made

    def __repr__(self):
        marks = ""
        if self.context:
            return (f"{type(self).__name__}(layer={self.layer}, batches={_set_text(self.batches)}"
                    f", chunks={_set_text(self.shards)}, context={self.total})")
        if self.partial:
            marks = f", partial over {self.total}"
        elif self.total > 1:
            marks = f", shards={_set_text(self.shards)}, total={self.total}"
        if self.block:
            marks += ", block=1"
        batches = _set_text(self.batches)
        return f"{type(self).__name__}(layer={self.layer}, batches={batches}{marks})"


def sequence_split(value, batches, total):
    """Each batch's rows cut along the sequence into `total` parts: the parts, each batch-major."""
    rows = value.view(batches, value.shape[0] // max(batches, 1), -1)
    return [piece.reshape(-1, rows.shape[-1]) for piece in tensors.torch.tensor_split(rows, total,
                                                                                      dim=1)]


def sequence_join(pieces, batches):
    """The inverse of sequence_split: the parts, in shard order, joined into whole batches."""
    width = pieces[0].shape[-1]
    views = [p.view(batches, p.shape[0] // max(batches, 1), width) for p in pieces]
    return tensors.torch.cat(views, dim=1).reshape(-1, width)


class Activation(_Rows):
    pass


class ActivationGrad(_Rows):
    pass


class KeysValues:
    """The keys and values of a chunk of the sequence at one layer (model.keys_values): real
    tensors, |batches| * rows x HIDDEN each, in batch order, and the chunk's input rows they were
    projected from, which the backward needs for the gradients of the projections (the real
    ring sends no gradients of keys and values back: blocks.py)."""

    def __init__(self, layer, layers, batches, total_batches, inputs, keys, values):
        self.layer = layer
        self.layers = layers
        self.batches = frozenset(batches)
        self.total_batches = total_batches
        self.inputs, self.keys, self.values = inputs, keys, values
        self.context, self.shards, self.total = True, frozenset(), 1

    def memory(self):
        return _bytes(self.inputs) + _bytes(self.keys) + _bytes(self.values)

    def __repr__(self):
        return (f"KeysValues(layer={self.layer}, batches={_set_text(self.batches)}, "
                f"chunks={_set_text(self.shards)}, context={self.total})")
