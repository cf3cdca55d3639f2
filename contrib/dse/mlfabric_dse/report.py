# SPDX-License-Identifier: GPL-2.0-only
"""The sweep's report: ranking, breakdowns, spread, memory-expansion gain, heatmaps."""

import csv
import json
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.colors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

BREAKDOWN = ("compute_ns", "exposed_tp_ns", "exposed_dp_pp_ns", "memory_ns")


def ranked(outcomes):
    """Done points, fastest (analytical) first."""
    done = [o for o in outcomes if o.status == "done"]
    return sorted(done, key=lambda o: (o.analytical["time_ns"], o.point.point_id))


def expansion_gains(sweep, outcomes):
    """Per HBM capacity, compute and network tier: the best time without memory expansion,
    the best with it, and their ratio (None when only one side has a feasible point)."""
    done = ranked(outcomes)
    rows = []
    for hbm in sweep.sweep["hbm"]:
        for compute in sweep.sweep["compute"]:
            for network in sweep.sweep["network"]:
                same = [o for o in done if o.point["hbm"] == hbm and
                        o.point["compute"]["name"] == compute["name"] and
                        o.point["network"]["name"] == network["name"]]
                without = [o for o in same if o.point["memory"]["name"] == "none"]
                with_ = [o for o in same if o.point["memory"]["name"] != "none"]
                if not with_ and not without:
                    continue
                gain = (without[0].analytical["time_ns"] / with_[0].analytical["time_ns"]
                        if without and with_ else None)
                rows.append({"hbm": hbm, "compute": compute["name"], "network": network["name"],
                             "without": without[0] if without else None,
                             "with": with_[0] if with_ else None, "gain": gain})
    return rows


def expansion_gain(sweep, outcomes):
    """The largest gain of expansion_gains (None if none is defined)."""
    gains = [r["gain"] for r in expansion_gains(sweep, outcomes) if r["gain"] is not None]
    return max(gains) if gains else None


def packet_candidates(outcomes):
    """The analytically ranked points, each workload once: a point with memory expansion
    whose footprint fits offloads nothing, so it is the run of its twin without it."""
    seen = set()
    out = []
    # Of equal times, the point without a memory tier first: it names the run plainly.
    for o in sorted(ranked(outcomes), key=lambda o: (o.analytical["time_ns"],
                                                       o.point["memory"]["name"] != "none")):
        v = o.point.values
        same = tuple((k, v[k]["name"] if isinstance(v[k], dict) else v[k])
                     for k in sorted(v) if k != "memory")
        key = same + ((("memory", v["memory"]["name"]),) if not o.footprint.get("fits", False)
                      else ())
        if key not in seen:
            seen.add(key)
            out.append(o)
    return out


def ranking_agreement(outcomes):
    """For the points replayed at packet level too: their ranks by analytical and by
    packet time, and Kendall's tau between the two orders (None below two points)."""
    both = [o for o in ranked(outcomes) if o.packet]
    rows = []
    by_packet = sorted(both, key=lambda o: o.packet["time_ns"])
    for i, o in enumerate(both):
        rows.append((o, i + 1, by_packet.index(o) + 1))
    if len(both) < 2:
        return rows, None
    concordant = discordant = 0
    for i in range(len(both)):
        for j in range(i + 1, len(both)):
            a = both[i].analytical["time_ns"] - both[j].analytical["time_ns"]
            p = both[i].packet["time_ns"] - both[j].packet["time_ns"]
            if a * p > 0:
                concordant += 1
            elif a * p < 0:
                discordant += 1
    pairs = len(both) * (len(both) - 1) / 2
    return rows, (concordant - discordant) / pairs


def spread(outcomes):
    """Worst over best feasible time (None without two done points)."""
    done = ranked(outcomes)
    if len(done) < 2:
        return None
    return done[-1].analytical["time_ns"] / done[0].analytical["time_ns"]


def to_json(o):
    """A point's record in dse.json."""
    return {"id": o.point.point_id, "point": {k: v for k, v in o.point.values.items()},
            "status": o.status, "reason": o.reason, "footprint": o.footprint,
            "analytical": o.analytical, "packet": o.packet, "packet_note": o.packet_note}


def write_data(outcomes, out):
    """dse.json (every point) and points.csv (one line per point)."""
    with open(os.path.join(out, "dse.json"), "w", encoding="utf-8") as f:
        json.dump([to_json(o) for o in outcomes], f, indent=1)
    with open(os.path.join(out, "points.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "tp", "pp", "dp", "micro_batch", "sharding", "recompute", "compute",
                    "hbm", "memory", "network", "status", "time_ns"] + list(BREAKDOWN) +
                   ["packet_time_ns", "footprint_total_bytes", "fits", "reason"])
        for o in outcomes:
            p = o.point
            a = o.analytical or {}
            w.writerow([p.point_id, p["tp"], p["pp"], p["dp"], p["micro-batch"], p["sharding"],
                        p["recompute"], p["compute"]["name"], p["hbm"], p["memory"]["name"],
                        p["network"]["name"], o.status, a.get("time_ns", "")] +
                       [a.get(k, "") for k in BREAKDOWN] +
                       [(o.packet or {}).get("time_ns", ""), o.footprint.get("total_bytes", ""),
                        o.footprint.get("fits", ""), o.reason])


def _save(fig, out, name):
    paths = []
    for ext in ("png", "svg"):
        path = os.path.join(out, f"{name}.{ext}")
        fig.savefig(path, dpi=130, bbox_inches="tight")
        paths.append(path)
    plt.close(fig)
    return paths


def _grid(ax, rows, cols, cells, row_label, col_label, title, norm):
    """A heatmap of best times (ms, log colour scale); grey cells are pruned."""
    values = [[cells[(r, c)][0] if (r, c) in cells else float("nan") for c in cols]
              for r in rows]
    cmap = matplotlib.colormaps["viridis_r"].copy()
    cmap.set_bad("#dddddd")
    image = ax.imshow(values, cmap=cmap, norm=norm, aspect="auto")
    ax.set_xticks(range(len(cols)), [str(c) for c in cols])
    ax.set_yticks(range(len(rows)), [str(r) for r in rows])
    ax.set_xlabel(col_label)
    ax.set_ylabel(row_label)
    ax.set_title(title, fontsize=9)
    middle = math.sqrt(norm.vmin * norm.vmax)
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            if (r, c) in cells:
                v, note = cells[(r, c)]
                ax.text(j, i, f"{v:.3g}\n{note}", ha="center", va="center", fontsize=7,
                        color="white" if v > middle else "black")
            else:
                ax.text(j, i, "x", ha="center", va="center", fontsize=8, color="#777777")
    return image


def _norm(outcomes):
    times = [o.analytical["time_ns"] / 1e6 for o in ranked(outcomes)]
    lo, hi = (min(times), max(times)) if times else (1.0, 1.0)
    return matplotlib.colors.LogNorm(vmin=lo, vmax=max(hi, lo * 1.001))


def plot_parallelism(sweep, outcomes, out):
    """Best time over TP x PP (DP follows), one panel per HBM capacity and memory tier."""
    tps, pps = sweep.sweep["tp"], sweep.sweep["pp"]
    panels = [(h, m["name"]) for h in sweep.sweep["hbm"] for m in sweep.sweep["memory"]]
    fig, axes = plt.subplots(1, len(panels), figsize=(3.6 * len(panels) + 1, 3.4),
                             squeeze=False)
    norm = _norm(outcomes)
    for ax, (hbm, mem) in zip(axes[0], panels):
        cells = {}
        for o in ranked(outcomes):
            p = o.point
            if p["hbm"] != hbm or p["memory"]["name"] != mem:
                continue
            key = (p["tp"], p["pp"])
            if key not in cells:
                cells[key] = (o.analytical["time_ns"] / 1e6, f"DP{p['dp']}")
        image = _grid(ax, tps, pps, cells, "TP", "PP", f"HBM {hbm}, expansion {mem}", norm)
    fig.colorbar(image, ax=axes[0].tolist(), label="best iteration time (ms)")
    fig.suptitle(f"{sweep.name}: best iteration time (ms) over TP x PP (DP = NPUs / TP / PP); "
                 "x = pruned", fontsize=10)
    return _save(fig, out, "heatmap-parallelism")


def plot_network_memory(sweep, outcomes, out):
    """Best time over network tier x memory tier."""
    nets = [n["name"] for n in sweep.sweep["network"]]
    mems = [f"{h}/{m['name']}" for h in sweep.sweep["hbm"] for m in sweep.sweep["memory"]]
    cells = {}
    for o in ranked(outcomes):
        p = o.point
        key = (p["network"]["name"], f"{p['hbm']}/{p['memory']['name']}")
        if key not in cells:
            cells[key] = (o.analytical["time_ns"] / 1e6, f"{p['tp']}/{p['pp']}/{p['dp']}")
    fig, ax = plt.subplots(figsize=(1.6 * len(mems) + 2.5, 0.9 * len(nets) + 1.8))
    image = _grid(ax, nets, mems, cells, "network tier", "HBM / memory expansion",
                  f"{sweep.name}: best iteration time (ms), TP/PP/DP of the best; x = none fits",
                  _norm(outcomes))
    fig.colorbar(image, ax=ax, label="best iteration time (ms)")
    return _save(fig, out, "heatmap-network-memory")


def plot_breakdown(best, out, name):
    """Stacked breakdown of the best configurations."""
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(best) + 1.5))
    labels = [o.point.label() for o in best]
    left = [0.0] * len(best)
    names = {"compute_ns": "compute", "exposed_tp_ns": "exposed TP",
             "exposed_dp_pp_ns": "exposed DP + pipeline", "memory_ns": "remote memory (busy)"}
    for key in BREAKDOWN:
        widths = [o.analytical[key] / 1e6 for o in best]
        ax.barh(range(len(best)), widths, left=left, label=names[key])
        left = [a + b for a, b in zip(left, widths)]
    ax.scatter([o.analytical["time_ns"] / 1e6 for o in best], range(len(best)), color="black",
               marker="|", s=200, label="iteration time", zorder=3)
    ax.set_yticks(range(len(best)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("ms (slowest rank; remote-memory time may overlap the others)")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=5)
    return _save(fig, out, name)


def _ms(ns):
    return f"{ns / 1e6:.2f}"


def write_report(sweep, outcomes, plots, out, command):
    """report.md: what ran, what was pruned and why, the best points, spread and gain."""
    done = ranked(outcomes)
    pruned = [o for o in outcomes if o.status == "pruned"]
    failed = [o for o in outcomes if o.status == "failed"]
    lines = [f"# {sweep.name}", "", sweep.description, "", f"Command: `{command}`", "",
             f"{len(outcomes)} points: {len(done)} replayed (analytical), {len(pruned)} pruned, "
             f"{len(failed)} failed.", ""]
    s, g = spread(outcomes), expansion_gain(sweep, outcomes)
    if s is not None:
        lines.append(f"Spread, worst / best feasible: {s:.2f}x "
                     f"({_ms(done[-1].analytical['time_ns'])} / "
                     f"{_ms(done[0].analytical['time_ns'])} ms).")
    if g is not None:
        lines.append(f"Memory-expansion gain, best without / best with at the same HBM, compute "
                     f"and network: up to {g:.2f}x.")
    lines += ["", "## Best configurations", "",
              "| # | configuration | time (ms) | compute | exposed TP | exposed DP+PP | "
              "memory | packet (ms) |", "|---|---|---|---|---|---|---|---|"]
    for i, o in enumerate(done[:10]):
        a = o.analytical
        pk = _ms(o.packet["time_ns"]) if o.packet else o.packet_note
        lines.append(f"| {i + 1} | {o.point.label()} | {_ms(a['time_ns'])} | "
                     f"{_ms(a['compute_ns'])} | {_ms(a['exposed_tp_ns'])} | "
                     f"{_ms(a['exposed_dp_pp_ns'])} | {_ms(a['memory_ns'])} | {pk} |")
    rows, tau = ranking_agreement(outcomes)
    if rows:
        lines += ["", "## Packet level against analytical", "",
                  "| configuration | analytical (ms) | packet (ms) | packet / analytical | "
                  "rank analytical | rank packet |", "|---|---|---|---|---|---|"]
        for o, ra, rp in rows:
            lines.append(f"| {o.point.label()} | {_ms(o.analytical['time_ns'])} | "
                         f"{_ms(o.packet['time_ns'])} | "
                         f"{o.packet['time_ns'] / o.analytical['time_ns']:.3f} | {ra} | {rp} |")
        if tau is not None:
            lines += ["", f"Kendall tau between the two orders: {tau:.2f} ({len(rows)} points)."]
    gains = expansion_gains(sweep, outcomes)
    if any(r["with"] for r in gains):
        lines += ["", "## Memory expansion", "",
                  "| HBM | compute | network | best without (ms) | best with (ms) | gain | "
                  "best with |", "|---|---|---|---|---|---|---|"]
        for r in gains:
            w, x = r["without"], r["with"]
            gain = f"{r['gain']:.2f}x" if r["gain"] else "-"
            lines.append(f"| {r['hbm']} | {r['compute']} | {r['network']} | "
                         f"{_ms(w.analytical['time_ns']) if w else 'none fits'} | "
                         f"{_ms(x.analytical['time_ns']) if x else 'none fits'} | "
                         f"{gain} | "
                         f"{x.point.label() if x else ''} |")
    if pruned:
        lines += ["", "## Pruned", "", "| configuration | reason |", "|---|---|"]
        lines += [f"| {o.point.label()} | {o.reason} |" for o in pruned]
    if failed:
        lines += ["", "## Failed", "", "| configuration | reason |", "|---|---|"]
        lines += [f"| {o.point.label()} | {o.reason} |" for o in failed]
    lines += ["", "## Figures", ""] + [f"![{os.path.basename(p)}]({os.path.basename(p)})"
                                       for p in plots if p.endswith(".png")]
    with open(os.path.join(out, "report.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
