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
        return Weight(self.layer, self.layers, self.step, shards, total, parts)

    def matrix(self, hidden):
        return self.flat().view(hidden, hidden)

    def __repr__(self):
        return (f"Weight(layer={self.layer}, step={self.step}, shards={_set_text(self.shards)}, "
                f"total={self.total})")


class OptState(_Sharded):
    """Adam's two moments: each part is a (first, second) pair of flat slices."""

    def __init__(self, layer, layers, step, shards, total, parts=None):
        super().__init__(layer, layers, shards, total, parts or {})
        self.step = step

    def _with(self, shards, total, parts):
        return OptState(self.layer, self.layers, self.step, shards, total, parts)

    def __repr__(self):
        return (f"OptState(layer={self.layer}, step={self.step}, shards={_set_text(self.shards)}, "
                f"total={self.total})")


class WeightGrad(_Sharded):
    def __init__(self, layer, layers, batches, total_batches, shards, total, parts=None):
        super().__init__(layer, layers, shards, total, parts or {})
        self.batches = frozenset(batches)
        self.total_batches = total_batches

    def _with(self, shards, total, parts):
        return WeightGrad(self.layer, self.layers, self.batches, self.total_batches, shards, total,
                          parts)

    def __add__(self, other):
        if not isinstance(other, WeightGrad) or other.layer != self.layer or \
                other.shards != self.shards or other.total != self.total:
            raise PuzzleError(f"{self!r} + {other!r}: only gradients of one layer and the same "
                              "shards add up")
        parts = {s: self.parts[s] + other.parts[s] for s in self.shards}
        return WeightGrad(self.layer, self.layers, self.batches | other.batches,
                          self.total_batches, self.shards, self.total, parts)

    def __radd__(self, other):
        return self if other == 0 else NotImplemented

    def __repr__(self):
        return (f"WeightGrad(layer={self.layer}, batches={_set_text(self.batches)}, "
                f"shards={_set_text(self.shards)}, total={self.total})")


class _Rows:
    """Activations and their gradients: the rows of `batches`, in ascending batch order."""

    def __init__(self, layer, layers, batches, total_batches, value):
        self.layer = layer
        self.layers = layers
        self.batches = frozenset(batches)
        self.total_batches = total_batches
        self.value = value

    def is_complete(self):
        return True

    def memory(self):
        return _bytes(self.value)

    def __repr__(self):
        return f"{type(self).__name__}(layer={self.layer}, batches={_set_text(self.batches)})"


class Activation(_Rows):
    pass


class ActivationGrad(_Rows):
    pass
