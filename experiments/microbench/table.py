# SPDX-License-Identifier: GPL-2.0-only
"""The table of doc/replay.md's validation: each microbenchmark's last finish (us) on
both analytical networks and at packet level, and the ring's closed form at packet
level, chunks x (e + steps x (message / goodput + latency + NIC pipelines + e)
+ reductions x 3 floor(message / local-mem-bw)), with the RoCEv2 goodput
4096 / 4178 of 50 GiB/s and the NICs' 400 ns transmit and 400 ns receive pipelines."""

import json
import math
import sys

CHUNKS, MESSAGE_BYTES, LATENCY_NS, NIC_PIPELINES_NS = 4, 1 << 20, 500.0, 800.0
RATE = 50 * 2 ** 30 / 1e9  # bytes per ns
GOODPUT = RATE * 4096 / 4178


def shape(collective, n, chunk):
    """(steps, message bytes, reductions) of one chunk on the ring."""
    return {"all_reduce": (2 * (n - 1), chunk // n, n - 1),
            "reduce_scatter": (n - 1, chunk // n, n - 1),
            "all_gather": (n - 1, chunk, 0),
            "all_to_all": (n * (n - 1) // 2, chunk // n, 0)}[collective]


def closed_form_us(collective, n, system):
    steps, message, reductions = shape(collective, n, MESSAGE_BYTES // CHUNKS)
    e = system["endpoint-delay"]
    reduce_ns = 3 * math.floor(message / system["local-mem-bw"])
    step = message / GOODPUT + LATENCY_NS + NIC_PIPELINES_NS + e
    return CHUNKS * (e + steps * step + reductions * reduce_ns) / 1e3


def finish_us(path):
    with open(path, encoding="utf-8") as f:
        return max(r["finish_ns"] for r in json.load(f)["ranks"]) / 1e3


def main(folder, system_path):
    with open(system_path, encoding="utf-8") as f:
        system = json.load(f)
    print("| trace | analytical | analytical-aware | packet | packet closed form | packet error |")
    print("|---|---:|---:|---:|---:|---:|")
    for c in ("all_reduce", "all_gather", "reduce_scatter", "all_to_all"):
        for n in (4, 8, 16):
            got = {b: finish_us(f"{folder}/{c}-{n}-{b}.json")
                   for b in ("analytical", "analytical-aware", "packet")}
            closed = closed_form_us(c, n, system)
            print(f"| {c} {n} | {got['analytical']:.3f} | {got['analytical-aware']:.3f} | "
                  f"{got['packet']:.3f} | {closed:.3f} | "
                  f"{100 * (got['packet'] - closed) / closed:+.3f} % |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
