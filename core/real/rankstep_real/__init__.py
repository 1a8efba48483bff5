# SPDX-License-Identifier: MIT
"""The puzzle API on real tensors and real processes, to check a simulated program for real.

Each rank is a process; `forward`, `backward` and `update` compute real values; collectives and
messages go through PyTorch's torch.distributed. `rankstep-cli real` starts the ranks
(`rankstep_real.rank`) and then checks the result (`rankstep_real.verify`).
"""
