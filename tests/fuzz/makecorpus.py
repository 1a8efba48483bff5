#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the committed seed corpus of the fuzz targets (tests/fuzz/corpus/{core,python}).

core: reference-like programs in the core fuzzer's encoding (corefuzzer.cpp: 3 header bytes,
then 8-byte instructions rank, op, six arguments): DDP, a two-rank pipeline and FSDP. Objects
are named by how new they are in the rank's pool (0 = the last result).
python: grammar choices from a fixed pseudo-random seed (snippetgrammar.cpp picks by byte).
Run: /usr/bin/python3 tests/fuzz/makecorpus.py
"""
import pathlib
import random

HERE = pathlib.Path(__file__).resolve().parent
LOAD, GET_ACT, FORWARD, BACKWARD, LOSS, UPDATE = 0, 4, 8, 12, 16, 20
SET_FINAL, STORE, ERASE = 28, 2, 6
ALLREDUCE, ALLGATHER, SCATTERREDUCE, PASS_TO, RECEIVE = 3, 7, 11, 15, 19
FAIL = 1  # last argument byte odd: a failed call ends the rank


def ins(rank, op, *args):
    args = list(args) + [0] * (5 - len(args)) + [FAIL]
    return bytes([rank, op] + args)


def layer(n):
    return n + 1  # the fuzzer reads layer = byte % (LAYERS + 2) - 1


def ddp(ranks):
    out = bytes([ranks - 1, 1, ranks - 1])  # 2 layers, `ranks` batches
    for r in range(ranks):
        out += ins(r, LOAD, layer(0), 1, 2) + ins(r, LOAD, layer(1), 1, 2)
        out += ins(r, GET_ACT, 1 << r)
        out += ins(r, FORWARD, layer(0), 0, 4) + ins(r, FORWARD, layer(1), 0, 3)
        out += ins(r, LOSS, 0)
        out += ins(r, BACKWARD, layer(1), 2, 0, 5) + ins(r, BACKWARD, layer(0), 5, 0, 9)
        out += ins(r, STORE, 4, 1, 1, 0) + ins(r, ERASE, 4, 1, 1)
        out += ins(r, ALLREDUCE, 0, 3, layer(1)) + ins(r, ALLREDUCE, 0, 2, layer(0))
        out += ins(r, UPDATE, layer(0), 0, 13, 12) + ins(r, SET_FINAL, layer(0), 1)
        out += ins(r, UPDATE, layer(1), 3, 13, 12) + ins(r, SET_FINAL, layer(1), 1)
    return out


def pipeline():
    out = bytes([1, 1, 3])  # 2 ranks, 2 layers, 4 batches
    out += ins(0, LOAD, layer(0), 1, 2) + ins(0, GET_ACT, 0x0F) + ins(0, FORWARD, layer(0), 0, 2)
    out += ins(0, PASS_TO, 0, 0, 2) + ins(0, RECEIVE, 1, 2)
    out += ins(0, BACKWARD, layer(0), 2, 0, 4) + ins(0, UPDATE, layer(0), 1, 6, 5)
    out += ins(0, SET_FINAL, layer(0), 1)
    out += ins(1, LOAD, layer(1), 1, 2) + ins(1, RECEIVE, 0) + ins(1, FORWARD, layer(1), 0, 2)
    out += ins(1, LOSS, 0) + ins(1, BACKWARD, layer(1), 2, 0, 4) + ins(1, PASS_TO, 0, 0, 1)
    out += ins(1, UPDATE, layer(1), 1, 6, 5) + ins(1, SET_FINAL, layer(1), 1)
    return out


def fsdp(ranks):
    out = bytes([ranks - 1, 0, ranks - 1])  # 1 layer
    for r in range(ranks):
        out += ins(r, LOAD, layer(0), r + 1, ranks + 1) + ins(r, GET_ACT, 1 << r)
        out += ins(r, ALLGATHER, 0, 2, layer(0)) + ins(r, FORWARD, layer(0), 1, 0)
        out += ins(r, LOSS, 0) + ins(r, BACKWARD, layer(0), 3, 0, 2)
        out += ins(r, SCATTERREDUCE, 0, 1, layer(0), 0b11 if ranks == 2 else 0)
        out += ins(r, UPDATE, layer(0), 0, 8, 7) + ins(r, SET_FINAL, layer(0), 1)
    return out


def main():
    core = HERE / "corpus" / "core"
    core.mkdir(parents=True, exist_ok=True)
    for name, data in {"ddp4": ddp(4), "ddp2": ddp(2), "pipeline2": pipeline(),
                       "fsdp2": fsdp(2), "fsdp4": fsdp(4)}.items():
        (core / name).write_bytes(data)
    python = HERE / "corpus" / "python"
    python.mkdir(parents=True, exist_ok=True)
    rng = random.Random(8)
    for i, size in enumerate([16, 48, 96, 160, 256, 400]):
        (python / f"random{i}").write_bytes(bytes(rng.randrange(256) for _ in range(size)))


if __name__ == "__main__":
    main()
