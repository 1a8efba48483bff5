# SPDX-License-Identifier: MIT
"""The layers that tensor and expert parallelism split, as plain functions of tensors.

A tensor-parallel layer (loaded with split="tensor") is Megatron-LM's: two blocks, attention then
MLP, each `tanh(x @ A) @ B` with A and B HIDDEN x HIDDEN, A column-parallel and B row-parallel.
Slice s of t holds the columns C_s of both A's and the rows C_s of both B's (C_s: range(HIDDEN)
cut as torch.tensor_split cuts it). Its block forward `tanh(x @ A[:, C_s]) @ B[C_s, :]` is one
term of a sum over the slices that is the block's output: tanh acts value by value, so the terms
of the column slices add up to the whole product. The slice's values travel as one flat tensor:
A of attention, B of attention, A of MLP, B of MLP, each cut to the slice and flattened.

An expert layer (loaded with expert=e) holds EXPERT experts, each a dense layer of its own
(`tanh(x @ W_e)`, tensors.py); the router sends batch b to expert b mod EXPERT, the simulator's
router without a cost file's skew (docs/simulation.md, "Expert parallelism").
"""
import math

import torch

from . import tensors

MATRICES = 4  # attention's A and B, the MLP's A and B
BLOCK_NAMES = ("attention", "MLP")


def initial_tensor_layer(sizes, layer):
    """A tensor-parallel layer's four matrices before training: 4 x HIDDEN x HIDDEN."""
    generator = tensors._generator(sizes, 5, layer)  # noqa: SLF001 (the data set's seeding)
    weights = torch.randn(MATRICES, sizes.hidden, sizes.hidden, generator=generator,
                          dtype=tensors.DTYPE)
    return weights / math.sqrt(sizes.hidden)


def initial_expert(sizes, layer, expert):
    """Expert `expert`'s weight of an expert layer before training: HIDDEN x HIDDEN."""
    generator = tensors._generator(sizes, 6, layer, expert)  # noqa: SLF001
    weight = torch.randn(sizes.hidden, sizes.hidden, generator=generator, dtype=tensors.DTYPE)
    return weight / math.sqrt(sizes.hidden)


def expert_of(batch, experts):
    return batch % experts


def columns(hidden, shard, total):
    """(first, end) of the columns of slice `shard` of `total`."""
    sizes = [len(piece) for piece in torch.tensor_split(torch.arange(hidden), total)]
    first = sum(sizes[:shard])
    return first, first + sizes[shard]


def slice_indices(hidden, shard, total):
    """Where slice `shard`'s flat values sit in the layer's four matrices flattened."""
    first, end = columns(hidden, shard, total)
    grid = torch.arange(MATRICES * hidden * hidden).view(MATRICES, hidden, hidden)
    pieces = []
    for matrix in range(MATRICES):
        cut = grid[matrix, :, first:end] if matrix % 2 == 0 else grid[matrix, first:end, :]
        pieces.append(cut.reshape(-1))
    return torch.cat(pieces)


def slice_length(hidden, shard, total):
    first, end = columns(hidden, shard, total)
    return MATRICES * hidden * (end - first)


def slice_flat(layer_weights, shard, total):
    """Slice `shard` of a layer's four matrices, flat."""
    return layer_weights.reshape(-1)[slice_indices(layer_weights.shape[-1], shard, total)].clone()


def slice_matrices(flat, hidden, shard, total):
    """The slice's four matrices from its flat values: A (HIDDEN x c), B (c x HIDDEN), twice."""
    first, end = columns(hidden, shard, total)
    width = end - first
    pieces = torch.split(flat, hidden * width)
    return [piece.view(hidden, width) if matrix % 2 == 0 else piece.view(width, hidden)
            for matrix, piece in enumerate(pieces)]


def block_forward(inputs, column, row):
    """One block on a slice: its term of the block's output."""
    return torch.tanh(inputs @ column) @ row


def block_backward(inputs, grad_outputs, column, row):
    """(gradient of A's slice, of B's slice, the slice's term of the inputs' gradient)."""
    hidden = torch.tanh(inputs @ column)
    grad_hidden = (grad_outputs @ row.t()) * (1 - hidden * hidden)
    return inputs.t() @ grad_hidden, hidden.t() @ grad_outputs, grad_hidden @ column.t()


# ----- The layer of context parallelism: a layer with attention over the sequence -----
# In a run whose context group splits the sequence (CONTEXT > 1) every layer (no slice, no expert)
# mixes tokens: a[l + 1] = tanh(x @ W + attention(x)), where attention is one head of causal
# softmax attention over the batch's own sequence: query i sees the keys and values of positions
# 0..i. Its queries are x @ Wq; its keys and values are projections of the layer's input, x @ Wk
# and x @ Wv, through which the gradient reaches Wk and Wv but not x: the puzzle's backward sends
# no gradients of keys and values back around the ring (docs/simulation.md, "What we chose for the
# backward"), so the layer is one whose input gradient each chunk makes whole on its own. One
# process that judges a run trains the same layer on the whole sequence.
ATTENTION_MATRICES = 4  # W, then the attention's Wq, Wk and Wv: 4 x HIDDEN x HIDDEN


def initial_attention_layer(sizes, layer):
    """An attention layer's four matrices before training: W is the dense layer's (tensors.py),
    the three projections are seeded apart from it."""
    dense = tensors.initial_weight(sizes, layer)
    generator = tensors._generator(sizes, 7, layer)  # noqa: SLF001 (the data set's seeding)
    projections = torch.randn(3, sizes.hidden, sizes.hidden, generator=generator,
                              dtype=tensors.DTYPE)
    return torch.cat([dense[None], projections / math.sqrt(sizes.hidden)])


def chunk_positions(length, chunk, total):
    """The positions in a batch's sequence of chunk `chunk` of `total` (torch.tensor_split's)."""
    return torch.tensor_split(torch.arange(length), total)[chunk]


def projections(inputs, weights):
    """(keys, values) of rows of the layer's input: x @ Wk and x @ Wv."""
    return inputs @ weights[2], inputs @ weights[3]


def attention_layer(inputs, key_inputs, keys, values, weights, positions, key_positions, batches):
    """The layer on some query rows: `inputs` (|batches| * q rows, in batch order), the keys and
    values of k rows of each batch (|batches| * k rows; keys and values None: projected from
    key_inputs here, so that autograd reaches Wk and Wv), `positions` and `key_positions` their
    places in the sequence. Gives the rows at the layer's output."""
    hidden = weights.shape[-1]
    if keys is None:
        keys, values = projections(key_inputs, weights)
    queries = (inputs @ weights[1]).view(batches, -1, hidden)
    keys, values = keys.view(batches, -1, hidden), values.view(batches, -1, hidden)
    scores = queries @ keys.transpose(1, 2) / math.sqrt(hidden)
    future = key_positions.view(1, -1) > positions.view(-1, 1)  # causal: no later position
    scores = scores.masked_fill(future, float("-inf"))
    mixed = (torch.softmax(scores, dim=-1) @ values).reshape(-1, hidden)
    return torch.tanh(inputs @ weights[0] + mixed)


def attention_backward(inputs, key_inputs, weights, grad_outputs, positions, key_positions,
                       batches):
    """(the gradient of the four matrices, of `inputs`): autograd through attention_layer with
    the keys' and values' inputs held constant."""
    inputs = inputs.detach().requires_grad_()
    weights = weights.detach().requires_grad_()
    outputs = attention_layer(inputs, key_inputs.detach(), None, None, weights, positions,
                              key_positions, batches)
    grad_weights, grad_inputs = torch.autograd.grad(outputs, [weights, inputs], grad_outputs)
    return grad_weights, grad_inputs
