#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tables and figures of the load-balancing study (experiments/load-balancing/run.sh).

usage: tables.py RESULTS_DIR [--figures=DIR]

Reads RESULTS_DIR/traffic/*.json (./mlfabric run traffic --summary) and
RESULTS_DIR/replay/*.json (./mlfabric run chakra-replay --summary), prints Markdown
tables and, with --figures, writes load-balancing-traffic.{png,svg} and
load-balancing-training.{png,svg}.
"""
import glob
import json
import os
import sys

LBS = ["ecmp", "flowlet", "spray", "adaptive"]
CCS = ["none", "dcqcn", "hpcc", "timely", "dctcp", "swift"]
FABRICS = ["fat-tree-k4", "clos-2to1-16"]
PATTERNS = ["permutation", "all-to-all"]


def load(folder):
    runs = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        with open(path) as f:
            runs[os.path.basename(path)[:-5]] = json.load(f)
    return runs


def traffic_table(runs):
    print("| fabric | pattern | lb | transport | tail (us) | ideal / tail | "
          "max fabric link util | retransmitted (MiB) | delivered |")
    print("|---|---|---|---|---:|---:|---:|---:|---|")
    for fabric in FABRICS:
        for pattern in PATTERNS:
            for lb in LBS:
                for transport in ["gbn", "sr"]:
                    r = runs.get(f"{fabric}-{pattern}-{lb}-{transport}")
                    if r is None:
                        continue
                    done = r["bytes_delivered"] == r["bytes_expected"]
                    tail = r["completion_time_ns"] / 1e3
                    share = r["ideal_completion_ns"] / r["completion_time_ns"] if done else 0
                    print(f"| {fabric} | {pattern} | {lb} | {transport} | "
                          f"{tail:.1f}{'' if done else ' (not all)'} | {share:.3f} | "
                          f"{r['max_fabric_link_utilization']:.3f} | "
                          f"{r['retransmitted_bytes'] / 2**20:.1f} | "
                          f"{'all' if done else str(r['bytes_delivered']) + ' of ' + str(r['bytes_expected'])} |")


def replay_ms(r):
    run = r.get("run", r)
    if not run.get("completed", False):
        return None
    return run["simulated_ns"] / 1e6


def replay_table(runs):
    for workload, title in [("moe", "MoE layer (EP 16 all-to-all)"),
                            ("dp", "dense DP 16 (gradient all-reduce)")]:
        print(f"\n{title}: simulated step time (ms) on clos-2to1-16, selective repeat\n")
        print("| lb | " + " | ".join(CCS) + " |")
        print("|---|" + "---:|" * len(CCS))
        for lb in LBS:
            cells = []
            for cc in CCS:
                r = runs.get(f"{workload}-{lb}-{cc}")
                v = replay_ms(r) if r else None
                cells.append("—" if v is None else f"{v:.3f}")
            print(f"| {lb} | " + " | ".join(cells) + " |")


def draw_traffic(runs, folder):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    for ax, transport in zip(axes, ["sr", "gbn"]):
        groups = [(f, p) for f in FABRICS for p in PATTERNS]
        width = 0.2
        for i, lb in enumerate(LBS):
            values = []
            for fabric, pattern in groups:
                r = runs.get(f"{fabric}-{pattern}-{lb}-{transport}")
                ok = r and r["bytes_delivered"] == r["bytes_expected"]
                values.append(r["ideal_completion_ns"] / r["completion_time_ns"] if ok else 0)
            ax.bar([g + (i - 1.5) * width for g in range(len(groups))], values, width, label=lb)
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels([f"{f}\n{p}" for f, p in groups], fontsize=8)
        ax.set_title("selective repeat" if transport == "sr"
                     else "go-back-N (0: not done by the 200 ms stop)")
        ax.axhline(1.0, color="grey", linewidth=0.5)
        ax.set_ylim(0, 1.1)
    axes[0].set_ylabel("busiest host link at line rate / tail")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    for ext in ["png", "svg"]:
        fig.savefig(os.path.join(folder, f"load-balancing-traffic.{ext}"), dpi=120)


def draw_training(runs, folder):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    for ax, workload, title in zip(axes, ["moe", "dp"], ["MoE EP 16", "dense DP 16"]):
        width = 0.2
        for i, lb in enumerate(LBS):
            values = []
            for cc in CCS:
                r = runs.get(f"{workload}-{lb}-{cc}")
                v = replay_ms(r) if r else None
                values.append(v or 0)
            ax.bar([c + (i - 1.5) * width for c in range(len(CCS))], values, width, label=lb)
        ax.set_xticks(range(len(CCS)))
        ax.set_xticklabels(CCS, fontsize=8)
        ax.set_title(title + " on clos-2to1-16")
        ax.set_ylabel("step time (ms), log scale")
        ax.set_yscale("log")
        # Plain values at 1, 2 and 5 per decade: a reader needs numbers, not powers.
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.grid(axis="y", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    for ext in ["png", "svg"]:
        fig.savefig(os.path.join(folder, f"load-balancing-training.{ext}"), dpi=120)


def main(argv):
    folder = argv[1]
    figures = next((a.split("=", 1)[1] for a in argv[2:] if a.startswith("--figures=")), None)
    traffic = load(os.path.join(folder, "traffic"))
    replay = load(os.path.join(folder, "replay"))
    traffic_table(traffic)
    replay_table(replay)
    if figures:
        draw_traffic(traffic, figures)
        draw_training(replay, figures)
        print(f"\nfigures: {figures}/load-balancing-traffic.png, load-balancing-training.png")


if __name__ == "__main__":
    main(sys.argv)
