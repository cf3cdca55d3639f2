#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The tables and the figure of doc/studies/hoti22.md from the study's result folders.

usage: tables.py RESULTS_DIR... [--figure=FILE]

Reads results.json of each folder (written by ./mlfabric compare) and prints a summary
(one row per case: PFC alone and each scheme's change of the iteration time), then, per
fabric and workload, one row per scheme: iteration time and its change against PFC alone
(scheme none), exposed communication, collective p99, PFC pauses and paused time, the
peak switch queue, ECN marks and drops. With --figure, draws the iteration time of every
scheme relative to PFC alone, one group of bars per case.
"""

import json
import os
import sys

SCHEMES = ["none", "dcqcn", "hpcc", "timely", "dctcp", "swift"]


def load(dirs):
    runs = []
    for d in dirs:
        with open(os.path.join(d, "results.json")) as f:
            runs.extend(r for r in json.load(f)["runs"] if r.get("iteration_ms"))
    return runs


def cases(runs):
    """{(fabric, workload): {scheme: run}} in the order the runs came."""
    out = {}
    for r in runs:
        out.setdefault((r["fabric"], r["workload"]), {})[r["scheme"]] = r
    return out


def fmt(value, spec):
    return "–" if value is None else spec.format(value)


def print_summary(by_case):
    """One row per case: PFC alone, then each scheme's change of the iteration time."""
    others = [s for s in SCHEMES if s != "none"]
    print("| case | PFC only (ms) | PFC pauses | " + " | ".join(others) + " |")
    print("|---|---:|---:|" + "---:|" * len(others))
    for (fabric, workload), by_scheme in by_case.items():
        base = by_scheme.get("none")
        if base is None:
            continue
        cells = []
        for scheme in others:
            r = by_scheme.get(scheme)
            cells.append("–" if r is None else
                         "{:+.1f} %".format((r["iteration_ms"] / base["iteration_ms"] - 1) * 100))
        print(f"| {workload} on {fabric} | {base['iteration_ms']:.2f} | "
              f"{fmt(base['pfc_pause_frames'], '{}')} | " + " | ".join(cells) + " |")
    print()


def print_tables(by_case):
    for (fabric, workload), by_scheme in by_case.items():
        base = by_scheme.get("none")
        print(f"**{workload} on {fabric}**\n")
        print("| scheme | iteration (ms) | vs PFC only | exposed comm (ms) | coll p99 (ms) "
              "| PFC pauses | paused (µs) | peak queue (KiB) | ECN marks | drops |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for scheme in SCHEMES:
            r = by_scheme.get(scheme)
            if r is None:
                continue
            change = (r["iteration_ms"] / base["iteration_ms"] - 1) * 100 if base else None
            print("| " + " | ".join([
                "PFC only" if scheme == "none" else scheme,
                fmt(r["iteration_ms"], "{:.2f}"),
                fmt(change, "{:+.1f} %"),
                fmt(r["exposed_comm_ms"], "{:.2f}"),
                fmt(r["collective_p99_us"] / 1e3, "{:.2f}"),
                fmt(r["pfc_pause_frames"], "{}"),
                fmt(r["pfc_paused_us"], "{:.0f}"),
                fmt(r["peak_queue_kib"], "{:.0f}"),
                fmt(r["ecn_marks"], "{}"),
                fmt(r["drops"], "{}"),
            ]) + " |")
        print()


def draw(by_case, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    labels = [f"{w}\n{f}" for f, w in by_case]
    schemes = [s for s in SCHEMES if s != "none"]
    width = 0.8 / len(schemes)
    fig, ax = plt.subplots(figsize=(max(8, 1.3 * len(labels)), 4.5))
    for i, scheme in enumerate(schemes):
        xs, ys = [], []
        for k, by_scheme in enumerate(by_case.values()):
            base, r = by_scheme.get("none"), by_scheme.get(scheme)
            if base and r:
                xs.append(k + (i - len(schemes) / 2 + 0.5) * width)
                ys.append(r["iteration_ms"] / base["iteration_ms"])
        ax.bar(xs, ys, width, label=scheme)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_ylabel("iteration time / PFC only")
    ax.set_yscale("log")
    ticks = [1, 1.25, 1.5, 2, 3, 4, 6, 8]
    ax.set_yticks(ticks)
    ax.set_yticklabels([f"{t:g}" for t in ticks])
    ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.legend(ncol=len(schemes), fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv):
    figure = None
    dirs = []
    for a in argv:
        if a.startswith("--figure="):
            figure = a.split("=", 1)[1]
        else:
            dirs.append(a)
    if not dirs:
        sys.exit(__doc__)
    by_case = cases(load(dirs))
    print_summary(by_case)
    print_tables(by_case)
    if figure:
        draw(by_case, figure)


if __name__ == "__main__":
    main(sys.argv[1:])
