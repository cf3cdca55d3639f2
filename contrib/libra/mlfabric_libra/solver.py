# SPDX-License-Identifier: GPL-2.0-only
"""The optimisation, with NLopt's SLSQP (sequential quadratic programming).

Variables: the bandwidths u_d (in units of a scale B) and, per collective class k, an
epigraph variable v_k >= its time (in units of a time scale T). The max over dimensions
becomes the smooth constraints a_kd / u_d <= v_k (sum model: sum_d a_kd / u_d <= v_k), so
PerfOpt -- a linear objective over convex constraints -- is a convex programme whose
local optimum SLSQP finds is the global one. PerfPerCostOpt multiplies the time by the
cost (linear in u): a product, not convex, so it runs SLSQP from many starting points and
reports the best it found, which is a local optimum without a certificate.

Before optimising, linear programmes (also SLSQP) check that the constraints are feasible,
that they bound every dimension that carries traffic (else PerfOpt has no optimum), and
that they leave such a dimension some bandwidth."""

from dataclasses import dataclass, field
from typing import List

import nlopt
import numpy as np

from .constraints import Constraint
from .model import Problem
from .network import InputError

_BIG = 1e9  # GB/s: "unbounded" for the bound checks


@dataclass
class Solution:
    bw: List[float]
    objective: float
    method: str
    starts: int = 1
    converged_to_best: int = 1
    evaluations: int = 0
    notes: List[str] = field(default_factory=list)


def _linear_rows(constraints: List[Constraint], scale: float):
    eq = [(np.array(c.coeffs), c.rhs / scale) for c in constraints if c.op == "="]
    le = [(np.array(c.coeffs), c.rhs / scale) for c in constraints if c.op == "<="]
    le += [(-np.array(c.coeffs), -c.rhs / scale) for c in constraints if c.op == ">="]
    return eq, le


def _add_linear(opt, n, dims, eq, le, tol):
    def rows(pairs, sign_eq):
        def f(result, x, grad):
            for i, (a, b) in enumerate(pairs):
                result[i] = float(a @ x[:dims]) - b
                if grad.size > 0:
                    grad[i, :] = 0.0
                    grad[i, :dims] = a
        return f
    if eq:
        opt.add_equality_mconstraint(rows(eq, True), [tol] * len(eq))
    if le:
        opt.add_inequality_mconstraint(rows(le, False), [tol] * len(le))


def _run(opt, x0):
    """Optimise; on NLopt's round-off stop keep the last point (checked by the caller)."""
    try:
        x = opt.optimize(x0)
        return np.array(x), opt.last_optimize_result()
    except nlopt.RoundoffLimited:
        return None, nlopt.ROUNDOFF_LIMITED
    except (ValueError, RuntimeError):
        return None, nlopt.FAILURE


class Solver:
    def __init__(self, problem: Problem, constraints: List[Constraint], scale_GBps: float):
        self.p = problem
        self.cons = constraints
        self.D = problem.dims
        self.B = scale_GBps
        self.eq, self.le = _linear_rows(constraints, scale_GBps)
        self.traffic_dims = problem.traffic_dims()
        self.lower = np.zeros(self.D)
        self.upper = np.full(self.D, _BIG / scale_GBps)

    # ---- linear programmes on the constraints alone ----
    def _lp(self, objective_vec, x0=None, slack=True):
        """min c.u over the constraints and 0 <= u <= upper. With `slack`, a variable s >= 0
        relaxes every constraint (phase 1 minimises it: it is 0 when they are feasible);
        without, x0 must be feasible. Returns (u, s)."""
        D = self.D
        n = D + (1 if slack else 0)
        opt = nlopt.opt(nlopt.LD_SLSQP, n)
        lower = list(self.lower) + ([0.0] if slack else [])
        upper = list(self.upper) + ([_BIG / self.B] if slack else [])
        opt.set_lower_bounds(lower)
        opt.set_upper_bounds(upper)
        c = np.asarray(objective_vec, dtype=float)[:n]

        def f(x, grad):
            if grad.size > 0:
                grad[:] = c
            return float(c @ x)
        opt.set_min_objective(f)
        if slack:
            rows = self.le + self.eq + [(-a, -b) for a, b in self.eq]
            if rows:
                def g(result, x, grad):
                    for i, (a, b) in enumerate(rows):
                        result[i] = float(a @ x[:D]) - b - x[D]
                        if grad.size > 0:
                            grad[i, :] = 0.0
                            grad[i, :D] = a
                            grad[i, D] = -1.0
                opt.add_inequality_mconstraint(g, [1e-12] * len(rows))
        else:
            _add_linear(opt, n, D, self.eq, self.le, 1e-12)
        opt.set_xtol_rel(1e-12)
        opt.set_maxeval(5000)
        start = np.full(n, 1.0) if x0 is None else np.asarray(x0, dtype=float)[:n]
        x, _ = _run(opt, np.clip(start, lower, upper))
        if x is None:
            raise InputError("--constraint: the linear feasibility check did not converge")
        return x[:D], (x[D] if slack else 0.0)

    def check_constraints(self) -> np.ndarray:
        """A feasible point of the constraints, after checking they make sense."""
        D = self.D
        c = np.zeros(D + 1)
        c[D] = 1.0
        u, s = self._lp(c)
        bw = u * self.B
        worst = max((con.residual(bw) for con in self.cons), default=0.0)
        if s * self.B > 1e-6 * max(1.0, self.B) and worst > 1e-6 * max(1.0, self.B):
            listed = "; ".join(dict.fromkeys(con.text for con in self.cons))
            raise InputError(f"--constraint: the constraints are infeasible together "
                             f"({listed}): the closest bandwidths still miss one by "
                             f"{worst:.6g} GB/s")
        feasible = u
        for d in self.traffic_dims:
            # max u_d over the constraints, from the feasible point.
            c = np.zeros(D)
            c[d] = -1.0
            u_max, _ = self._lp(c, feasible, slack=False)
            if u_max[d] * self.B >= 0.5 * _BIG:
                raise InputError(f"--constraint: nothing bounds bw{d} (dimension {d} carries "
                                 f"traffic, so more bandwidth is always faster): give a total "
                                 f"such as --constraint='sum=500' or an upper bound")
            if u_max[d] * self.B <= 1e-9:
                raise InputError(f"--constraint: the constraints force bw{d} to 0 GB/s, but "
                                 f"dimension {d} carries traffic (its time would be infinite)")
            self.upper[d] = max(2.0 * u_max[d], 1e-6)
        # A floor far below any useful bandwidth keeps a_kd / u_d finite.
        for d in self.traffic_dims:
            self.lower[d] = min(1e-7 * self.upper[d], 0.5 * feasible[d] if feasible[d] > 0
                                else 1e-7 * self.upper[d])
        return np.clip(feasible, self.lower, self.upper)

    # ---- the optimisation itself ----
    def _time_scale(self, u):
        return max(self.p.e2e_ns(u * self.B), 1e-9)

    def _local(self, objective: str, u0, cost_vec, T, C):
        p, D = self.p, self.D
        K = len(p.traffic)
        R = len(p.counts)
        multi = R > 1
        n = D + K + (1 if multi else 0)
        a = np.array(p.traffic) / (self.B * T)  # K x D
        compute = np.array(p.compute_ns) / T
        counts = np.array(p.counts)  # R x K
        kappa = np.asarray(cost_vec) * self.B / C

        def times(x):
            return x[D:D + K]

        def e2e(x):
            if multi:
                return x[D + K]
            return compute[0] + float(counts[0] @ times(x))

        def e2e_grad(grad):
            if multi:
                grad[D + K] = 1.0
            else:
                grad[D:D + K] = counts[0]

        evaluations = [0]

        def f(x, grad):
            evaluations[0] += 1
            if objective == "perf":
                if grad.size > 0:
                    grad[:] = 0.0
                    e2e_grad(grad)
                return e2e(x)
            cost = float(kappa @ x[:D])
            t = e2e(x)
            if grad.size > 0:
                grad[:] = 0.0
                e2e_grad(grad)
                grad *= cost
                grad[:D] += t * kappa
            return t * cost

        opt = nlopt.opt(nlopt.LD_SLSQP, n)
        lb = list(self.lower) + [0.0] * (n - D)
        ub = list(self.upper) + [float("inf")] * (n - D)
        opt.set_lower_bounds(lb)
        opt.set_upper_bounds(ub)
        opt.set_min_objective(f)
        _add_linear(opt, n, D, self.eq, self.le, 1e-10)
        mask = a > 0

        if p.dim_time == "max":
            pairs = [(k, d) for k in range(K) for d in range(D) if mask[k, d]]

            def g(result, x, grad):
                if grad.size > 0:
                    grad[:] = 0.0
                for i, (k, d) in enumerate(pairs):
                    result[i] = a[k, d] / x[d] - x[D + k]
                    if grad.size > 0:
                        grad[i, d] = -a[k, d] / x[d] ** 2
                        grad[i, D + k] = -1.0
            if pairs:
                opt.add_inequality_mconstraint(g, [1e-12] * len(pairs))
        else:
            def g(result, x, grad):
                if grad.size > 0:
                    grad[:] = 0.0
                for k in range(K):
                    s = 0.0
                    for d in range(D):
                        if mask[k, d]:
                            s += a[k, d] / x[d]
                            if grad.size > 0:
                                grad[k, d] = -a[k, d] / x[d] ** 2
                    result[k] = s - x[D + k]
                    if grad.size > 0:
                        grad[k, D + k] = -1.0
            opt.add_inequality_mconstraint(g, [1e-12] * K)
        if multi:
            def h(result, x, grad):
                if grad.size > 0:
                    grad[:] = 0.0
                for r in range(R):
                    result[r] = compute[r] + float(counts[r] @ x[D:D + K]) - x[D + K]
                    if grad.size > 0:
                        grad[r, D:D + K] = counts[r]
                        grad[r, D + K] = -1.0
            opt.add_inequality_mconstraint(h, [1e-12] * R)
        opt.set_xtol_rel(1e-10)
        opt.set_ftol_rel(1e-12)
        opt.set_maxeval(20000)

        u0 = np.clip(np.asarray(u0, dtype=float), self.lower, self.upper)
        u0 = np.maximum(u0, np.where(self.lower > 0, self.lower, 0.0))
        x0 = np.zeros(n)
        x0[:D] = u0
        bw0 = u0 * self.B
        for k in range(K):
            x0[D + k] = p.class_time(k, np.maximum(bw0, 1e-30)) / T
        if multi:
            x0[D + K] = p.e2e_ns(np.maximum(bw0, 1e-30)) / T
        x, status = _run(opt, x0)
        if x is None:
            return None, evaluations[0], status
        return np.clip(x[:D], self.lower, self.upper) * self.B, evaluations[0], status

    def feasible(self, bw, tol=1e-6) -> bool:
        scale = max(1.0, float(np.sum(np.abs(bw))))
        return all(c.residual(bw) <= tol * scale for c in self.cons)

    def value(self, objective, bw, cost_vec):
        t = self.p.e2e_ns(bw)
        if objective == "perf":
            return t
        return t * float(np.dot(cost_vec, bw)) / 1e10

    def solve(self, objective: str, cost_vec, starts: int = 32, seed: int = 1) -> Solution:
        u_feasible = self.check_constraints()
        T = self._time_scale(np.where(u_feasible > 0, u_feasible, 1.0))
        C = max(float(np.dot(cost_vec, np.maximum(u_feasible, 1e-9))) * self.B, 1e-9)
        # PerfOpt first: convex, one local search from the feasible point.
        best, evals, status = self._local("perf", u_feasible, cost_vec, T, C)
        method = "NLopt SLSQP"
        if best is None or not self.feasible(best):
            best, evals2 = self._cobyla(u_feasible, T)
            evals += evals2
            method = "NLopt COBYLA (SLSQP did not converge)"
        perf = Solution(list(best), self.value("perf", best, cost_vec), method,
                        evaluations=evals)
        perf.notes.append("PerfOpt is convex in the bandwidths: this local optimum is global")
        if objective == "perf":
            return perf
        # PerfPerCostOpt: multi-start, the PerfOpt optimum and the feasible point first.
        rng = np.random.default_rng(seed)
        points = [np.asarray(best) / self.B, u_feasible]
        while len(points) < starts:
            points.append(rng.uniform(self.lower, self.upper))
        results = []
        total_evals = evals
        for u0 in points[:max(starts, 1)]:
            bw, e, _ = self._local("ppc", u0, cost_vec, T, C)
            total_evals += e
            if bw is not None and self.feasible(bw):
                results.append((self.value("ppc", bw, cost_vec), list(bw)))
        if not results:
            raise InputError("--objective=perf-per-cost: no local search converged to a "
                             "feasible point")
        results.sort(key=lambda r: r[0])
        value, bw = results[0]
        near = sum(1 for v, _ in results if v <= value * (1 + 1e-4))
        sol = Solution(bw, value, "NLopt SLSQP, multi-start", starts=len(points[:starts]),
                       converged_to_best=near, evaluations=total_evals)
        sol.notes.append(f"perf-per-cost is not convex: best of {len(points[:starts])} local "
                         f"searches ({near} reached it within 0.01%, {len(results)} "
                         f"feasible); a local search, not a proof of the global optimum")
        return sol

    def _cobyla(self, u0, T):
        """Derivative-free fallback on the plain (non-smooth) objective."""
        D = self.D
        opt = nlopt.opt(nlopt.LN_COBYLA, D)
        opt.set_lower_bounds(list(self.lower))
        opt.set_upper_bounds(list(self.upper))
        evaluations = [0]

        def f(x, grad):
            evaluations[0] += 1
            return self.p.e2e_ns(np.maximum(x, 1e-30) * self.B) / T
        opt.set_min_objective(f)
        _add_linear(opt, D, D, self.eq, self.le, 1e-9)
        opt.set_xtol_rel(1e-9)
        opt.set_maxeval(50000)
        x, _ = _run(opt, np.clip(u0, self.lower, self.upper))
        if x is None:
            raise InputError("--constraint: neither SLSQP nor COBYLA found a feasible optimum")
        return list(np.asarray(x) * self.B), evaluations[0]


def equal_split(total: float, dims: int) -> List[float]:
    return [total / dims] * dims


def scale_for(constraints: List[Constraint]) -> float:
    """A bandwidth scale for the variables: the largest constant of the constraints."""
    values = [abs(c.rhs) for c in constraints if abs(c.rhs) > 0]
    return max(values) if values else 100.0

