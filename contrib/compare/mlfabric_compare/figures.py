# SPDX-License-Identifier: GPL-2.0-only
"""The figures of a comparison, drawn for print: one color per scheme in every figure,
values written on the bars, each figure as PNG and SVG."""

import csv
import json
import os
import re
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
    # Beyond Okabe-Ito's eight: two of Paul Tol's muted colors.
    "dcqcn-window": ("#999933", (0, (2, 1))),
    "nscc": ("#882255", (0, (5, 1, 1, 1, 1, 1))),
    "hpcc-pint": ("#44AA99", (0, (1, 1, 4, 1))),
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


# Panels in the order of the parallelism dimensions, innermost first.
KIND_ORDER = ("tp", "ep", "pp", "dp", "world", "group")
KIND_TITLE = {
    "tp": "TP: tensor-parallel collectives",
    "ep": "EP: expert-parallel collectives",
    "pp": "PP: pipeline sends (issue to arrival)",
    "dp": "DP: data-parallel collectives",
    "world": "world: collectives over all ranks",
    "group": "other groups' collectives",
}
# A marker per scheme, every few points, so that curves that coincide stay apart.
SCHEME_MARKER = {"none": "o", "dcqcn": "s", "dcqcn-hpccns3": "P", "hpcc": "D",
                 "timely": "^", "dctcp": "v", "swift": "X", "dcqcn-window": "*",
                 "nscc": "h", "hpcc-pint": "d"}


def _durations_by_kind(summary):
    """kind -> durations (us): collectives by their parallelism kind, sends as pp."""
    out = defaultdict(list)
    for c in summary.get("collectives", []):
        if "start_ns" in c and "end_ns" in c:
            out[c.get("kind") or "group"].append((c["end_ns"] - c["start_ns"]) / 1e3)
    for m in summary.get("sends", []):
        if m.get("arrival_ns") is not None and "issue_ns" in m:
            out["pp"].append((m["arrival_ns"] - m["issue_ns"]) / 1e3)
    return out


def collective_cdfs(plt, done, by_id, results_dir):
    """One CDF panel per parallelism kind (tp, ep, pp, dp, world), every scheme a curve
    of its own color, line style and marker."""
    per_kind = defaultdict(dict)
    for s in done:
        try:
            with open(s.summary_path, encoding="utf-8") as f:
                summary = json.load(f)
        except (OSError, ValueError):
            continue
        for kind, durations in _durations_by_kind(summary).items():
            per_kind[kind][s.run.run_id] = durations
    if not per_kind:
        return None
    kinds = sorted(per_kind, key=lambda k: (KIND_ORDER.index(k) if k in KIND_ORDER
                                            else len(KIND_ORDER), k))
    fig, axes = plt.subplots(1, len(kinds), figsize=(3.5 * len(kinds) + 0.4, 3.7),
                             squeeze=False)
    order = {s.run.run_id: i for i, s in enumerate(done)}
    scheme_of = {s.run.run_id: s.run.scheme for s in done}
    for ax, kind in zip(axes[0], kinds):
        runs = sorted(per_kind[kind].items(), key=lambda kv: order[kv[0]])
        low = min(min(d) for _, d in runs)
        high = max(max(d) for _, d in runs)
        for i, (run_id, durations) in enumerate(runs):
            durations = sorted(durations)
            scheme = scheme_of[run_id]
            # From 0 at the shortest, so that even one message is a step.
            xs = [low] + durations
            ys = [0.0] + [(k + 1) / len(durations) for k in range(len(durations))]
            # Markers at staggered points, so that each scheme shows where curves meet.
            every = max(1, len(xs) // 8)
            ax.step(xs, ys, where="post", color=scheme_color(scheme),
                    linestyle=scheme_line(scheme), linewidth=2.6 - 1.6 * i / max(1, len(runs)),
                    marker=SCHEME_MARKER.get(scheme, "o"), markersize=4.5, markevery=(
                        (i * every // max(1, len(runs))) % every, every),
                    markerfacecolor="none", markeredgewidth=1.0,
                    label=by_id[run_id]["label"], zorder=2 + i)
        if high > 20 * low:
            from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
            ax.set_xscale("log")
            # Plain numbers, a reader needs values, not powers: at 1, 2 and 5 per decade
            # over up to two decades, at each decade over more (the labels must not meet).
            subs = (1.0, 2.0, 5.0) if high <= 100 * low else (1.0,)
            ax.xaxis.set_major_locator(LogLocator(base=10, subs=subs))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
            ax.xaxis.set_minor_formatter(NullFormatter())
        else:
            ax.set_xlim(low - 0.05 * (high - low) - 1e-9, high + 0.05 * (high - low) + 1e-9)
        ax.set_xlabel("time (us)")
        count = len(runs[0][1])
        what = "sends" if kind == "pp" else "collectives"
        ax.set_title(f"{KIND_TITLE.get(kind, kind)}\n({count} {what} per run)", fontsize=8.5)
        ax.set_ylim(0, 1.02)
        ax.grid(True, which="both", linewidth=0.3, alpha=0.5)
    axes[0][0].set_ylabel("fraction (CDF)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(7, len(labels)), fontsize=7.5,
               frameon=False)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
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


# Link groups in the order traffic crosses them: up from the NPUs, across, back down.
ROLE_GROUP_ORDER = ("npu>scale-up", "scale-up>npu", "nic>leaf", "leaf>spine", "leaf>agg",
                    "agg>core", "core>agg", "agg>leaf", "spine>leaf", "leaf>nic")


def read_links(path):
    """A run's links.json (chakra-replay --link-utilization): window and links."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return data["window_ns"], data["links"]
    except (OSError, ValueError, KeyError):
        return None, []


def _natural(name):
    """Sort key that puts nic2 before nic10."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def _group_key(roles):
    return (ROLE_GROUP_ORDER.index(roles) if roles in ROLE_GROUP_ORDER
            else len(ROLE_GROUP_ORDER), roles)


def link_heatmap(plt, done, by_id, results_dir, max_columns=300):
    """Links x time, a panel per run: each link direction's utilization per window,
    links grouped by role (NIC to leaf, leaf to spine, ...), idle links left out."""
    runs = [(s, *read_links(os.path.join(s.out_dir, "links.json"))) for s in done]
    runs = [(s, w, links) for s, w, links in runs if w and links]
    if not runs:
        return None
    import numpy as np
    # The same rows in every panel: links that carried traffic in any run.
    busy = {}
    for _, _, links in runs:
        for link in links:
            if link["mean"] > 1e-4:
                busy[link["name"]] = link["roles"]
    if not busy:
        return None
    names = sorted(busy, key=lambda n: (_group_key(busy[n]), _natural(n)))
    row = {n: i for i, n in enumerate(names)}
    cols = 2 if len(runs) > 3 else 1
    nrows = (len(runs) + cols - 1) // cols
    height = min(3.2, 0.6 + 0.028 * len(names))
    fig, axes = plt.subplots(nrows, cols, figsize=(5.6 * cols + 1.0, height * nrows + 0.6),
                             squeeze=False, sharey=True)
    image = None
    for k, (s, window, links) in enumerate(runs):
        ax = axes[k // cols][k % cols]
        windows = max(len(link["windows"]) for link in links)
        # Windows averaged into at most max_columns columns: the mean stays the mean.
        per = max(1, -(-windows // max_columns))
        grid = np.zeros((len(names), -(-windows // per)))
        for link in links:
            if link["name"] in row:
                w = np.array(link["windows"] + [0.0] * (windows - len(link["windows"])))
                w = np.pad(w, (0, grid.shape[1] * per - windows))
                grid[row[link["name"]]] = 100 * w.reshape(-1, per).mean(axis=1)
        image = ax.imshow(grid, aspect="auto", interpolation="nearest", cmap="viridis",
                          vmin=0, vmax=100, origin="upper",
                          extent=(0, grid.shape[1] * per * window / 1e6, len(names), 0))
        # Each run on its own time axis: a slow scheme would squeeze the others.
        ax.set_xlim(0, windows * window / 1e6)
        ax.set_title(f"{by_id[s.run.run_id]['label']}  ({per * window / 1e3:.0f} us columns)",
                     fontsize=8.5, color=scheme_color(s.run.scheme), fontweight="bold")
        # A line between role groups, the group's name at its middle.
        groups = []
        for i, n in enumerate(names):
            if not groups or groups[-1][0] != busy[n]:
                groups.append([busy[n], i, i + 1])
            groups[-1][2] = i + 1
        for _, first, _ in groups[1:]:
            ax.axhline(first, color="white", linewidth=0.8)
        ax.set_yticks([(a + b) / 2 for _, a, b in groups])
        ax.set_yticklabels([f"{g.replace('>', ' > ')} ({b - a})" for g, a, b in groups],
                           fontsize=7)
        ax.tick_params(axis="y", length=0)
        if k // cols == nrows - 1 or k + cols >= len(runs):
            ax.set_xlabel("simulated time (ms)", fontsize=8)
    for k in range(len(runs), nrows * cols):
        axes[k // cols][k % cols].axis("off")
    fig.suptitle("Link utilization over time (each row one direction of a link that carried "
                 "traffic)", fontsize=9.5)
    fig.tight_layout(rect=(0, 0, 0.88, 0.96))
    bar = fig.add_axes((0.895, 0.14, 0.014, 0.72))
    fig.colorbar(image, cax=bar).set_label("utilization (%)", fontsize=8)
    name = _save(fig, results_dir, "link-utilization")
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
    made.append(link_heatmap(plt, done, by_id, results_dir))
    return [m for m in made if m]
