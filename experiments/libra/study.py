# SPDX-License-Identifier: GPL-2.0-only
"""doc/studies/libra.md's tables and figure: every shipped LIBRA scenario solved with
`mlfabric libra`. Run: ./mlfabric study libra OUTDIR"""

import json
import os
import subprocess
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
L = os.path.join(ROOT, "contrib", "libra", "inputs", "libra")
COMM = {"GPT_3": ("GPT_3_4d", "GPT_3_3d"), "MSFT_1T": ("MSFT_1T_4d", "MSFT_1T_3d"),
        "Turing_NLG": ("Turing_NLG_4D", "Turing_NLG_3D"),
        "ResNet_50": ("ResNet_50_4d", "ResNet_50_3d")}


def solve(out, workload, net, comm, constraint, objective):
    summary = os.path.join(out, f"{workload}-{net}-{constraint}-{objective}.json")
    cmd = [sys.executable, "-m", "mlfabric_libra", f"--network={L}/network/{net}_network.yml",
           f"--workload={L}/workload/{workload}.txt", f"--communicator={L}/communicator/{comm}.yml",
           f"--cost-model={L}/cost_model/{net}_cost_model.yml", f"--objective={objective}",
           f"--constraint={L}/constraints/{constraint}.py", f"--summary={summary}"]
    subprocess.run(cmd, check=True, capture_output=True,
                   env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "contrib", "libra")))
    with open(summary) as f:
        return json.load(f)


def main(out):
    os.makedirs(out, exist_ok=True)
    rows = []
    for net in ("4d", "3d"):
        for w, (c4, c3) in COMM.items():
            for cons in (("total_bw_500gbps", "multiple_constraints") if net == "4d"
                         else ("total_bw_500gbps",)):
                for obj in ("perf", "perf-per-cost"):
                    s = solve(out, w, net, c4 if net == "4d" else c3, cons, obj)
                    rows.append((net, w, cons, obj, s))
    print("| network | workload | constraints | objective | GB/s per dimension | time (ms) | "
          "equal split (ms) | speedup | cost (M$) | perf-per-cost gain |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for net, w, cons, obj, s in rows:
        bw = " / ".join(f"{x:.1f}" for x in s["bandwidth_GBps"])
        print(f"| {net} | {w} | {cons} | {obj} | {bw} | {s['predicted_time_ns'] / 1e6:.2f} | "
              f"{s['equal_split_time_ns'] / 1e6:.2f} | {s['speedup_over_equal_split']:.3f}x | "
              f"{s['network_cost'] / 1e6:.2f} | "
              f"{s['perf_per_cost_gain_over_equal_split']:.2f}x |")
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2))
    for ax, net in zip(axes, ("4d", "3d")):
        sel = [r for r in rows if r[0] == net and r[2] == "total_bw_500gbps"]
        labels = [r[1].replace("_", "-") + ("\nperf" if r[3] == "perf" else "\nperf/cost")
                  for r in sel]
        bottom = [0.0] * len(sel)
        dims = len(sel[0][4]["bandwidth_GBps"])
        names = [d["cost_dimension"] for d in sel[0][4]["dimensions"]]
        for d in range(dims):
            vals = [r[4]["bandwidth_GBps"][d] for r in sel]
            ax.bar(range(len(sel)), vals, bottom=bottom, label=f"dim {d} ({names[d]})")
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.set_xticks(range(len(sel)))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("GB/s per NPU")
        ax.set_title(f"{net.upper()} 4,096-NPU network, 500 GB/s per NPU")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "libra-allocations.png"), dpi=110)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results/libra-study")
