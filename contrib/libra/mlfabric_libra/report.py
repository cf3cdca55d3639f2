# SPDX-License-Identifier: GPL-2.0-only
"""What `mlfabric libra` prints and writes: the chosen bandwidths against an equal split
of the same budget, their times and costs."""

from dataclasses import dataclass
from typing import List

import numpy as np


@dataclass
class Result:
    network: object
    workload: object
    problem: object
    dim_costs: List
    cost_vec: np.ndarray
    constraints: List
    objective: str
    dim_time: str
    solution: object
    bw: np.ndarray
    equal: np.ndarray

    def cost(self, bw) -> float:
        return float(np.dot(self.cost_vec, bw))

    def time(self, bw) -> float:
        return self.problem.e2e_ns(bw)

    def ppc(self, bw) -> float:
        return self.time(bw) * self.cost(bw) / 1e10


def text(r: Result) -> str:
    n, p = r.network, r.problem
    lines = [f"libra: {r.workload.description} on {n.path} "
             f"({len(n.dims)} dimensions, {n.npus} NPUs)"]
    goal = "minimise end-to-end time" if r.objective == "perf" else \
        "minimise end-to-end time x network cost / 1e10"
    model = "max over dimensions (pipelined, LIBRA)" if r.dim_time == "max" else \
        "sum over dimensions (one after another)"
    lines.append(f"objective:   {r.objective} ({goal}); collective time = {model}")
    cons = "; ".join(dict.fromkeys(c.text for c in r.constraints)) or "none"
    lines.append(f"constraints: {cons}")
    s = r.solution
    lines.append(f"solver:      {s.method}, {s.evaluations} evaluations")
    for note in s.notes:
        lines.append(f"             {note}")
    lines.append("")
    busy = p.dim_busy_ns(r.bw)
    sent = p.dim_bytes()
    lines.append(f"{'dim':>4} {'topology':<15}{'npus':>6}  {'cost dimension':<15}"
                 f"{'bw (GB/s)':>11}{'equal':>9}{'sent (MB)':>12}{'busy (ms)':>11}"
                 f"{'cost ($)':>14}")
    for d, dim in enumerate(n.dims):
        lines.append(f"{d:>4} {dim.topology:<15}{dim.npus:>6}  {dim.cost_key:<15}"
                     f"{r.bw[d]:>11.2f}{r.equal[d]:>9.2f}{sent[d] / 1e6:>12.1f}"
                     f"{busy[d] / 1e6:>11.3f}{r.cost_vec[d] * r.bw[d]:>14,.0f}")
    lines.append(f"{'total':>4} {'':<15}{'':>6}  {'':<15}{r.bw.sum():>11.2f}"
                 f"{r.equal.sum():>9.2f}")
    lines.append("")
    lines.append(f"{'':<34}{'chosen':>16}{'equal split':>16}")
    rows = [("end-to-end time (ms)", r.time(r.bw) / 1e6, r.time(r.equal) / 1e6, "{:.4f}"),
            ("  compute (ms)", (r.time(r.bw) - p.comm_ns(r.bw)) / 1e6,
             (r.time(r.equal) - p.comm_ns(r.equal)) / 1e6, "{:.4f}"),
            ("  communication (ms)", p.comm_ns(r.bw) / 1e6, p.comm_ns(r.equal) / 1e6,
             "{:.4f}"),
            ("network cost ($)", r.cost(r.bw), r.cost(r.equal), "{:,.0f}"),
            ("perf-per-cost (time x cost / 1e10)", r.ppc(r.bw), r.ppc(r.equal), "{:.6g}")]
    for name, a, b, fmt in rows:
        lines.append(f"{name:<34}{fmt.format(a):>16}{fmt.format(b):>16}")
    lines.append("")
    lines.append(f"speedup over the equal split:        {r.time(r.equal) / r.time(r.bw):.3f}x")
    lines.append(f"perf-per-cost gain over equal split: {r.ppc(r.equal) / r.ppc(r.bw):.3f}x")
    given = [d.given_bw_GBps for d in n.dims]
    if all(g is not None for g in given):
        g = np.array(given)
        lines.append(f"the file's own bandwidths {', '.join(f'{x:.2f}' for x in g)} GB/s: "
                     f"{r.time(g) / 1e6:.4f} ms, ${r.cost(g):,.0f}")
    return "\n".join(lines)


def summary(r: Result) -> dict:
    p = r.problem
    out = {
        "network": r.network.path,
        "workload": r.workload.path,
        "objective": r.objective,
        "dim_time": r.dim_time,
        "constraints": list(dict.fromkeys(c.text for c in r.constraints)),
        "dimensions": [{"topology": d.topology, "npus": d.npus, "cost_dimension": d.cost_key,
                        "name": d.name} for d in r.network.dims],
        "bandwidth_GBps": [float(x) for x in r.bw],
        "predicted_time_ns": r.time(r.bw),
        "compute_ns": r.time(r.bw) - p.comm_ns(r.bw),
        "communication_ns": p.comm_ns(r.bw),
        "network_cost": r.cost(r.bw),
        "perf_per_cost": r.ppc(r.bw),
        "dimension_cost_per_GBps": [float(x) for x in r.cost_vec],
        "dimension_busy_ns": p.dim_busy_ns(r.bw),
        "dimension_sent_bytes": p.dim_bytes(),
        "equal_split_GBps": [float(x) for x in r.equal],
        "equal_split_time_ns": r.time(r.equal),
        "equal_split_cost": r.cost(r.equal),
        "equal_split_perf_per_cost": r.ppc(r.equal),
        "speedup_over_equal_split": r.time(r.equal) / r.time(r.bw),
        "perf_per_cost_gain_over_equal_split": r.ppc(r.equal) / r.ppc(r.bw),
        "solver": r.solution.method,
        "solver_notes": r.solution.notes,
        "local_searches": r.solution.starts,
        "local_searches_at_best": r.solution.converged_to_best,
    }
    return out
