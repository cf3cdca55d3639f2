# SPDX-License-Identifier: GPL-2.0-only
"""LIBRA's time model on per-NPU bandwidths bw (GB/s = bytes/ns).

  dimension time  = traffic_d / bw_d                      (no latency term)
  collective time = max_d dimension time                  (chunks pipelined across
                    (or, with --dim-time=sum, the sum:      dimensions, as under Themis)
                    dimensions one after the other)
  end-to-end      = compute + sum of collective times     (LIBRA's no_overlap loop)

With several NPU views (a Chakra trace's ranks) the end-to-end time is the slowest one.
Collectives with the same traffic vector are merged (their count multiplies their time),
which keeps the optimisation small."""

from collections import OrderedDict
from dataclasses import dataclass
from typing import List, Sequence

from .workload import Workload


@dataclass
class Problem:
    traffic: List[List[float]]  # per class: bytes per dimension
    counts: List[List[float]]  # per view, per class: how many times the view runs it
    compute_ns: List[float]  # per view
    dim_time: str  # "max" or "sum"

    @property
    def dims(self) -> int:
        return len(self.traffic[0]) if self.traffic else 0

    def class_time(self, k: int, bw: Sequence[float]) -> float:
        times = [t / b if t > 0 else 0.0 for t, b in zip(self.traffic[k], bw)]
        return max(times) if self.dim_time == "max" else sum(times)

    def view_times(self, bw: Sequence[float]) -> List[float]:
        ct = [self.class_time(k, bw) for k in range(len(self.traffic))]
        return [c + sum(m * t for m, t in zip(row, ct))
                for c, row in zip(self.compute_ns, self.counts)]

    def e2e_ns(self, bw: Sequence[float]) -> float:
        return max(self.view_times(bw))

    def slowest_view(self, bw: Sequence[float]) -> int:
        times = self.view_times(bw)
        return times.index(max(times))

    def comm_ns(self, bw: Sequence[float]) -> float:
        r = self.slowest_view(bw)
        return self.view_times(bw)[r] - self.compute_ns[r]

    def dim_busy_ns(self, bw: Sequence[float]) -> List[float]:
        """Per dimension: time the slowest view's collectives keep it busy."""
        r = self.slowest_view(bw)
        busy = [0.0] * self.dims
        for k, m in enumerate(self.counts[r]):
            for d, t in enumerate(self.traffic[k]):
                if t > 0:
                    busy[d] += m * t / bw[d]
        return busy

    def dim_bytes(self) -> List[float]:
        """Per dimension: bytes an NPU of the busiest view sends (view 0 for ties)."""
        totals = []
        for row in self.counts:
            totals.append([sum(m * self.traffic[k][d] for k, m in enumerate(row))
                           for d in range(self.dims)])
        return max(totals, key=sum) if totals else []

    def traffic_dims(self) -> List[int]:
        return [d for d in range(self.dims) if any(t[d] > 0 for t in self.traffic)]


def build_problem(workload: Workload, dims: int, dim_time: str) -> Problem:
    classes: "OrderedDict[tuple, int]" = OrderedDict()
    rows = []
    for view in workload.views:
        row = {}
        for c in view.comms:
            key = tuple(c.traffic)
            if not any(key):
                continue
            k = classes.setdefault(key, len(classes))
            row[k] = row.get(k, 0) + 1
        rows.append(row)
    counts = [[float(row.get(k, 0)) for k in range(len(classes))] for row in rows]
    # Views alike in compute and collectives are one constraint, not many.
    unique = OrderedDict()
    for view, row in zip(workload.views, counts):
        unique.setdefault((round(view.compute_ns, 6), tuple(row)), None)
    compute = [c for c, _ in unique]
    counts = [list(r) for _, r in unique]
    traffic = [list(k) for k in classes] or [[0.0] * dims]
    if not classes:
        counts = [[0.0] for _ in counts]
    return Problem(traffic, counts, compute, dim_time)
