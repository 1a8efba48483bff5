# SPDX-License-Identifier: MIT
"""The weights a rank leaves for the check, as plain bytes: no pickle.

A rank runs the learner's code, so whatever it leaves behind may have been written by that code;
pickle (torch.load) would run code chosen by it in the process that reads the file. This format
is data only: a first line that names it, the length of a JSON header, the header (each tensor's
name, dtype and shape, and the writer's own values), and every tensor's bytes in that order. The
reader checks every field against the file's size before it makes a tensor, and raises
WeightsFileError with a sentence saying what is wrong.
"""
import errno
import json
import math
import os
import stat

import torch

MAGIC = b"rankstep-weights 1\n"
HEADER_LIMIT = 1 << 20  # a header of a few names and shapes; more is not a rank's
# dtype name -> (torch dtype, the integer type of its size the bytes travel as)
DTYPES = {
    "float64": (torch.float64, torch.int64),
    "float32": (torch.float32, torch.int32),
    "bfloat16": (torch.bfloat16, torch.int16),
    "float16": (torch.float16, torch.int16),
}


class WeightsFileError(Exception):
    """A weights file that is not what a rank writes: its sentence says why."""


def write(path, tensors, meta=None):
    """Writes [(name, tensor), ...] and `meta` (JSON values) to `path`, all at once."""
    entries, blobs = [], []
    for name, tensor in tensors:
        tensor = tensor.detach().cpu().contiguous()
        dtype = str(tensor.dtype).replace("torch.", "")
        if dtype not in DTYPES:
            tensor, dtype = tensor.double(), "float64"
        blob = tensor.reshape(-1).view(DTYPES[dtype][1]).numpy().tobytes()
        entries.append({"name": str(name), "dtype": dtype, "shape": list(tensor.shape),
                        "bytes": len(blob)})
        blobs.append(blob)
    header = json.dumps({"tensors": entries, "meta": meta or {}}).encode("utf-8")
    with open(path + ".part", "wb") as file:
        file.write(MAGIC)
        file.write(len(header).to_bytes(8, "little"))
        file.write(header)
        for blob in blobs:
            file.write(blob)
    os.replace(path + ".part", path)


def _entry(item, at, size):
    """One tensor's header entry, checked: (name, dtype name, shape, its bytes' end)."""
    if not isinstance(item, dict):
        raise WeightsFileError("its header lists something that is not a tensor")
    name, dtype, shape, count = (item.get(k) for k in ("name", "dtype", "shape", "bytes"))
    if not isinstance(name, str) or dtype not in DTYPES:
        raise WeightsFileError(f"its header names a tensor of type {dtype!r}, not one of "
                               f"{', '.join(DTYPES)}")
    if not isinstance(shape, list) or len(shape) > 8 or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**40 for n in shape):
        raise WeightsFileError(f"the shape of tensor {name!r} is not a list of sizes")
    item_size = torch.empty(0, dtype=DTYPES[dtype][0]).element_size()
    if not isinstance(count, int) or count != math.prod(shape) * item_size:
        raise WeightsFileError(f"tensor {name!r} claims {count!r} bytes, which its shape "
                               "and type do not make")
    if at + count > size:
        raise WeightsFileError(f"the file ends inside tensor {name!r}")
    return name, dtype, shape, at + count


def open_regular(path):
    """`path` opened to read in binary, when it is a regular file: a rank may have left a FIFO
    (which would block), a device or a link there instead. Raises OSError otherwise."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "it is not a regular file", path)
    return os.fdopen(fd, "rb")


def read(path, limit):
    """(the tensors by name, the writer's meta) of a weights file of at most `limit` bytes."""
    with open_regular(path) as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise WeightsFileError(f"it is larger than the {limit >> 20} MiB the model's weights take")
    if not data.startswith(MAGIC):
        raise WeightsFileError("it is not a weights file a rank writes (it does not start as one; "
                               "a pickle, for example, is refused unread)")
    at = len(MAGIC) + 8
    length = int.from_bytes(data[len(MAGIC):at], "little")
    if length > HEADER_LIMIT or at + length > len(data):
        raise WeightsFileError("its header is cut short or too long")
    try:
        header = json.loads(data[at:at + length].decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise WeightsFileError(f"its header is not JSON ({error})") from None
    if not isinstance(header, dict) or not isinstance(header.get("tensors"), list) or \
            not isinstance(header.get("meta", {}), dict):
        raise WeightsFileError("its header lists no tensors")
    at += length
    tensors = {}
    for item in header["tensors"]:
        name, dtype, shape, end = _entry(item, at, len(data))
        if name in tensors:
            raise WeightsFileError(f"it holds tensor {name!r} twice")
        raw = bytearray(data[at:end])
        kind, carrier = DTYPES[dtype]
        flat = torch.frombuffer(raw, dtype=carrier) if raw else torch.empty(0, dtype=carrier)
        tensors[name] = flat.view(kind).reshape(shape)
        at = end
    if at != len(data):
        raise WeightsFileError("bytes follow its last tensor")
    return tensors, header.get("meta", {})
