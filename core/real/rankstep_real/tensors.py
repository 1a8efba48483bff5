# SPDX-License-Identifier: MIT
"""The model the real runs train, as plain functions of tensors.

Layer l is a linear layer followed by tanh: a[l + 1] = tanh(a[l] @ W[l]). The data set is seeded:
batch b is LENGTH rows of inputs and LENGTH rows of targets, the same on every rank and in the
single process that checks the run. The loss is half the squared error summed over every row of
every batch, divided by BATCHES * LENGTH, so the gradient of a set of batches is the sum of the
gradients of its batches: ranks that each take some batches and add their gradients get exactly
the gradient of one process that takes them all. Everything is float64, so sums in a different
order differ by rounding only. The update is Adam (the optimizer state is its two moments).
"""
import math

import torch

DTYPE = torch.float64
LEARNING_RATE = 1e-2
BETAS = (0.9, 0.999)
EPSILON = 1e-8


class Sizes:
    """HIDDEN and LENGTH (the notebook's 512 and 256 unless smaller ones are asked for) and the
    seed of the data set and of the first weights."""

    def __init__(self, hidden=512, length=256, seed=0):
        self.hidden = hidden
        self.length = length
        self.seed = seed


def _generator(sizes, *key):
    seed = sizes.seed
    for part in key:
        seed = (seed * 1_000_003 + part + 1) % (2**63 - 1)
    return torch.Generator().manual_seed(seed)


def batch_inputs(sizes, batch):
    """The inputs of one batch: LENGTH x HIDDEN."""
    return torch.randn(sizes.length, sizes.hidden, generator=_generator(sizes, 1, batch),
                       dtype=DTYPE)


def batch_targets(sizes, batch):
    """The targets of one batch, in tanh's range: LENGTH x HIDDEN."""
    values = torch.rand(sizes.length, sizes.hidden, generator=_generator(sizes, 2, batch),
                        dtype=DTYPE)
    return values * 1.6 - 0.8


def initial_weight(sizes, layer):
    """Layer l's weight before training: HIDDEN x HIDDEN, scaled to keep tanh out of saturation."""
    weight = torch.randn(sizes.hidden, sizes.hidden, generator=_generator(sizes, 3, layer),
                         dtype=DTYPE)
    return weight / math.sqrt(sizes.hidden)


def rows_of(sizes, batches, make):
    """The rows of `batches` (ascending) stacked: |batches| * LENGTH x HIDDEN."""
    if not batches:
        return torch.zeros(0, sizes.hidden, dtype=DTYPE)
    return torch.cat([make(sizes, b) for b in sorted(batches)])


def forward(inputs, weight):
    return torch.tanh(inputs @ weight)


def backward(inputs, grad_outputs, weight):
    """(gradient of the weight, gradient of the inputs) of one layer, recomputing its output."""
    outputs = torch.tanh(inputs @ weight)
    grad_pre = grad_outputs * (1 - outputs * outputs)
    return inputs.t() @ grad_pre, grad_pre @ weight.t()


def loss_grad(outputs, targets, all_batches, length):
    """The loss's gradient with respect to the model's outputs for the rows given."""
    return (outputs - targets) / float(all_batches * length)


def loss_value(outputs, targets, all_batches, length):
    return 0.5 * float(((outputs - targets) ** 2).sum()) / float(all_batches * length)


def adam(weight, grad, first, second, step):
    """One Adam step (step counts from 1) on matching flat slices; returns the new three."""
    beta1, beta2 = BETAS
    first = beta1 * first + (1 - beta1) * grad
    second = beta2 * second + (1 - beta2) * grad * grad
    first_hat = first / (1 - beta1**step)
    second_hat = second / (1 - beta2**step)
    weight = weight - LEARNING_RATE * first_hat / (second_hat.sqrt() + EPSILON)
    return weight, first, second


def split_flat(flat, total):
    """The `total` shards of a flat weight, as torch.tensor_split cuts them (sizes differ by at
    most one value when `total` does not divide HIDDEN * HIDDEN)."""
    return list(torch.tensor_split(flat, total))
