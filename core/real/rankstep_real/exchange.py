# SPDX-License-Identifier: MIT
"""Across nodes: every rank's files in every node's folder, so that each node's check sees the
whole model (verify.py).

`rankstep-cli real --nnodes N` runs N launchers, each with its own folder and its own check; a
rank writes its files (rank-R.weights, rank-R.json, rank-R.profile.json) in its node's folder only.
After the learner's code, every rank sends each of its files to every other rank in turn
(`broadcast` from each rank over a gloo group made before the learner's code ran), and the first
rank of each node writes the files of the other nodes' ranks beside its own. They are the same
bytes a rank of the other node wrote: the check reads them as it reads every rank's file, as data
that the learner's code may have written.
"""
import os

import torch
import torch.distributed as dist

FAILED = 5  # the exit code of a rank whose exchange failed (cli/realrun.h kExchangeFailed)
LIMITS = {".weights": 1 << 30, ".json": 64 << 20, ".profile.json": 1 << 30}


class TooLarge(Exception):
    """A rank's file larger than a check reads: not sent."""


def _own_bytes(path, limit):
    """The file's bytes, b"" when it is missing; a rank's file larger than `limit` is refused."""
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except FileNotFoundError:
        return b""
    if len(data) > limit:
        raise TooLarge(f"{os.path.basename(path)} is larger than the {limit >> 20} MiB a check "
                       "reads")
    return data


def _write(path, data):
    """`data` at `path` all at once; whatever stood there (a link the learner's code left) is
    replaced, never followed."""
    with open(path + ".part", "wb") as file:
        file.write(data)
    os.replace(path + ".part", path)


def share(group, rank, ranks, node_ranks, folder, suffixes):
    """Every rank's files with `suffixes`, sent one rank at a time (a file's size, then its bytes),
    written into `folder` by the first rank of each node for the ranks of the other nodes."""
    node = rank // node_ranks
    writes = rank % node_ranks == 0
    for suffix in suffixes:
        mine = _own_bytes(os.path.join(folder, f"rank-{rank}{suffix}"), LIMITS[suffix])
        for sender in range(ranks):
            size = torch.tensor([len(mine) if sender == rank else 0], dtype=torch.int64)
            dist.broadcast(size, src=sender, group=group)
            length = int(size[0])
            if length == 0:
                continue
            if not 0 < length <= LIMITS[suffix]:
                raise TooLarge(f"rank {sender} announced a {suffix} file of {length} bytes")
            if sender == rank:
                payload = torch.frombuffer(bytearray(mine), dtype=torch.uint8)
            else:
                payload = torch.empty(length, dtype=torch.uint8)
            dist.broadcast(payload, src=sender, group=group)
            if writes and sender // node_ranks != node:
                _write(os.path.join(folder, f"rank-{sender}{suffix}"), payload.numpy().tobytes())
