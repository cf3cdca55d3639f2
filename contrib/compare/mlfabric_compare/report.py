# SPDX-License-Identifier: GPL-2.0-only
"""Turning finished runs into a table, CSV, JSON, plots and a one-page report."""

import csv
import json
import os
from collections import defaultdict

COLUMNS = [
    ("workload", "workload", "{}"),
    ("fabric", "fabric", "{}"),
    ("backend", "backend", "{}"),
    ("scheme", "scheme", "{}"),
    ("seed", "seed", "{}"),
    ("iteration_ms", "iteration (ms)", "{:.3f}"),
    ("exposed_comm_ms", "exposed comm (ms)", "{:.3f}"),
    ("collective_p50_us", "coll p50 (us)", "{:.1f}"),
    ("collective_p99_us", "coll p99 (us)", "{:.1f}"),
    ("pfc_pause_frames", "PFC pauses", "{}"),
    ("pfc_paused_us", "paused (us)", "{:.1f}"),
    ("peak_queue_kib", "peak queue (KiB)", "{:.0f}"),
    ("mean_queue_kib", "mean queue (KiB)", "{:.1f}"),
    ("ecn_marks", "ECN marks", "{}"),
    ("cnps", "CNPs", "{}"),
    ("drops", "drops", "{}"),
    ("events_per_s_m", "Mevents/s", "{:.2f}"),
]


def _percentile(values, q):
    """Nearest-rank percentile; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, int(-(-q * len(ordered) // 100)))
    return ordered[min(rank, len(ordered)) - 1]


def collective_durations_us(summary):
    """Durations of every collective of a run, in microseconds."""
    out = []
    for c in summary.get("collectives", []):
        if "start_ns" in c and "end_ns" in c:
            out.append((c["end_ns"] - c["start_ns"]) / 1e3)
    return out


def summarize(state):
    """One table row from a finished run's summary.json; None if it did not finish."""
    try:
        with open(state.summary_path, encoding="utf-8") as f:
            s = json.load(f)
    except (OSError, ValueError):
        return None
    run = state.run
    ranks = s.get("ranks", [])
    net = s.get("network_stats", {})
    durations = collective_durations_us(s)
    wall = s.get("wall_seconds", 0) or 0
    row = {
        "run_id": run.run_id,
        "workload": run.workload["name"],
        "fabric": run.fabric["name"],
        "backend": run.backend,
        "scheme": run.scheme,
        "label": run.label(),
        "seed": run.seed,
        "iteration_ms": max((r.get("finish_ns", 0) for r in ranks), default=0) / 1e6,
        "exposed_comm_ms": (sum(r.get("exposed_comm_ns", 0) for r in ranks) / len(ranks) / 1e6
                            if ranks else 0.0),
        "collective_p50_us": _percentile(durations, 50),
        "collective_p99_us": _percentile(durations, 99),
        "pfc_pause_frames": net.get("pfc_pause_frames"),
        "pfc_paused_us": (net["pfc_paused_ns"] / 1e3 if "pfc_paused_ns" in net else None),
        "peak_queue_kib": (net["peak_queue_bytes"] / 1024 if "peak_queue_bytes" in net else None),
        "mean_queue_kib": (net["mean_queue_bytes"] / 1024 if "mean_queue_bytes" in net else None),
        "ecn_marks": net.get("ecn_marks"),
        "cnps": net.get("cnps"),
        "drops": net.get("drops"),
        "events": s.get("events"),
        "wall_seconds": wall,
        "events_per_s_m": (s.get("events", 0) / wall / 1e6) if wall else None,
    }
    row.update({f"param_{k}": v for k, v in run.parameters.items()})
    return row


def format_table(rows):
    """A fixed-width text table of the rows."""
    headers = [h for _, h, _ in COLUMNS]
    cells = []
    for row in rows:
        line = []
        for key, _, fmt in COLUMNS:
            value = row.get(key)
            line.append("-" if value is None else fmt.format(value))
        cells.append(line)
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h)
              for i, h in enumerate(headers)]
    out = ["  ".join(h.rjust(w) for h, w in zip(headers, widths))]
    out += ["  ".join(c.rjust(w) for c, w in zip(line, widths)) for line in cells]
    return "\n".join(out)


def write_tables(rows, results_dir):
    """results.csv and results.json."""
    keys = sorted({k for row in rows for k in row})
    with open(os.path.join(results_dir, "results.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(results_dir, "results.json"), "w", encoding="utf-8") as f:
        json.dump({"runs": rows}, f, indent=2)
        f.write("\n")


def _read_timeseries(path):
    """time_ns -> total queued bytes, and switch -> last pause count."""
    queued = defaultdict(int)
    pauses = {}
    try:
        with open(path, encoding="utf-8") as f:
            for rec in csv.DictReader(f):
                queued[int(rec["time_ns"])] += int(rec["queued_bytes"])
                pauses[int(rec["switch"])] = int(rec["pause_frames"])
    except (OSError, KeyError, ValueError):
        return {}, {}
    return dict(sorted(queued.items())), pauses


def make_plots(states, rows, results_dir):
    """The four plots, as PNG files; returns their names (empty without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    by_id = {row["run_id"]: row for row in rows}
    done = [s for s in states if s.run.run_id in by_id]
    made = []

    fig, ax = plt.subplots(figsize=(8, 4))
    labels = [f"{by_id[s.run.run_id]['label']}\n{s.run.fabric['name']}" for s in done]
    values = [by_id[s.run.run_id]["iteration_ms"] for s in done]
    ax.bar(range(len(values)), values, color="#4878a8")
    ax.set_xticks(range(len(values)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylabel("iteration time (ms)")
    ax.set_title("Training iteration time per scheme")
    fig.tight_layout()
    fig.savefig(os.path.join(results_dir, "iteration-time.png"), dpi=110)
    plt.close(fig)
    made.append("iteration-time.png")

    fig, ax = plt.subplots(figsize=(8, 4))
    for s in done:
        try:
            with open(s.summary_path, encoding="utf-8") as f:
                durations = sorted(collective_durations_us(json.load(f)))
        except (OSError, ValueError):
            continue
        if durations:
            ys = [(i + 1) / len(durations) for i in range(len(durations))]
            ax.step(durations, ys, where="post", label=by_id[s.run.run_id]["label"])
    ax.set_xscale("log")
    ax.set_xlabel("collective time (us)")
    ax.set_ylabel("fraction of collectives")
    ax.set_title("Collective completion time (CDF)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(results_dir, "collective-cdf.png"), dpi=110)
    plt.close(fig)
    made.append("collective-cdf.png")

    series = {s.run.run_id: _read_timeseries(os.path.join(s.out_dir, "timeseries.csv"))
              for s in done}
    if any(q for q, _ in series.values()):
        fig, ax = plt.subplots(figsize=(8, 4))
        for s in done:
            queued, _ = series[s.run.run_id]
            if queued:
                ax.plot([t / 1e6 for t in queued], [b / 1024 for b in queued.values()],
                        label=by_id[s.run.run_id]["label"], linewidth=0.8)
        ax.set_xlabel("simulated time (ms)")
        ax.set_ylabel("bytes queued in switches (KiB)")
        ax.set_title("Switch queues over time")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(results_dir, "queue-over-time.png"), dpi=110)
        plt.close(fig)
        made.append("queue-over-time.png")

        fig, ax = plt.subplots(figsize=(8, 4))
        switches = sorted({sw for _, p in series.values() for sw in p})
        width = 0.8 / max(1, len(done))
        for i, s in enumerate(done):
            _, pauses = series[s.run.run_id]
            ax.bar([x + i * width for x in range(len(switches))],
                   [pauses.get(sw, 0) for sw in switches], width,
                   label=by_id[s.run.run_id]["label"])
        ax.set_xticks([x + 0.4 - width / 2 for x in range(len(switches))])
        ax.set_xticklabels([f"switch {sw}" for sw in switches], fontsize=8, rotation=30)
        ax.set_ylabel("PFC pause frames sent")
        ax.set_title("PFC pauses per switch")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(results_dir, "pfc-pauses.png"), dpi=110)
        plt.close(fig)
        made.append("pfc-pauses.png")
    return made


def failure_text(state):
    """Why a run has no result, with where to look: its exit status and log."""
    log = os.path.join(state.out_dir, "log.txt")
    if state.failure:
        return f"{state.run.run_id}: {state.failure}"
    if isinstance(state.status, int) and state.status != 0:
        how = (f"was killed by signal {-state.status}" if state.status < 0
               else f"exited with status {state.status}")
        return f"{state.run.run_id}: {how}; see {log}"
    return f"{state.run.run_id}: did not finish (no summary.json); see {log}"


def write_report(experiment, rows, failed, plots, results_dir, command):
    """report.md: what ran, the table, the plots."""
    lines = [f"# {experiment.name}", ""]
    if experiment.description:
        lines += [experiment.description, ""]
    lines += ["Produced by:", "", "```", command, "```", ""]
    headers = [h for _, h, _ in COLUMNS]
    lines.append("| " + " | ".join(headers) + " |")
    lines.append("|" + "---|" * len(headers))
    for row in rows:
        cells = []
        for key, _, fmt in COLUMNS:
            value = row.get(key)
            cells.append("-" if value is None else fmt.format(value))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    if failed:
        lines += ["Runs that did not finish:", ""]
        lines += [f"- {text}" for text in failed]
        lines.append("")
    titles = {
        "iteration-time.png": "Iteration time",
        "collective-cdf.png": "Collective completion times",
        "queue-over-time.png": "Switch queues over time",
        "pfc-pauses.png": "PFC pauses per switch",
    }
    for plot in plots:
        lines += [f"## {titles.get(plot, plot)}", "", f"![{titles.get(plot, plot)}]({plot})", ""]
    lines += ["Files: `results.csv`, `results.json`, and per run `runs/<run>/summary.json`, "
              "`ranks.csv`, `timeseries.csv`, `log.txt`.", ""]
    with open(os.path.join(results_dir, "report.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
