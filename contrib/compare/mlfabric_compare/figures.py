# SPDX-License-Identifier: GPL-2.0-only
"""The figures of a comparison, drawn for print: one color per scheme in every figure,
values written on the bars, each figure as PNG and SVG."""

import csv
import json
import os
from collections import defaultdict

# Okabe-Ito colors (distinguishable with color-blindness), one per scheme, and a line
# style per scheme so that curves that coincide stay visible.
SCHEME_STYLE = {
    "none": ("#000000", (0, (1, 1.5))),
    "dcqcn": ("#E69F00", "-"),
    "dcqcn-hpccns3": ("#56B4E9", (0, (6, 2))),
    "hpcc": ("#0072B2", "-"),
    "timely": ("#009E73", (0, (4, 1.5, 1, 1.5))),
    "dctcp": ("#D55E00", (0, (3, 1.5))),
    "swift": ("#CC79A7", (0, (8, 2, 2, 2))),
}
COMPUTE_COLOR = "#BBBBBB"
FORMATS = ("png", "svg")


def scheme_color(scheme):
    return SCHEME_STYLE.get(scheme, ("#777777", "-"))[0]


def scheme_line(scheme):
    return SCHEME_STYLE.get(scheme, ("#777777", "-"))[1]


def _save(fig, results_dir, stem):
    """Write PNG and SVG; return the PNG's name."""
    for ext in FORMATS:
        fig.savefig(os.path.join(results_dir, f"{stem}.{ext}"), dpi=150)
    return f"{stem}.png"


def _labels(done, by_id):
    """A bar label per run: the scheme, with workload and fabric only if they vary."""
    workloads = {s.run.workload["name"] for s in done}
    fabrics = {s.run.fabric["name"] for s in done}
    labels = []
    for s in done:
        parts = [by_id[s.run.run_id]["label"]]
        if len(workloads) > 1:
            parts.append(s.run.workload["name"])
        if len(fabrics) > 1:
            parts.append(s.run.fabric["name"])
        labels.append("\n".join(parts))
    return labels


def iteration_time(plt, done, by_id, results_dir):
    """Stacked bars: compute, exposed communication and the rest of the iteration."""
    fig, ax = plt.subplots(figsize=(7, 3.8))
    xs = range(len(done))
    for x, s in zip(xs, done):
        row = by_id[s.run.run_id]
        total = row["iteration_ms"]
        compute = min(row.get("compute_ms") or 0.0, total)
        exposed = min(row.get("exposed_comm_ms") or 0.0, total - compute)
        rest = max(0.0, total - compute - exposed)
        color = scheme_color(s.run.scheme)
        ax.bar(x, compute, color=COMPUTE_COLOR, edgecolor="black", linewidth=0.6,
               label="compute (mean of ranks)" if x == 0 else None)
        ax.bar(x, exposed, bottom=compute, color=color, edgecolor="black", linewidth=0.6,
               label="exposed communication (mean of ranks)" if x == 0 else None)
        ax.bar(x, rest, bottom=compute + exposed, color="white", edgecolor="black",
               linewidth=0.6, hatch="//",
               label="rest up to the slowest rank (waiting, host)" if x == 0 else None)
        ax.text(x, total, f"{total:.3f}", ha="center", va="bottom", fontsize=8)
        for base, height in ((0.0, compute), (compute, exposed)):
            if height > 0.08 * total:
                ax.text(x, base + height / 2, f"{height:.3f}", ha="center", va="center",
                        fontsize=7, color="black",
                        bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5,
                              "alpha": 0.7})
    ax.set_xticks(list(xs))
    ax.set_xticklabels(_labels(done, by_id), fontsize=8)
    ax.set_ylabel("iteration time (ms)")
    top = max(by_id[s.run.run_id]["iteration_ms"] for s in done)
    ax.set_ylim(0, top * 1.3)
    ax.legend(fontsize=7, loc="upper left", frameon=False, ncol=1)
    ax.set_title("Iteration time: compute, exposed communication, rest", fontsize=10)
    fig.tight_layout()
    name = _save(fig, results_dir, "iteration-time")
    plt.close(fig)
    return name


def _group_kinds(state):
    """group id -> a label by its members: 'all ranks', or 'N ranks, stride S'."""
    # The experiment's file, or the one beside the trace (as the replay reads it).
    path = state.run.workload.get("comm_groups") or state.run.workload["trace"] + \
        ".comm-groups.json"
    kinds = {"": "all ranks", "all": "all ranks", "0": "all ranks"}
    try:
        with open(path, encoding="utf-8") as f:
            groups = json.load(f)
    except (OSError, ValueError):
        return kinds
    for gid, members in groups.items():
        members = sorted(members)
        strides = {b - a for a, b in zip(members, members[1:])}
        stride = f", stride {strides.pop()}" if len(strides) == 1 else ""
        kinds[str(gid)] = f"{len(members)} ranks{stride}"
    return kinds


def collective_cdfs(plt, done, by_id, results_dir):
    """One CDF panel per kind of group, every scheme a curve of its own style."""
    per_kind = defaultdict(dict)
    for s in done:
        try:
            with open(s.summary_path, encoding="utf-8") as f:
                summary = json.load(f)
        except (OSError, ValueError):
            continue
        kinds = _group_kinds(s)
        for c in summary.get("collectives", []):
            if "start_ns" in c and "end_ns" in c:
                kind = kinds.get(str(c.get("group", "")), f"group {c.get('group')}")
                per_kind[kind].setdefault(s.run.run_id, []).append(
                    (c["end_ns"] - c["start_ns"]) / 1e3)
    if not per_kind:
        return None
    kinds = sorted(per_kind)
    fig, axes = plt.subplots(1, len(kinds), figsize=(3.4 * len(kinds) + 0.6, 3.4),
                             squeeze=False)
    order = {s.run.run_id: i for i, s in enumerate(done)}
    for ax, kind in zip(axes[0], kinds):
        runs = sorted(per_kind[kind].items(), key=lambda kv: order[kv[0]])
        low = min(min(d) for _, d in runs)
        high = max(max(d) for _, d in runs)
        for i, (run_id, durations) in enumerate(runs):
            durations.sort()
            scheme = next(s.run.scheme for s in done if s.run.run_id == run_id)
            # From 0 at the shortest collective, so that even one collective is a step.
            xs = [low] + durations
            ys = [0.0] + [(k + 1) / len(durations) for k in range(len(durations))]
            # Wider lines first, so that a curve drawn over another leaves it visible.
            ax.step(xs, ys, where="post", color=scheme_color(scheme),
                    linestyle=scheme_line(scheme), linewidth=3.0 - 2.0 * i / max(1, len(runs)),
                    marker="o" if len(durations) <= 12 else None, markersize=3,
                    label=by_id[run_id]["label"], zorder=2 + i)
        if high > 20 * low:
            ax.set_xscale("log")
        else:
            ax.set_xlim(low - 0.05 * (high - low) - 1e-9, high + 0.05 * (high - low) + 1e-9)
        ax.set_xlabel("collective time (us)")
        title = kind if kind.startswith("group") else f"groups of {kind}"
        ax.set_title(f"{title} ({len(runs[0][1])} collectives per run)", fontsize=9)
        ax.set_ylim(0, 1.02)
        ax.grid(True, which="both", linewidth=0.3, alpha=0.5)
    axes[0][0].set_ylabel("fraction of collectives")
    axes[0][-1].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    name = _save(fig, results_dir, "collective-cdf")
    plt.close(fig)
    return name


def read_timeseries(path):
    """Per sample time: longest port queue over all switches, and bytes queued in all;
    per switch: its name and role (when the file has them) and its last pause count."""
    longest = defaultdict(int)
    total = defaultdict(int)
    switches = {}
    try:
        with open(path, encoding="utf-8") as f:
            for rec in csv.DictReader(f):
                t = int(rec["time_ns"])
                longest[t] = max(longest[t], int(rec["longest_queue_bytes"]))
                total[t] += int(rec["queued_bytes"])
                sw = int(rec["switch"])
                switches[sw] = (rec.get("name") or f"switch {sw}", rec.get("role") or "switch",
                                int(rec["pause_frames"]))
    except (OSError, KeyError, ValueError):
        return {}, {}, {}
    return dict(sorted(longest.items())), dict(sorted(total.items())), switches


def queues(plt, done, by_id, series, results_dir):
    """Two panels: the longest switch-port queue (the table's peak queue), and the sum
    of every switch's queues."""
    if not any(series[s.run.run_id][0] for s in done):
        return None
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 5.2), sharex=True)
    for i, s in enumerate(done):
        longest, total, _ = series[s.run.run_id]
        if not longest:
            continue
        row = by_id[s.run.run_id]
        color, line = scheme_color(s.run.scheme), scheme_line(s.run.scheme)
        # Wider lines first, so that coinciding curves stay visible.
        width = 2.8 - 2.0 * i / max(1, len(done))
        peak = row.get("peak_queue_kib")
        label = row["label"] + (f" (peak {peak:.0f} KiB)" if peak is not None else "")
        top.plot([t / 1e6 for t in longest], [b / 1024 for b in longest.values()],
                 color=color, linestyle=line, linewidth=width, label=label)
        if peak is not None:
            top.axhline(peak, color=color, linestyle=":", linewidth=0.7)
        bottom.plot([t / 1e6 for t in total], [b / 1024 for b in total.values()],
                    color=color, linestyle=line, linewidth=width, label=row["label"])
    top.set_ylabel("longest port queue (KiB)")
    top.set_title("Bottleneck: the longest egress queue of any switch port "
                  "(dotted: the table's peak)", fontsize=9)
    top.legend(fontsize=7, loc="upper right")
    bottom.set_ylabel("sum over switches (KiB)")
    bottom.set_title("All bytes queued in all switches", fontsize=9)
    bottom.set_xlabel("simulated time (ms)")
    fig.tight_layout()
    name = _save(fig, results_dir, "queue-over-time")
    plt.close(fig)
    return name


def pfc_pauses(plt, done, by_id, series, results_dir):
    """Pause frames sent per switch, switches grouped by role, a bar per scheme."""
    named = {}
    for s in done:
        for sw, (name, role, _) in series[s.run.run_id][2].items():
            named[sw] = (role, name)
    if not named:
        return None
    # Switches that never paused in any run are left out and counted in the title.
    paused = {sw for s in done for sw, (_, _, n) in series[s.run.run_id][2].items() if n}
    quiet = len(named) - len(paused)
    switches = sorted(paused or named, key=lambda sw: (named[sw][0], sw))
    fig, ax = plt.subplots(figsize=(min(12, max(5, 0.9 * len(switches) + 2.5)), 3.6))
    width = 0.8 / max(1, len(done))
    for i, s in enumerate(done):
        per = series[s.run.run_id][2]
        values = [per.get(sw, ("", "", 0))[2] for sw in switches]
        bars = ax.bar([x + i * width for x in range(len(switches))], values, width,
                      color=scheme_color(s.run.scheme), edgecolor="black", linewidth=0.4,
                      label=by_id[s.run.run_id]["label"])
        for bar, v in zip(bars, values):
            if v:
                ax.text(bar.get_x() + bar.get_width() / 2, v, f" {v}", ha="center",
                        va="bottom", fontsize=6, rotation=90)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(switches))])
    ax.set_xticklabels([named[sw][1] for sw in switches], fontsize=7, rotation=30, ha="right")
    ax.set_ylabel("PFC pause frames sent")
    ax.set_title("PFC pauses per switch, by role" +
                 (f"\n({quiet} switches without pauses not shown)" if paused and quiet else ""),
                 fontsize=10)
    top = max([series[s.run.run_id][2].get(sw, ("", "", 0))[2] for s in done for sw in switches]
              or [0])
    ax.set_ylim(0, max(1, top) * 1.35)
    ax.legend(fontsize=7, ncol=min(4, len(done)))
    fig.tight_layout()
    name = _save(fig, results_dir, "pfc-pauses")
    plt.close(fig)
    return name


def make_figures(states, rows, results_dir):
    """Every figure; returns the PNG names (empty without matplotlib or finished runs)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    by_id = {row["run_id"]: row for row in rows}
    done = [s for s in states if s.run.run_id in by_id]
    if not done:
        return []
    made = [iteration_time(plt, done, by_id, results_dir),
            collective_cdfs(plt, done, by_id, results_dir)]
    series = {s.run.run_id: read_timeseries(os.path.join(s.out_dir, "timeseries.csv"))
              for s in done}
    made.append(queues(plt, done, by_id, series, results_dir))
    made.append(pfc_pauses(plt, done, by_id, series, results_dir))
    return [m for m in made if m]
