# SPDX-License-Identifier: MIT
"""The ranks' torch.profiler traces as one Chrome / Perfetto JSON trace (`real --profile OUT`).

Each rank wrote rank-R.profile.json with export_chrome_trace, and in rank-R.json the wall-clock
microsecond its profiler started (profile_start_us). The ranks ran the learner's code, so both
files are read as untrusted data: a file that is too large, not JSON or not a trace is left out
with a sentence, an event that is not one the format allows is dropped and counted. Nothing in
here imports torch; the check (verify.py) calls merge() in its sandbox.

What the merged trace keeps to, so that Perfetto and chrome://tracing load it as one run:
- rank R is process R + 1 (pid 0 is no process to Perfetto), named "rank R" by a process_name
  metadata event and ordered by process_sort_index, both with a pid and a tid;
- every thread has a thread_name metadata event; complete events ("X") that overlap without
  nesting on one thread move to a thread of their own ("thread 1, overlapping 2"), and an event
  that outlasts the one it starts in by at most a microsecond (the profiler's rounding) is cut to
  nest;
- timestamps are microseconds from the earliest rank's profiler start, on every rank alike: PyTorch
  1.13 without Kineto writes each rank's from its own start, Kineto from the epoch.
"""
import json
import math
import os

FILE_LIMIT = 64 << 20  # one rank's profile
REPORT_LIMIT = 64 << 20  # one rank's report (verify.REPORT_LIMIT)
EVENT_LIMIT = 1_000_000  # events of every rank together
EPOCH_US = 10**12  # a timestamp above this (11 days in µs) counts from the epoch
ROUNDING_US = 1.0  # how far a child may outlast its parent and still be cut to nest
KEPT_PHASES = ("X", "i", "I", "C")  # complete, instant and counter events
TIME_BOUND_US = 1e17  # a timestamp or duration beyond 3,000 years is no profiler's
LANE_LIMIT = 32  # threads one thread's overlapping events may take; beyond, they are left out


def _open_regular(path):
    # weightsfile.open_regular, without importing torch
    import errno
    import stat
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "it is not a regular file", path)
    return os.fdopen(fd, "rb")


def _refuse_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def _read_json(path, limit):
    """(value, None), or (None, why it was left out)."""
    try:
        with _open_regular(path) as file:
            data = file.read(limit + 1)
    except FileNotFoundError:
        return None, "it is missing"
    except OSError as error:
        return None, f"it could not be read ({error.strerror or error})"
    if len(data) > limit:
        return None, f"it is larger than the {limit >> 20} MiB a rank's profile may take"
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_refuse_constant), None
    except UnicodeDecodeError:
        return None, "it is not UTF-8 text"
    except (ValueError, RecursionError) as error:
        return None, f"it is not JSON ({str(error)[:200]})"
    except MemoryError:
        return None, "it takes more memory to read than the check may use"


def _number(value, bound=1e300):
    """A JSON number of at most `bound` either way (an integer too large for a float is not)."""
    try:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and \
            math.isfinite(value) and abs(value) <= bound
    except OverflowError:
        return False


def _start_us(folder, rank):
    """When rank `rank`'s profiler started (wall-clock µs), from its report; None if unknown."""
    report, _ = _read_json(os.path.join(folder, f"rank-{rank}.json"), REPORT_LIMIT)
    start = report.get("profile_start_us") if isinstance(report, dict) else None
    return start if _number(start) and start > 0 else None


def _clean(event):
    """The event as the merged trace keeps it, or None when it is not a well-formed one."""
    if not isinstance(event, dict) or event.get("ph") not in KEPT_PHASES:
        return None
    name, ts = event.get("name"), event.get("ts")
    if not isinstance(name, str) or not _number(ts, TIME_BOUND_US):
        return None
    kept = {"name": name[:1000], "ph": event["ph"], "ts": float(ts), "tid": event.get("tid")}
    if event["ph"] == "X":
        if not _number(event.get("dur"), TIME_BOUND_US) or event["dur"] < 0:
            return None
        kept["dur"] = float(event["dur"])
    if isinstance(event.get("cat"), str):
        kept["cat"] = event["cat"][:200]
    if event["ph"] in ("i", "I") and event.get("s") in ("g", "p", "t"):
        kept["s"] = event["s"]
    args = event.get("args") if isinstance(event.get("args"), dict) else {}
    kept["args"] = {str(k)[:200]: v[:1000] if isinstance(v, str) else v
                    for k, v in list(args.items())[:64]
                    if v is None or isinstance(v, (str, bool)) or _number(v)}
    if event["ph"] == "C" and not all(_number(v) for v in kept["args"].values()):
        return None
    return kept


def _thread_key(tid):
    """A thread's identity as the rank wrote it (an integer, a string, anything)."""
    return json.dumps(tid, sort_keys=True)[:200]


def _thread_names(listed):
    names = {}
    for event in listed:
        if isinstance(event, dict) and event.get("ph") == "M" and \
                event.get("name") == "thread_name" and isinstance(event.get("args"), dict) and \
                isinstance(event["args"].get("name"), str):
            names[_thread_key(event.get("tid"))] = event["args"]["name"][:200]
    return names


def _lanes(complete):
    """(complete events of one thread in lanes where each nests: [[event, ...], ...], how many
    were left out beyond LANE_LIMIT lanes); cuts an event that outlasts its parent by rounding
    only."""
    complete.sort(key=lambda e: (e["ts"], -e["dur"]))
    lanes, stacks, left_out = [], [], 0
    for event in complete:
        placed = False
        for lane, stack in zip(lanes, stacks):
            while stack and stack[-1]["ts"] + stack[-1]["dur"] <= event["ts"]:
                stack.pop()
            parent_end = stack[-1]["ts"] + stack[-1]["dur"] if stack else None
            end = event["ts"] + event["dur"]
            if parent_end is not None and end > parent_end:
                if end - parent_end > ROUNDING_US:
                    continue
                event["dur"] = parent_end - event["ts"]
            stack.append(event)
            lane.append(event)
            placed = True
            break
        if placed:
            continue
        if len(lanes) == LANE_LIMIT:
            left_out += 1
            continue
        lanes.append([event])
        stacks.append([event])
    return lanes, left_out


def _add_rank(merged, rank, listed, shift):
    """Rank `rank`'s events (timestamps moved by `shift` µs) as process rank + 1 of `merged`."""
    pid = rank + 1
    merged["metadata"] += [
        {"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": f"rank {rank}"}},
        {"name": "process_sort_index", "ph": "M", "pid": pid, "tid": 0,
         "args": {"sort_index": rank}}]
    names = _thread_names(listed)
    by_thread, original, others, dropped = {}, {}, [], 0
    for event in listed:
        if isinstance(event, dict) and event.get("ph") == "M":
            continue
        kept = _clean(event)
        if kept is None or merged["count"] >= EVENT_LIMIT:
            dropped += 1
            continue
        merged["count"] += 1
        kept["ts"] += shift
        tid = kept.pop("tid")
        key = _thread_key(tid)
        original.setdefault(key, tid)
        by_thread.setdefault(key, [])
        if kept["ph"] == "X":
            by_thread[key].append(kept)
        else:
            others.append((key, kept))
    next_tid, first_tid = 1, {}
    for index, (key, complete) in enumerate(by_thread.items()):
        tid = original[key]
        name = names.get(key) or (f"thread {tid}" if _number(tid, 2**63) and isinstance(tid, int)
                                  else f"thread {index + 1}")
        first_tid[key] = next_tid
        lanes, left_out = _lanes(complete)
        dropped += left_out
        for lane_index, lane in enumerate(lanes or [[]]):
            merged["metadata"] += [
                {"name": "thread_name", "ph": "M", "pid": pid, "tid": next_tid,
                 "args": {"name": name if lane_index == 0 else
                          f"{name}, overlapping {lane_index + 1}"}},
                {"name": "thread_sort_index", "ph": "M", "pid": pid, "tid": next_tid,
                 "args": {"sort_index": next_tid}}]
            for event in lane:
                event.update(pid=pid, tid=next_tid)
                merged["events"].append(event)
            next_tid += 1
    for key, event in others:
        event.update(pid=pid, tid=first_tid[key])
        merged["events"].append(event)
    if dropped:
        merged["notes"].append(
            f"Rank {rank}'s profile: {dropped} of its events were left out (not complete, "
            f"instant or counter events of the trace format, beyond {EVENT_LIMIT} in all, or "
            f"overlapping more than {LANE_LIMIT} others on one thread).")


def _events_of(trace):
    """(the listed events, µs to add to their timestamps) of a rank's trace, or (None, 0)."""
    if isinstance(trace, list):  # PyTorch 1.13 without Kineto: a bare list
        return trace, 0.0
    if isinstance(trace, dict) and isinstance(trace.get("traceEvents"), list):
        base = trace.get("baseTimeNanoseconds")  # newer Kineto: timestamps from this
        return trace["traceEvents"], base / 1000.0 if _number(base) and base > 0 else 0.0
    return None, 0.0


def merge(folder, ranks, out_path):
    """Writes the merged trace of the ranks' profiles in `folder` to `out_path` (a new file);
    returns the sentences saying what was left out."""
    notes, profiles, starts = [], {}, {}
    for rank in range(ranks):
        name = f"rank-{rank}.profile.json"
        trace, why = _read_json(os.path.join(folder, name), FILE_LIMIT)
        listed, base = _events_of(trace) if why is None else (None, 0.0)
        if listed is None:
            notes.append(f"Rank {rank}'s profile ({name}) was left out: "
                         f"{why or 'it is not a trace of torch.profiler'}.")
            continue
        stamps = [e["ts"] + base for e in listed
                  if isinstance(e, dict) and _number(e.get("ts"), TIME_BOUND_US)]
        profiles[rank] = (listed, base, min(stamps) if stamps else 0.0)
        starts[rank] = _start_us(folder, rank)
    known = [start for start in starts.values() if start is not None]
    origin = min(known) if known else 0.0
    merged = {"events": [], "metadata": [], "notes": notes, "count": 0}
    for rank, (listed, base, first) in profiles.items():
        if first > EPOCH_US:  # from the epoch (Kineto): the wall clock the starts are on
            shift = base - origin if known else base - first
        elif starts[rank] is not None:  # from the rank's own start
            shift = base + starts[rank] - origin
        else:
            shift = base
            notes.append(f"Rank {rank}'s profile is drawn from the earliest start: its report "
                         "does not say when its profiler started.")
        _add_rank(merged, rank, listed, shift)
    earliest = min((e["ts"] for e in merged["events"]), default=0.0)
    for event in merged["events"]:
        event["ts"] -= min(earliest, 0.0)
    with open(out_path, "x", encoding="utf-8") as file:
        json.dump({"traceEvents": merged["metadata"] + merged["events"],
                   "displayTimeUnit": "ms"}, file, allow_nan=False)
    return notes


def main(argv=None):
    """`python3 -m rankstep_real.profilemerge FOLDER RANKS OUT`, without a sandbox (to try the
    merge by hand, and for its tests)."""
    import sys
    folder, ranks, out = argv if argv is not None else sys.argv[1:]
    for note in merge(folder, int(ranks), out):
        print(note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
