# SPDX-License-Identifier: MIT
"""Reads the files io_write_samples wrote with Python's json module and checks their shape."""
import json
import sys
from pathlib import Path

folder = Path(sys.argv[1])
trace = json.loads((folder / "ddp.json").read_text(encoding="utf-8"))
chrome = json.loads((folder / "ddp-chrome.json").read_text(encoding="utf-8"))

assert trace["format"] == "rankstep-trace" and trace["version"] == 1
assert trace["result"]["timesteps"] == 5.1, trace["result"]["timesteps"]
assert trace["result"]["max_memory"] == 1835008
events = [e for rank in trace["ranks"] for e in rank["events"]]
assert sorted(e["seq"] for e in events) == list(range(len(events)))

assert list(chrome)[0] == "traceEvents", "Perfetto looks for {\"traceEvents\": first"
assert chrome["displayTimeUnit"] == "ms"
by_phase = {}
for event in chrome["traceEvents"]:
    by_phase.setdefault(event["ph"], []).append(event)
assert len(by_phase["X"]) == len(events), (len(by_phase["X"]), len(events))
threads = {e["tid"]: e["args"]["name"] for e in by_phase["M"] if e["name"] == "thread_name"}
assert sorted(threads.values()) == [f"rank {r}" for r in range(4)], threads
assert all(isinstance(e["ts"], int) for e in chrome["traceEvents"])
counters = {e["name"] for e in by_phase["C"]}
assert counters == {f"memory rank {r}" for r in range(4)}, counters
print(f"ok: {len(events)} events, {len(chrome['traceEvents'])} Chrome trace entries")
