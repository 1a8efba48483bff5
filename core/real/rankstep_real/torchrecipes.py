# SPDX-License-Identifier: MIT
"""What the later PyTorch lessons add to the notebook's loop (docs/torch-lessons.md): their models,
the checklist's schedule and the reference runs the verdict compares with.

- zero, fsdp: the DDP reference (torchlesson.reference), and its AdamW state, which a learner's
  saved optimizer state (ZeRO's consolidated one, FSDP's shards) must equal;
- checkpoint: DeepModel, LAYERS residual blocks trained on batches of CHECKPOINT_BATCH windows, so
  that the activations kept for the backward dominate a rank's memory;
- checklist: the notebook's model with a careless readout (drawn from N(0, 1)), which the learner
  zeroes; AdamW with weight decay, a linear warmup and gradient clipping. Each of the learner's
  typical mistakes has a reference of its own (CHECKLIST_VARIANTS) so the verdict can name it.
"""
import ctypes
import ctypes.util
import math

import torch
import torch.nn as nn
from torch.nn import functional as F

CHECKS = ("loop", "amp", "ddp", "ddp_accum", "zero", "fsdp", "checkpoint", "checklist")
# Lessons whose ranks average their gradients as DDP does (the reference is the same).
DATA_PARALLEL = ("ddp", "ddp_accum", "zero", "fsdp")

LAYERS = 8  # the checkpoint lesson's residual blocks
CHECKPOINT_BATCH = 512  # windows of 8 tokens in a batch of the checkpoint lesson
CHECKLIST_LEARNING_RATE = 1e-3  # the peak, reached at the end of the warmup
CHECKLIST_WEIGHT_DECAY = 0.1
WARMUP_STEPS = 10
CLIP_NORM = 1.0
# What each of the checklist's references leaves out, and the sentence naming it.
CHECKLIST_VARIANTS = {
    "init": "the readout keeps its careless initialization: the loss starts far above ln(10) "
            "(zero model.linear_out's weight and bias before training)",
    "warmup": "there is no warmup: the learning rate is the peak from the first step (set it to "
              "peak x min(1, (step + 1) / run.warmup_steps) before each optimizer.step())",
    "clip": "the gradients were not clipped where it counts: clip_grad_norm_ must run after "
            "loss.backward() (before it there are no gradients yet) and before optimizer.step() "
            "(after it the update is already made)",
}


def release_freed_memory():
    """Makes glibc give every large block back to the system when it is freed (a fixed mmap
    threshold; by default it rises after the first free and keeps later ones in the heap), so
    that a process's peak resident memory follows the tensors it held at once: the checkpoint
    lesson's measure. Called before the learner's code runs, in the ranks and in the check."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    m_mmap_threshold, m_trim_threshold = -3, -1
    libc.mallopt(m_mmap_threshold, 128 * 1024)
    libc.mallopt(m_trim_threshold, 128 * 1024)


class Block(nn.Module):
    """One residual block of the checkpoint lesson: x + Linear(GELU(Linear(x)))."""

    def __init__(self, n_embd):
        super().__init__()
        self.linear1 = nn.Linear(n_embd, 4 * n_embd)
        self.activation = nn.GELU()
        self.linear2 = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x):
        return x + self.linear2(self.activation(self.linear1(x)))


class DeepModel(nn.Module):
    """The checkpoint lesson's model: an embedding, LAYERS blocks, a readout."""

    def __init__(self, vocab_size, n_embd, layers=LAYERS):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.blocks = nn.ModuleList(Block(n_embd) for _ in range(layers))
        self.linear_out = nn.Linear(n_embd, vocab_size)
        # The residual stream grows with every block: a small readout keeps the loss at init near
        # ln(vocab_size), as the checklist asks.
        nn.init.normal_(self.linear_out.weight, std=0.02)
        nn.init.zeros_(self.linear_out.bias)

    def readout(self, x, targets=None):
        """(logits, loss) from the last block's output."""
        logits = self.linear_out(x)
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
        return logits, loss

    def forward(self, idx, targets=None):
        x = self.token_embedding_table(idx)
        for block in self.blocks:
            x = block(x)
        return self.readout(x, targets)


def careless_readout(model):
    """The checklist lesson's starting point: the readout drawn from N(0, 1), as an init that
    forgets the layer's width would (deterministic: its own generator)."""
    generator = torch.Generator().manual_seed(742)
    with torch.no_grad():
        model.linear_out.weight.copy_(torch.randn(model.linear_out.weight.shape,
                                                  generator=generator))
    return model


def zero_readout(model):
    """The fix the checklist lesson asks for: a readout of zeros predicts every token equally
    likely, so the loss at init is ln(vocab_size) exactly."""
    with torch.no_grad():
        model.linear_out.weight.zero_()
        model.linear_out.bias.zero_()
    return model


def warmup_factor(step):
    """The learning rate of optimizer step `step` (from 0) as a share of the peak."""
    return min(1.0, (step + 1) / WARMUP_STEPS)


def checklist_reference(model, batches, steps, leave_out=()):
    """Trains `model` (the careless one) as the checklist lesson asks, but for the habits in
    `leave_out` (keys of CHECKLIST_VARIANTS): (model, losses, the gradient norm before clipping,
    each step)."""
    if "init" not in leave_out:
        zero_readout(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=CHECKLIST_LEARNING_RATE,
                                  weight_decay=CHECKLIST_WEIGHT_DECAY)
    losses, norms = [], []
    for step in range(steps):
        factor = 1.0 if "warmup" in leave_out else warmup_factor(step)
        for group in optimizer.param_groups:
            group["lr"] = CHECKLIST_LEARNING_RATE * factor
        _, loss = model(*batches(step))
        loss.backward()
        if "clip" in leave_out:
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), math.inf)
        else:
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP_NORM)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        losses.append(float(loss.detach()))
        norms.append(float(norm))
    return model, losses, norms


def optimizer_state(optimizer, parameters):
    """AdamW's state as flat tensors in the parameters' order: {"exp_avg", "exp_avg_sq"}."""
    state = [optimizer.state[p] for p in parameters]
    return {key: torch.cat([s[key].detach().reshape(-1) for s in state])
            for key in ("exp_avg", "exp_avg_sq")}
