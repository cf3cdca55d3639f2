# SPDX-License-Identifier: GPL-2.0-only
"""`./mlfabric libra`: the per-dimension bandwidths that minimise training time (or time x
cost) of a workload on a multi-dimensional network, under linear constraints."""

import argparse
import json
import os
import sys

import numpy as np

from . import chakra, cost, fabric_out, report, validate
from .constraints import load_constraints
from .model import build_problem
from .network import InputError, load_network
from .solver import Solver, equal_split, scale_for
from .workload import libra_workload


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise InputError(message)


def _parser():
    p = _Parser(prog="mlfabric libra", description=__doc__)
    p.add_argument("--network", required=True,
                   help="LIBRA's network YAML, ASTRA-sim's network YAML or an mlfabric fabric")
    p.add_argument("--workload", required=True,
                   help="LIBRA's layer-wise text (ASTRA-sim 1.0) or a Chakra prefix")
    p.add_argument("--communicator", default="",
                   help="LIBRA's communicator YAML, or a Chakra workload's communicator-group "
                        "JSON (default PREFIX.comm-groups.json)")
    p.add_argument("--cost-model", required=True, help="LIBRA's cost-model YAML")
    p.add_argument("--objective", required=True, choices=("perf", "perf-per-cost"))
    p.add_argument("--constraint", action="append", default=[],
                   help="a linear relation over bw0, bw1, ... and sum (GB/s per NPU), or a "
                        "LIBRA constraint file (*.py); repeatable")
    p.add_argument("--dim-time", choices=("max", "sum"), default="max",
                   help="collective time over dimensions: max (LIBRA: pipelined) or sum "
                        "(dimensions one after another)")
    p.add_argument("--starts", type=int, default=32,
                   help="perf-per-cost: local searches (default 32)")
    p.add_argument("--seed", type=int, default=1, help="perf-per-cost: random starts' seed")
    p.add_argument("--summary", default="", help="write the result as JSON")
    p.add_argument("--write-fabric", default="", help="write the chosen fabric (mlfabric YAML)")
    p.add_argument("--latency", default="",
                   help="--write-fabric for LIBRA networks: link latency per dimension, "
                        "comma-separated (default 500ns each)")
    p.add_argument("--validate", action="store_true",
                   help="replay the workload on the chosen fabric and compare")
    p.add_argument("--backends", default="analytical,packet",
                   help="--validate: chakra-replay backends, of analytical, analytical-aware, "
                        "flow, hybrid, packet (default analytical,packet)")
    p.add_argument("--replay-binary", default="", help="--validate: the chakra-replay program")
    p.add_argument("--validate-splits", type=int, default=16,
                   help="--validate: chunks per collective in the replay (default 16)")
    p.add_argument("--validate-dir", default="", help="--validate: where the replay's files go")
    return p


def _workload(args, network):
    prefix = args.workload
    if chakra.rank_files(prefix):
        groups = args.communicator or (prefix + ".comm-groups.json")
        if not args.communicator and not os.path.isfile(groups):
            groups = ""
        if groups.endswith((".yml", ".yaml")):
            raise InputError(f"--communicator: {groups}: a Chakra workload's groups are "
                             f"ASTRA-sim's communicator-group JSON, not LIBRA's YAML")
        return chakra.chakra_workload(prefix, groups, network)
    if prefix.endswith(".et") or os.path.isdir(prefix):
        raise InputError(f"--workload: {prefix}: give a Chakra workload as its prefix "
                         f"(PREFIX for PREFIX.0.et ...)")
    if not args.communicator:
        raise InputError("--communicator: LIBRA's layer-wise workload needs a communicator "
                         "YAML")
    return libra_workload(prefix, args.communicator, network)


def run(args):
    network = load_network(args.network)
    workload = _workload(args, network)
    prices = cost.read_cost_model(args.cost_model)
    dim_costs = cost.dimension_costs(network, prices, args.cost_model)
    cost_vec = np.array([c.per_GBps for c in dim_costs])
    constraints = load_constraints(args.constraint, len(network.dims))
    if args.starts < 1:
        raise InputError("--starts: must be at least 1")
    problem = build_problem(workload, len(network.dims), args.dim_time)
    solver = Solver(problem, constraints, scale_for(constraints))
    sol = solver.solve(args.objective, cost_vec, args.starts, args.seed)
    bw = np.array(sol.bw)
    total = float(bw.sum())
    sum_rows = [c for c in constraints if c.op == "=" and all(abs(a - 1) < 1e-12
                                                             for a in c.coeffs)]
    budget = sum_rows[0].rhs if sum_rows else total
    eq = np.array(equal_split(budget, len(network.dims)))
    result = report.Result(network, workload, problem, dim_costs, cost_vec, constraints,
                           args.objective, args.dim_time, sol, bw, eq)
    print(report.text(result))
    out = report.summary(result)
    if args.write_fabric:
        fabric_out.write(network, bw, args.write_fabric, args.latency, result)
        print(f"fabric written to {args.write_fabric}")
        out["fabric_file"] = args.write_fabric
    if args.validate:
        out["validation"] = validate.run(args, network, workload, result)
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = _parser().parse_args(argv)
        return run(args)
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except SystemExit as e:  # --help
        return 0 if not e.code else 2
