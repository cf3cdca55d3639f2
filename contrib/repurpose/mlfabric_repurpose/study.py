# SPDX-License-Identifier: GPL-2.0-only
"""The RePurpose study of doc/studies/repurpose.md: accuracy against cross-worker bytes,
and latency per batch on two fabrics, over the pruning level.

    ./mlfabric study repurpose --out=doc/studies

writes repurpose.json (every figure) and the figures repurpose-accuracy.{png,svg} and
repurpose-latency.{png,svg}.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

from . import latency, mlp, restructure, workload
from .data import Digits

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
WORKERS = 4
SEED = 0
BATCH = 32
PRECISION = 4
DEVICE_GFLOPS = 10.0
PRUNE_LEVELS = (0.0, 0.25, 0.5, 0.75, 0.85, 0.9, 0.95, 0.98, 1.0)
#: name, fabric file, extra replay options
FABRICS = (
    ("switch", "fabrics/repurpose-switch-4.yaml", []),
    # A full packet takes 3.3 ms per 10 Mb/s hop: the default 1 ms retransmission
    # timeout would fire on every packet.
    ("sensor-ring", "fabrics/repurpose-sensor-ring-4.yaml",
     ["--ns3::RdmaNic::RetransmitTimeout=1s"]),
)


def replay(binary, ranks, partition_name, fabric, extra, folder):
    """Packet-level replay of the traces: per-rank finish times in microseconds."""
    prefix = os.path.join(folder, partition_name)
    summary = prefix + ".replay.json"
    trace = workload.Workload.__new__(workload.Workload)
    trace.ranks = ranks
    workload.Workload.write(trace, prefix, f"study partition={partition_name}")
    command = [binary, f"--workload={prefix}", f"--fabric={os.path.join(ROOT, fabric)}",
               "--progress=0", f"--summary={summary}"] + extra
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {run.stderr.strip()}")
    with open(summary, encoding="utf-8") as f:
        result = json.load(f)
    if not result["completed"]:
        raise RuntimeError(f"{' '.join(command)}: the replay did not complete")
    return [r["finish_ns"] / 1e3 for r in result["ranks"]]


def evaluate(partition, data, binary, folder):
    """Every figure of one partition: accuracy, bytes, latency per fabric."""
    trace = workload.Workload(partition, BATCH, PRECISION, workload.Device(DEVICE_GFLOPS))
    figures = partition.describe(data, BATCH, PRECISION)
    for name, fabric, extra in FABRICS:
        closed = latency.latency_us(trace.ranks, latency.Fabric(os.path.join(ROOT, fabric)))
        finish = replay(binary, trace.ranks, partition.name, fabric, extra, folder)
        figures[f"latency_us_{name}"] = max(finish)
        figures[f"closed_form_us_{name}"] = closed
    figures["compute_us_critical"] = max(
        sum(n.duration_micros for n in nodes if n.type == 4) for nodes in trace.ranks)
    return figures


def run(binary, weights):
    data = Digits(SEED)
    model = mlp.load_or_train(weights, mlp.DEFAULT_WIDTHS, SEED, data)
    result = {
        "workers": WORKERS, "seed": SEED, "batch": BATCH, "precision_bytes": PRECISION,
        "device_gflops": DEVICE_GFLOPS, "widths": list(mlp.DEFAULT_WIDTHS),
        "model_sha256": model.digest(),
        "original_accuracy": model.accuracy(data.x_test, data.y_test),
        "test_samples": int(len(data.y_test)),
        "fabrics": {name: fabric for name, fabric, _ in FABRICS},
        "baselines": {}, "repurpose": [], "contiguous-pruned": [],
    }
    with tempfile.TemporaryDirectory(prefix="repurpose-study-") as folder:
        for name in ("contiguous", "random"):
            partition = restructure.baseline(name, model, WORKERS, SEED)
            result["baselines"][name] = evaluate(partition, data, binary, folder)
        for prune in PRUNE_LEVELS:
            for name, reassign in (("repurpose", True), ("contiguous-pruned", False)):
                partition = restructure.restructure(
                    model, data.x_train, restructure.Limits(WORKERS, prune),
                    reassign=reassign, name=name)
                figures = evaluate(partition, data, binary, folder)
                figures["prune"] = prune
                result[name].append(figures)
                print(f"{name:18} prune {prune:4.2f}: accuracy {figures['accuracy']:.4f}, "
                      f"{figures['cross_worker_bytes']:7d} B, switch "
                      f"{figures['latency_us_switch']:9.1f} us, ring "
                      f"{figures['latency_us_sensor-ring'] / 1e3:8.2f} ms", flush=True)
    return result


STYLE = {
    "repurpose": dict(color="tab:blue", marker="o", label="RePurpose (assignment + l0)"),
    "contiguous-pruned": dict(color="tab:orange", marker="s",
                              label="contiguous split + the same l0 step"),
    "contiguous": dict(color="tab:green", marker="^", label="contiguous split, unpruned"),
    "random": dict(color="tab:red", marker="v", label="random split, unpruned"),
}


def plot(result, out, command):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    series = ("repurpose", "contiguous-pruned")
    accuracy = {name: {p["prune"]: p["accuracy"] for p in result[name]} for name in series}
    for name in series:
        other = accuracy[series[1] if name == series[0] else series[0]]
        points = result[name]
        ax.plot([p["cross_worker_bytes"] for p in points], [100 * p["accuracy"] for p in points],
                **STYLE[name])
        labelled = []
        for p in points:
            # A label goes on the side away from the other series' point of the same
            # pruning level, and is left off where it would sit on a neighbour's.
            x = math.log10(max(p["cross_worker_bytes"], 1.0))
            if any(abs(x - done) < 0.12 for done in labelled):
                continue
            labelled.append(x)
            above = p["accuracy"] > other.get(p["prune"], 0.0) or (
                p["accuracy"] == other.get(p["prune"]) and name == series[0])
            ax.annotate(f"{p['prune']:g}", (p["cross_worker_bytes"], 100 * p["accuracy"]),
                        textcoords="offset points", xytext=(4, 5 if above else -11),
                        fontsize=7, color=STYLE[name]["color"])
    for name in ("contiguous", "random"):
        b = result["baselines"][name]
        ax.plot([b["cross_worker_bytes"]], [100 * b["accuracy"]], linestyle="none",
                markersize=9, fillstyle="none", **STYLE[name])
    ax.axhline(100 * result["original_accuracy"], color="grey", linewidth=0.8, linestyle=":")
    lowest = min(100 * p["accuracy"] for name in series for p in result[name])
    ax.set_ylim(bottom=lowest - 2.5)
    # Full pruning sends nothing: a linear stretch below 1 kB keeps 0 on the axis.
    ax.set_xscale("symlog", linthresh=1000, linscale=0.5)
    ax.set_xlim(0, 3e5)
    ax.set_xticks([0, 1e3, 1e4, 1e5])
    ax.set_xticklabels(["0", "1 kB", "10 kB", "100 kB"])
    ax.set_xlabel(f"cross-worker bytes per batch of {result['batch']} "
                  f"(fp32 activations, {result['workers']} workers)")
    ax.set_ylabel(f"test accuracy (%, {result['test_samples']} held-out digits)")
    ax.set_title("Digits MLP 64-256-256-10 split across 4 workers (labels: pruning level)",
                 fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(True, which="both", alpha=0.3)
    fig.text(0.01, 0.005, command, fontsize=6, color="grey")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"repurpose-accuracy.{ext}"), dpi=130)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
    for ax, (fabric, scale, unit, title) in zip(axes, (
            ("switch", 1.0, "µs", "4 workers on one switch (10 Gb/s, 1 µs)"),
            ("sensor-ring", 1e-3, "ms", "sensor ring (10 Mb/s, 1 ms links)"))):
        for name in ("repurpose", "contiguous-pruned"):
            points = result[name]
            x = [p["prune"] for p in points]
            ax.plot(x, [scale * p[f"latency_us_{fabric}"] for p in points], **STYLE[name])
            ax.plot(x, [scale * p[f"closed_form_us_{fabric}"] for p in points],
                    color=STYLE[name]["color"], linestyle="--", linewidth=0.9)
        for name in ("contiguous", "random"):
            b = result["baselines"][name]
            ax.axhline(scale * b[f"latency_us_{fabric}"], color=STYLE[name]["color"],
                       linestyle="-" if name == "contiguous" else (0, (4, 4)), linewidth=1.2,
                       label=STYLE[name]["label"])
        ax.set_xlabel("pruning level (share of each worker's remote inputs dropped)")
        ax.set_ylabel(f"latency per batch ({unit})")
        ax.set_title(title, fontsize=10)
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
    axes[0].plot([], [], color="black", linestyle="--", linewidth=0.9,
                 label="closed form, uncongested")
    axes[0].legend(fontsize=7, loc="lower left")
    fig.text(0.01, 0.005, command, fontsize=6, color="grey")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"repurpose-latency.{ext}"), dpi=130)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m mlfabric_repurpose.study")
    p.add_argument("--replay", default=os.path.join(ROOT, "build", "examples", "chakra-replay"))
    p.add_argument("--out", default=os.path.join(ROOT, "doc", "studies"))
    p.add_argument("--weights", default=os.path.join(ROOT, "build", "repurpose-weights.npz"))
    p.add_argument("--plot-only", action="store_true",
                   help="redraw the figures from the --out folder's repurpose.json")
    args = p.parse_args(argv)
    command = "./mlfabric study repurpose --out=doc/studies"
    path = os.path.join(args.out, "repurpose.json")
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        print(f"error: --out: {args.out}: not a folder", file=sys.stderr)
        return 2
    if args.plot_only:
        if not os.path.isfile(path):
            print(f"error: --plot-only: {path}: no such file (run the study first)",
                  file=sys.stderr)
            return 2
        with open(path, encoding="utf-8") as f:
            result = json.load(f)
    else:
        if not os.access(args.replay, os.X_OK):
            print(f"error: --replay: {args.replay}: not built (./mlfabric build)", file=sys.stderr)
            return 2
        os.makedirs(args.out, exist_ok=True)
        result = run(args.replay, args.weights)
        result["command"] = command
        with open(path, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
    plot(result, args.out, command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
