# SPDX-License-Identifier: GPL-2.0-only
"""Tests of mlfabric libra: closed-form optima, LIBRA's cost and traffic rules, every
shipped scenario, the Chakra path, and bad inputs."""

import filecmp
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "chakra"))

from mlfabric_libra import cost  # noqa: E402
from mlfabric_libra.cli import main  # noqa: E402
from mlfabric_libra.constraints import parse_constraint, read_libra_constraints  # noqa: E402
from mlfabric_libra.model import Problem  # noqa: E402
from mlfabric_libra.network import load_network  # noqa: E402
from mlfabric_libra.solver import Solver  # noqa: E402
from mlfabric_libra.traffic import dimension_traffic  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
INPUTS = os.path.join(ROOT, "contrib", "libra", "inputs")
LIBRA = os.path.join(INPUTS, "libra")
SHARED = os.environ.get("MLFABRIC_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
REPLAY = os.environ.get("MLFABRIC_REPLAY_BINARY",
                        os.path.join(ROOT, "build", "examples", "chakra-replay"))
FABRIC_INFO = os.path.join(os.path.dirname(REPLAY), "fabric-info")

WORKLOADS = {"GPT_3": ("GPT_3_4d", "GPT_3_3d"), "MSFT_1T": ("MSFT_1T_4d", "MSFT_1T_3d"),
             "Turing_NLG": ("Turing_NLG_4D", "Turing_NLG_3D"),
             "ResNet_50": ("ResNet_50_4d", "ResNet_50_3d")}


def run_cli(args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(args)
    return status, out.getvalue(), err.getvalue()


def solve(traffic, budget, dim_time="max", compute=0.0, extra=(), objective="perf",
          cost_vec=None, starts=8):
    p = Problem([list(traffic)], [[1.0]], [compute], dim_time)
    cons = parse_constraint(f"sum={budget}", len(traffic))
    for e in extra:
        cons += parse_constraint(e, len(traffic))
    s = Solver(p, cons, budget)
    cv = np.ones(len(traffic)) if cost_vec is None else np.asarray(cost_vec)
    return p, s.solve(objective, cv, starts=starts)


class ClosedFormTest(unittest.TestCase):
    """Two dimensions, one collective of traffic T0, T1 bytes, bw0 + bw1 = B."""

    def test_pipelined_optimum_balances_the_dimensions(self):
        # min max(T0/b0, T1/b1): the optimum has T0/b0 = T1/b1, so b_d = B T_d / (T0+T1)
        # and the time is (T0+T1)/B.
        T, B = (3e9, 1e9), 400.0
        p, sol = solve(T, B)
        self.assertAlmostEqual(sol.bw[0], B * 3 / 4, delta=1e-4 * B)
        self.assertAlmostEqual(sol.bw[1], B / 4, delta=1e-4 * B)
        self.assertAlmostEqual(p.e2e_ns(sol.bw), sum(T) / B, delta=1e-6 * sum(T) / B)

    def test_sequential_optimum_is_the_square_root_rule(self):
        # min T0/b0 + T1/b1 with b0 + b1 = B: KKT gives T_d / b_d^2 = lambda, so
        # b_d = B sqrt(T_d) / sum sqrt(T), time (sum sqrt T)^2 / B.
        T, B = (4e9, 1e9), 300.0
        p, sol = solve(T, B, "sum")
        self.assertAlmostEqual(sol.bw[0], B * 2 / 3, delta=1e-4 * B)
        self.assertAlmostEqual(sol.bw[1], B / 3, delta=1e-4 * B)
        self.assertAlmostEqual(p.e2e_ns(sol.bw), (2 + 1) ** 2 * 1e9 / B, delta=1e-3)

    def test_an_active_bound_takes_the_rest(self):
        # The balanced point would give b0 = 300; capping it at 200 leaves b1 = 200 and
        # makes dimension 0 the bottleneck: time T0 / 200.
        T, B = (3e9, 1e9), 400.0
        p, sol = solve(T, B, extra=["bw0<=200"])
        self.assertAlmostEqual(sol.bw[0], 200.0, delta=1e-3)
        self.assertAlmostEqual(p.e2e_ns(sol.bw), 3e9 / 200, delta=1e-3 * 3e9 / 200)

    def test_the_all_reduce_traffic_of_a_two_dimensional_group(self):
        # LIBRA's rule: 2 S (c0-1)/c0 on dim 0, then 2 (S/c0) (c1-1)/c1 on dim 1.
        S = 1 << 30
        t = dimension_traffic("ALLREDUCE", S, [4, 8])
        self.assertEqual(t, [2 * S * 3 / 4, 2 * (S / 4) * 7 / 8])
        # All-gather goes from the last dimension down and grows: S(c1-1), then S c1 (c0-1).
        self.assertEqual(dimension_traffic("ALLGATHER", S, [4, 8]), [S * 8 * 3, S * 7])
        self.assertEqual(dimension_traffic("ALLTOALL", S, [4, -1]), [S * 3 / 4, 0.0])

    def test_perf_per_cost_against_a_dense_scan(self):
        # (C + T0/b0 + T1/b1) (k0 b0 + k1 b1) along b0 + b1 = B: the test scans b0 finely
        # (an independent check, not the solver) and the multi-start must match it.
        T, B, C, k = (2e9, 1e9), 500.0, 2e7, (1.0, 6.0)
        p, sol = solve(T, B, "sum", C, objective="perf-per-cost", cost_vec=k)
        grid = np.linspace(1e-3, B - 1e-3, 2_000_001)
        f = (C + T[0] / grid + T[1] / (B - grid)) * (k[0] * grid + k[1] * (B - grid))
        best = grid[np.argmin(f)]
        self.assertAlmostEqual(sol.bw[0], best, delta=1e-3 * B)
        value = (C + T[0] / sol.bw[0] + T[1] / sol.bw[1]) * (k[0] * sol.bw[0] + k[1] * sol.bw[1])
        self.assertLessEqual(value, f.min() * (1 + 1e-9))


class CostModelTest(unittest.TestCase):
    def test_libra_cost_per_dimension(self):
        net = load_network(os.path.join(LIBRA, "network", "4d_network.yml"))
        path = os.path.join(LIBRA, "cost_model", "4d_cost_model.yml")
        dims = cost.dimension_costs(net, cost.read_cost_model(path), path)
        # Ring 4: 1024 blocks x 8 links x bw/2; FC 8: 512 x 56 x bw/7; Ring 4 as dim 0;
        # Switch 32 at the top: 1 block x 4096 links x bw x (link + NIC + switch).
        self.assertEqual((dims[0].blocks, dims[0].links_per_block), (1024, 8))
        self.assertEqual((dims[1].blocks, dims[1].links_per_block), (512, 56))
        self.assertEqual((dims[3].blocks, dims[3].links_per_block), (1, 4096))
        self.assertAlmostEqual(dims[0].per_GBps, 4096 * 2.00001)
        self.assertAlmostEqual(dims[1].per_GBps, 4096 * 4.00002)
        self.assertAlmostEqual(dims[3].per_GBps, 4096 * (7.80004 + 31.60004 + 18.00004))


class InputsTest(unittest.TestCase):
    def test_shipped_inputs_are_libras_files_unchanged(self):
        source = os.path.join(SHARED, "data", "libra")
        if not os.path.isdir(source):
            self.skipTest(f"{source}: LIBRA's inputs are not here")
        for sub in ("network", "communicator", "workload", "cost_model", "constraints"):
            names = sorted(os.listdir(os.path.join(source, sub)))
            self.assertEqual(names, sorted(os.listdir(os.path.join(LIBRA, sub))))
            for n in names:
                self.assertTrue(filecmp.cmp(os.path.join(source, sub, n),
                                            os.path.join(LIBRA, sub, n), shallow=False), n)

    def test_libra_constraint_file_is_read_statement_by_statement(self):
        cons = read_libra_constraints(
            os.path.join(LIBRA, "constraints", "multiple_constraints.py"), 4)
        got = [(c.coeffs, c.op, c.rhs) for c in cons]
        self.assertEqual(got, [([1, 1, 1, 1], "=", 1000), ([1, 0, 0, 0], "=", 500),
                               ([1, -1, 0, 0], ">=", 0), ([0, 1, -1, 0], ">=", 0),
                               ([0, 0, 1, 1], "=", 200)])

    def test_expressions(self):
        c = parse_constraint("2*bw0 + 0.5 bw1 - 3 <= bw2 + 1", 3)[0]
        self.assertEqual((c.coeffs, c.op, c.rhs), ([2.0, 0.5, -1.0], "<=", 4.0))
        chain = parse_constraint("bw0>=bw1>=bw2", 3)
        self.assertEqual([(x.coeffs, x.op) for x in chain],
                         [([1, -1, 0], ">="), ([0, 1, -1], ">=")])


class ScenarioTest(unittest.TestCase):
    """Every shipped scenario: both networks, the four workloads, the 500 GB/s budget
    (both objectives) and, on the 4-D network, the multi-constraint example."""

    def scenario(self, workload, network, comm, constraint, objective):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        summary = os.path.join(d, "s.json")
        args = [f"--network={LIBRA}/network/{network}_network.yml",
                f"--workload={LIBRA}/workload/{workload}.txt",
                f"--communicator={LIBRA}/communicator/{comm}.yml",
                f"--cost-model={LIBRA}/cost_model/{network}_cost_model.yml",
                f"--objective={objective}", f"--constraint={LIBRA}/constraints/{constraint}",
                f"--summary={summary}", "--starts=6"]
        status, out, err = run_cli(args)
        self.assertEqual(status, 0, err)
        with open(summary) as f:
            s = json.load(f)
        self.assertIn("speedup over the equal split", out)
        return s

    def test_every_scenario(self):
        for workload, (c4, c3) in WORKLOADS.items():
            for network, comm in (("4d", c4), ("3d", c3)):
                perf = self.scenario(workload, network, comm, "total_bw_500gbps.py", "perf")
                self.assertAlmostEqual(sum(perf["bandwidth_GBps"]), 500, delta=1e-4)
                # The equal split is feasible here, so the optimum cannot be slower.
                self.assertLessEqual(perf["predicted_time_ns"],
                                     perf["equal_split_time_ns"] * (1 + 1e-9))
                ppc = self.scenario(workload, network, comm, "total_bw_500gbps.py",
                                    "perf-per-cost")
                self.assertLessEqual(ppc["perf_per_cost"], perf["perf_per_cost"] * (1 + 1e-6))
                self.assertGreaterEqual(ppc["predicted_time_ns"],
                                        perf["predicted_time_ns"] * (1 - 1e-6))
            multi = self.scenario(workload, "4d", c4, "multiple_constraints.py", "perf")
            bw = multi["bandwidth_GBps"]
            self.assertAlmostEqual(sum(bw), 1000, delta=1e-3)
            self.assertAlmostEqual(bw[0], 500, delta=1e-3)
            self.assertAlmostEqual(bw[2] + bw[3], 200, delta=1e-3)
            self.assertGreaterEqual(bw[0], bw[1] - 1e-3)
            self.assertGreaterEqual(bw[1], bw[2] - 1e-3)

    def test_perf_optimum_beats_random_feasible_points(self):
        s = self.scenario("MSFT_1T", "4d", "MSFT_1T_4d", "total_bw_500gbps.py", "perf")
        from mlfabric_libra.workload import libra_workload
        from mlfabric_libra.model import build_problem
        net = load_network(f"{LIBRA}/network/4d_network.yml")
        w = libra_workload(f"{LIBRA}/workload/MSFT_1T.txt",
                           f"{LIBRA}/communicator/MSFT_1T_4d.yml", net)
        p = build_problem(w, 4, "max")
        rng = np.random.default_rng(7)
        for x in rng.dirichlet(np.ones(4), 2000) * 500:
            self.assertGreaterEqual(p.e2e_ns(x), s["predicted_time_ns"] * (1 - 1e-7))


class ChakraTest(unittest.TestCase):
    def test_trace_on_a_two_dimensional_fabric(self):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        fabric = os.path.join(d, "chosen.yaml")
        summary = os.path.join(d, "s.json")
        args = [f"--network={ROOT}/fabrics/two-dim-4x4.yaml",
                f"--workload={ROOT}/traces/gpt-1.7b-16npu/gpt",
                f"--cost-model={INPUTS}/two_dim_cost_model.yml", "--objective=perf",
                "--constraint=sum=225", f"--write-fabric={fabric}", f"--summary={summary}"]
        validate = os.access(REPLAY, os.X_OK)
        if validate:
            args += ["--validate", "--backends=analytical,flow", f"--validate-dir={d}/v"]
        status, out, err = run_cli(args)
        self.assertEqual(status, 0, err)
        with open(summary) as f:
            s = json.load(f)
        self.assertAlmostEqual(sum(s["bandwidth_GBps"]), 225, delta=1e-4)
        # Tensor-parallel groups of 4 stay in a server: dimension 0 carries more bytes.
        self.assertGreater(s["dimension_sent_bytes"][0], s["dimension_sent_bytes"][1])
        if validate:
            runs = s["validation"]["runs"]
            self.assertEqual([r["backend"] for r in runs], ["analytical", "flow"])
            for run in runs:
                self.assertEqual(run["outcome"], "completed")
                # The replay cannot beat the model's compute alone.
                self.assertGreater(run["simulated_ns"], s["compute_ns"])
            # The flow level runs on the written fabric, the analytical model on its view.
            self.assertEqual(runs[1]["fabric"], fabric)
            self.assertTrue(runs[0]["fabric"].endswith("fabric-model-view.yaml"))
        if os.access(FABRIC_INFO, os.X_OK):
            proc = subprocess.run([FABRIC_INFO, f"--fabric={fabric}", f"--dot={d}/f.dot",
                                   "--svg=0", f"--summary={d}/f.json"],
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(f"{d}/f.json") as f:
                info = json.load(f)
            self.assertEqual(info["npus"], 16)


class BadInputTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def expect(self, message, network=None, comm=None, constraints=("sum=500",),
               workload=None, cost_model=None):
        args = [f"--network={network or LIBRA + '/network/4d_network.yml'}",
                f"--workload={workload or LIBRA + '/workload/GPT_3.txt'}",
                f"--communicator={comm or LIBRA + '/communicator/GPT_3_4d.yml'}",
                f"--cost-model={cost_model or LIBRA + '/cost_model/4d_cost_model.yml'}",
                "--objective=perf"] + [f"--constraint={c}" for c in constraints]
        status, out, err = run_cli(args)
        self.assertEqual(status, 2, out)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn(message, err)

    def test_unknown_topology(self):
        net = self.write("n.yml", "Topology: [Ring, Torus, Ring, Switch]\n"
                                  "NpusCount: [4, 8, 4, 32]\n"
                                  "CostDimension: [InterChiplet, InterPackage, InterNode, InterPod]\n")
        self.expect(f"{net}: Topology[1]: unknown topology 'Torus'", network=net)

    def test_communicator_size_that_does_not_divide(self):
        comm = self.write("c.yml", "Forward: [4, 3, -1, -1]\nInputGrad: [4, 4, -1, -1]\n"
                                   "WeightGrad: [-1, 2, 4, 32]\n")
        self.expect(f"{comm}: Forward[1]: 3 NPUs do not divide dimension 1's 8 NPUs",
                    comm=comm)

    def test_infeasible_constraints(self):
        self.expect("the constraints are infeasible together",
                    constraints=("sum=500", "bw0>=400", "bw1>=200"))

    def test_unbounded(self):
        self.expect("nothing bounds bw", constraints=("bw0>=bw1",))

    def test_bad_expressions(self):
        self.expect("bw7 names no dimension", constraints=("bw7=3",))
        self.expect("unexpected '/'", constraints=("bw0/2=3",))
        self.expect("no relation", constraints=("bw0+bw1",))
        self.expect("strict '<'", constraints=("bw0<3",))

    def test_missing_files(self):
        self.expect(f"{self.dir}/none.yml: no such network file",
                    network=f"{self.dir}/none.yml")
        self.expect(f"{self.dir}/none.txt: no such workload file",
                    workload=f"{self.dir}/none.txt")
        self.expect(f"{self.dir}/none.yml: no such cost-model file",
                    cost_model=f"{self.dir}/none.yml")

    def test_bad_workload_line(self):
        w = self.write("w.txt", "L1 -1 10 ALLREDUCE 100 10 NONE 0 10 NONE 0\n")
        self.expect(f"{w}:1: 11 fields", workload=w)
        w = self.write("w2.txt", "L1 -1 10 ALLREDUCE 100 10 BCAST 0 10 NONE 0 10\n")
        self.expect(f"{w}:1: input-grad comm type: unknown 'BCAST'", workload=w)

    def test_cost_model_without_the_dimension(self):
        c = self.write("cost.yml", "InterChiplet: {Link: 2}\n")
        self.expect("no entry 'InterPackage' for dimension 1", cost_model=c)

    def test_unknown_validation_backend(self):
        if not os.access(REPLAY, os.X_OK):
            self.skipTest(f"{REPLAY}: not built")
        status, out, err = run_cli([f"--network={LIBRA}/network/4d_network.yml",
                                    f"--workload={LIBRA}/workload/ResNet_50.txt",
                                    f"--communicator={LIBRA}/communicator/ResNet_50_4d.yml",
                                    f"--cost-model={LIBRA}/cost_model/4d_cost_model.yml",
                                    "--objective=perf", "--constraint=sum=500", "--validate",
                                    "--backends=analytical,abacus", f"--replay-binary={REPLAY}"])
        self.assertEqual(status, 2, out)
        self.assertEqual(err.strip(), "error: --backends: unknown backend 'abacus' "
                         "(analytical, analytical-aware, flow, hybrid, packet)")

    def test_bad_option(self):
        status, out, err = run_cli(["--network=x"])
        self.assertEqual(status, 2)
        self.assertIn("required", err)


if __name__ == "__main__":
    unittest.main()
