#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Stands in for chakra-replay in the compare tool's tests: writes the outputs a run
writes, with figures derived from its arguments, and counts its invocations."""

import json
import os
import sys
import time

args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
if args.get("stop") == "1ps":
    # The compare tool's input check before the runs.
    bad = os.environ.get("FAKE_REPLAY_BAD_INPUT")
    if bad and args.get("cc") == bad:
        print("error: --bogus: unknown argument (see --help)", file=sys.stderr)
        sys.exit(2)
    sys.exit(1)
counter = os.environ.get("FAKE_REPLAY_COUNTER")
if counter:
    with open(counter, "a", encoding="utf-8") as f:
        f.write(args["cc"] + "\n")
if args.get("cc") == "timely" and os.environ.get("FAKE_REPLAY_FAIL_TIMELY"):
    print("error: simulated failure", file=sys.stderr)
    sys.exit(1)
if args.get("cc") == "timely" and os.environ.get("FAKE_REPLAY_SLOW_TIMELY"):
    # Long enough for a test to cancel it from outside.
    print("progress: waiting", flush=True)
    time.sleep(120)
scale = {"none": 3.0, "dcqcn": 2.0, "hpcc": 1.0}.get(args["cc"], 1.5)
print("progress: 1000.000 us simulated, 1.00 M events/s, 8/8 ranks finished, 96/96 nodes",
      flush=True)
summary = {
    "ranks": [{"finish_ns": int(1e6 * scale) + r, "exposed_comm_ns": int(5e5 * scale)}
              for r in range(8)],
    "collectives": [{"start_ns": 0, "end_ns": int(1e5 * scale * (i + 1))} for i in range(4)],
    "network_stats": {"pfc_pause_frames": int(10 * scale), "pfc_paused_ns": 1000,
                "peak_queue_bytes": 2048 * scale, "mean_queue_bytes": 512,
                "ecn_marks": 7, "cnps": 3, "drops": 0,
                "busiest_links": [{"name": "leaf0>spine0", "roles": "leaf>spine",
                                   "mean": 0.2 * scale, "peak": 0.3 * scale},
                                  {"name": "nic1>leaf0", "roles": "nic>leaf",
                                   "mean": 0.1, "peak": 0.9}],
                "link_window_ns": 1000},
    "events": 1000000,
    "wall_seconds": 0.5,
}
with open(args["summary"], "w", encoding="utf-8") as f:
    json.dump(summary, f)
if "timeseries" in args:
    with open(args["timeseries"], "w", encoding="utf-8") as f:
        f.write("time_ns,switch,queued_bytes,longest_queue_bytes,pause_frames,name,role\n")
        for t in range(5):
            for sw in (8, 9):
                f.write(f"{t * 1000},{sw},{int(100 * scale * t)},{int(50 * scale * t)},{t},leaf{sw - 8},leaf\n")
if "link-utilization" in args:
    # Two busy directions and an idle one, five 1 us windows.
    links = [("leaf0>spine0", "leaf>spine", [0.2 * scale] * 5),
             ("nic1>leaf0", "nic>leaf", [0.1, 0.9, 0.0, 0.0, 0.0]),
             ("spine0>leaf0", "spine>leaf", [0.0] * 5)]
    with open(args["link-utilization"], "w", encoding="utf-8") as f:
        json.dump({"window_ns": 1000,
                   "links": [{"name": n, "roles": r, "mean": sum(w) / 5, "peak": max(w),
                              "windows": w} for n, r, w in links]}, f)
