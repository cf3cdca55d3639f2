# SPDX-License-Identifier: GPL-2.0-only
"""Turning finished runs into a table, CSV, JSON, plots and a one-page report."""

import csv
import json
import os

from . import figures

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
    ("busiest_link_text", "busiest link (mean/peak %)", "{}"),
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
        "compute_ms": (sum(r.get("compute_ns", 0) for r in ranks) / len(ranks) / 1e6
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
    links = net.get("busiest_links") or []
    if links:
        top = links[0]
        row["busiest_links"] = [{k: link.get(k) for k in ("name", "roles", "mean", "peak")}
                                for link in links]
        row["link_window_us"] = net.get("link_window_ns", 0) / 1e3
        row["busiest_link"] = top["name"]
        row["busiest_link_mean_pct"] = 100 * top["mean"]
        row["busiest_link_peak_pct"] = 100 * top["peak"]
        row["busiest_link_text"] = (f"{top['name']} {100 * top['mean']:.0f}/"
                                    f"{100 * top['peak']:.0f}")
    path = s.get("critical_path") or {}
    if path.get("length_ns"):
        row["critical_path_ms"] = path["length_ns"] / 1e6
        row["critical_path_share"] = {k: v / path["length_ns"]
                                      for k, v in path.get("by_kind_ns", {}).items()}
    row.update({f"param_{k}": v for k, v in run.parameters.items()})
    return row


def critical_path_table(rows):
    """Markdown lines: per run, the critical path and its share per kind."""
    rows = [r for r in rows if r.get("critical_path_share")]
    if not rows:
        return []
    kinds = sorted({k for r in rows for k in r["critical_path_share"]},
                   key=lambda k: -max(r["critical_path_share"].get(k, 0) for r in rows))
    lines = ["## Where the time goes: the critical path", "",
             "The chain of compute and communication that sets the iteration's finish "
             "(doc/replay.md), and the share of it per kind.", "",
             "| run | critical path (ms) | " + " | ".join(kinds) + " |",
             "|---|---|" + "---|" * len(kinds)]
    for r in rows:
        shares = " | ".join(f"{100 * r['critical_path_share'].get(k, 0):.1f} %" for k in kinds)
        lines.append(f"| {r['label']} | {r['critical_path_ms']:.3f} | {shares} |")
    return lines + [""]


def _all_links(state):
    """link name -> (roles, mean, peak) of every link of a run: from its links.json, or
    the summary's busiest links when there is no such file."""
    _, links = figures.read_links(os.path.join(state.out_dir, "links.json"))
    return {link["name"]: (link["roles"], link["mean"], link["peak"]) for link in links}


def busiest_links_table(states, rows, count=8):
    """Markdown lines: the links busiest in any run, by role, with each run's mean and
    peak utilization."""
    rows = [r for r in rows if r.get("busiest_links")]
    if not rows:
        return []
    by_run = {s.run.run_id: _all_links(s) for s in states}
    for r in rows:
        for link in r["busiest_links"]:
            by_run.setdefault(r["run_id"], {}).setdefault(
                link["name"], (link["roles"], link["mean"], link["peak"]))
    best = {}  # name -> (roles, its highest mean in any run)
    for r in rows:
        for name, (roles, mean, _) in by_run.get(r["run_id"], {}).items():
            if mean > best.get(name, (roles, -1.0))[1]:
                best[name] = (roles, mean)
    top = sorted(best, key=lambda n: (-best[n][1], n))[:count]
    window = rows[0].get("link_window_us") or 0
    lines = ["## The busiest links", "",
             f"Utilization of each link direction, named by role (nic: an NPU's RoCE NIC, "
             f"npu: its scale-up port, then the switches): mean over the run / peak over "
             f"{window:.0f} us windows, in percent of the line rate, wire bytes with their "
             f"headers. The {len(top)} busiest links of any run; figure: link-utilization.png.",
             "",
             "| link | roles | " + " | ".join(r["label"] for r in rows) + " |",
             "|---|---|" + "---|" * len(rows)]
    for name in top:
        cells = []
        for r in rows:
            got = by_run.get(r["run_id"], {}).get(name)
            cells.append(f"{100 * got[1]:.1f} / {100 * got[2]:.1f}" if got else "-")
        lines.append(f"| {name} | {best[name][0]} | " + " | ".join(cells) + " |")
    return lines + [""]


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
    # CSV cells are flat: the critical path's shares become one column per kind.
    flat = []
    for row in rows:
        cells = {k: v for k, v in row.items() if not isinstance(v, (dict, list))}
        for kind, share in row.get("critical_path_share", {}).items():
            cells[f"critical_path_share_{kind.replace(' ', '_')}"] = share
        flat.append(cells)
    keys = sorted({k for row in flat for k in row})
    with open(os.path.join(results_dir, "results.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=keys)
        writer.writeheader()
        writer.writerows(flat)
    with open(os.path.join(results_dir, "results.json"), "w", encoding="utf-8") as f:
        json.dump({"runs": rows}, f, indent=2)
        f.write("\n")


def make_plots(states, rows, results_dir):
    """The figures (figures.py), as PNG and SVG files; returns the PNG names."""
    return figures.make_figures(states, rows, results_dir)


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


def write_report(experiment, rows, failed, plots, results_dir, command, states=()):
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
    lines += critical_path_table(rows)
    lines += busiest_links_table(states, rows)
    if failed:
        lines += ["Runs that did not finish:", ""]
        lines += [f"- {text}" for text in failed]
        lines.append("")
    titles = {
        "iteration-time.png": "Iteration time",
        "collective-cdf.png": "Collective completion times",
        "queue-over-time.png": "Switch queues over time: the bottleneck port and the sum",
        "pfc-pauses.png": "PFC pauses per switch, by role",
        "link-utilization.png": "Link utilization over time, links by role",
    }
    for plot in plots:
        lines += [f"## {titles.get(plot, plot)}", "", f"![{titles.get(plot, plot)}]({plot})", ""]
    lines += ["Each figure is also in SVG (same name, `.svg`). Files: `results.csv`, "
              "`results.json`, and per run `runs/<run>/summary.json`, `ranks.csv`, "
              "`timeseries.csv`, `links.json`, `timeline.json` (open in https://ui.perfetto.dev), `log.txt`.",
              ""]
    with open(os.path.join(results_dir, "report.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
