# SPDX-License-Identifier: GPL-2.0-only
"""The design-space sweep: input errors, and the quick form of the COMET study end to end
(pruning with reasons, ranking, memory expansion, packet replay of the best, plots)."""

import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "contrib", "dse"))

from mlfabric_dse import cli, report, run, spec  # noqa: E402

SWEEP = os.path.join(ROOT, "experiments", "comet", "comet-1t.yaml")
BUILD = os.environ.get("MLFABRIC_BINARY_DIR", os.path.join(ROOT, "build"))


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(argv, root=ROOT)
    return code, out.getvalue(), err.getvalue()


class SpecErrors(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="mlfabric-dse-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, text):
        path = os.path.join(self.dir, "s.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def test_unknown_and_missing_keys_name_the_key(self):
        base = ("model: {layers: 4}\ncluster: {npus: 8, npus_per_node: 4}\n"
                "sweep: {hbm: [80GB], network: [{name: n, scale_up: 1Tbps, scale_out: 1Tbps}],"
                " compute: [{name: c, peak-tflops: 1, efficiency: 1, mem-bw: 1TBps}]")
        cases = {base + ", tpp: [1]}\n": "sweep.tpp: unknown key",
                 base + "}\nmodle: {}\n": "modle: unknown key",
                 base + ", tp: [0]}\n": "sweep.tp: whole numbers from 1",
                 base.replace("npus_per_node: 4", "npus_per_node: 3") + "}\n":
                     "cluster.npus: must be a multiple of npus_per_node",
                 base + ", memory: [{name: m, type: CXL, latency: 1us, bandwidth: 1GBps}]}\n":
                     "sweep.memory[0].type: unknown type 'CXL'",
                 base + ", memory: [{name: m, latency: 1us}]}\n":
                     "sweep.memory[0]: missing type, bandwidth",
                 base + ", memory: [{name: m, type: MEMORY_POOL, latency: 1us, bandwidth: 1GBps,"
                        " overlap: eager}]}\n":
                     "sweep.memory[0].overlap: unknown overlap 'eager'"}
        for text, message in cases.items():
            path = self.write(text)
            code, _, err = _run([path, f"--build={BUILD}"])
            self.assertEqual(code, 2, text)
            self.assertIn(f"{path}: {message}", err)
        code, _, err = _run([os.path.join(self.dir, "absent.yaml")])
        self.assertEqual(code, 2)
        self.assertIn("absent.yaml: cannot read", err)


class Ranking(unittest.TestCase):
    @staticmethod
    def outcome(tp, memory, fits, analytical, packet=None):
        o = run.Outcome(spec.Point({"tp": tp, "pp": 1, "dp": 1, "micro-batch": 1,
                                    "sharding": "none", "recompute": "none",
                                    "compute": {"name": "c"}, "hbm": "1GB",
                                    "memory": {"name": memory}, "network": {"name": "n"}}))
        o.status, o.footprint = "done", {"fits": fits}
        o.analytical = {"time_ns": analytical}
        o.packet = {"time_ns": packet} if packet else None
        return o

    def test_a_twin_that_offloads_nothing_is_not_replayed_twice(self):
        a = self.outcome(1, "none", True, 10)
        b = self.outcome(1, "cxl", True, 10)  # fits: the same run as a
        c = self.outcome(2, "cxl", False, 11)  # offloads: a run of its own
        d = self.outcome(2, "none", True, 12)
        chosen = report.packet_candidates([a, b, c, d])
        self.assertEqual(chosen, [a, c, d])
        self.assertEqual(report.packet_candidates([b, a, c, d]), [a, c, d])

    def test_kendall_tau_of_the_two_orders(self):
        points = [self.outcome(t, "none", True, a, p)
                  for t, a, p in ((1, 10, 20), (2, 11, 19), (4, 12, 30), (8, 13, 31))]
        rows, tau = report.ranking_agreement(points)
        # One discordant pair of six: (5 - 1) / 6.
        self.assertAlmostEqual(tau, 4 / 6)
        self.assertEqual([(ra, rp) for _, ra, rp in rows], [(1, 2), (2, 1), (3, 3), (4, 4)])
        self.assertIsNone(report.ranking_agreement(points[:1])[1])


@unittest.skipUnless(os.access(os.path.join(BUILD, "tools", "et-gen"), os.X_OK) and
                     os.access(os.path.join(BUILD, "examples", "chakra-replay"), os.X_OK),
                     "et-gen and chakra-replay are not built")
class QuickSweep(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="mlfabric-dse-")
        cls.code, cls.out, cls.err = _run([SWEEP, "--quick", "-j", "2", f"--build={BUILD}",
                                           f"--results={cls.dir}"])
        with open(os.path.join(cls.dir, "dse.json"), encoding="utf-8") as f:
            cls.points = json.load(f)
        cls.sweep = spec.load(SWEEP, quick=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def find(self, **values):
        out = []
        for p in self.points:
            point = p["point"]
            if all((point[k]["name"] if isinstance(point[k], dict) else point[k]) == v
                   for k, v in values.items()):
                out.append(p)
        return out

    def test_every_point_is_reported(self):
        self.assertEqual(self.code, 0, self.err)
        # tp 3 x pp 4 x 1 x 1 x 1 x hbm 2 x memory 2 x network 2
        self.assertEqual(len(self.points), 3 * 4 * 2 * 2 * 2)
        self.assertEqual(len(self.points), len(self.sweep.points()))
        self.assertTrue(all(p["status"] in ("done", "pruned") for p in self.points))

    def test_bad_ranges_are_pruned_per_point_with_the_reason(self):
        for p in self.find(tp=4):
            self.assertEqual(p["status"], "pruned")
            if p["point"]["dp"]:
                self.assertIn("--tp (4) must divide --heads (6)", p["reason"])
        for p in self.find(pp=4, tp=1):
            self.assertEqual(p["status"], "pruned")
            self.assertIn("--pp (4) must divide --layers (6)", p["reason"])
        for p in self.find(pp=3):
            self.assertEqual(p["status"], "pruned")
            self.assertIn("does not divide the 8 NPUs", p["reason"])

    def test_memory_decides_feasibility_and_expansion_runs_it(self):
        small = self.find(tp=1, pp=2, hbm="40MB", memory="none")
        self.assertTrue(small)
        for p in small:
            self.assertEqual(p["status"], "pruned")
            self.assertIn("per device, HBM holds 0.04 GB (no memory expansion)", p["reason"])
            self.assertFalse(p["footprint"]["fits"])
        for p in self.find(tp=1, pp=2, hbm="40MB", memory="pool"):
            self.assertEqual(p["status"], "done", p["reason"])
            self.assertGreater(p["footprint"]["offloaded"]["optimizer_bytes"], 0)
            self.assertGreater(p["analytical"]["memory_ns"], 0)
        for p in self.find(tp=1, pp=2, hbm="400MB"):
            self.assertEqual(p["status"], "done")
            self.assertTrue(p["footprint"]["fits"])
            self.assertEqual(p["analytical"]["memory_ns"], 0)
        # The same point is slower with its optimizer state in remote memory.
        for net in ("slow", "fast"):
            with_pool = self.find(tp=1, pp=2, hbm="40MB", memory="pool", network=net)[0]
            fits = self.find(tp=1, pp=2, hbm="400MB", memory="none", network=net)[0]
            self.assertGreater(with_pool["analytical"]["time_ns"], fits["analytical"]["time_ns"])

    def test_breakdown_adds_up_and_the_faster_network_helps(self):
        for p in self.find(hbm="400MB"):
            if p["status"] != "done":
                continue
            a = p["analytical"]
            self.assertAlmostEqual(a["exposed_tp_ns"] + a["exposed_dp_pp_ns"],
                                   a["exposed_comm_ns"], delta=1)
            self.assertLessEqual(a["compute_ns"], a["time_ns"])
        for tp, pp in ((2, 1), (1, 2), (2, 2)):
            slow = self.find(tp=tp, pp=pp, hbm="400MB", memory="none", network="slow")[0]
            fast = self.find(tp=tp, pp=pp, hbm="400MB", memory="none", network="fast")[0]
            self.assertLess(fast["analytical"]["time_ns"], slow["analytical"]["time_ns"])
            # Compute does not depend on the network.
            self.assertEqual(fast["analytical"]["compute_ns"], slow["analytical"]["compute_ns"])

    def test_ranked_report_packet_replay_and_plots(self):
        done = sorted((p for p in self.points if p["status"] == "done"),
                      key=lambda p: p["analytical"]["time_ns"])
        best = done[0]
        self.assertIsNotNone(best["packet"], best["packet_note"])
        # The packet level sees the same compute and no less time than an idealised network
        # would need for it.
        self.assertEqual(best["packet"]["compute_ns"], best["analytical"]["compute_ns"])
        self.assertGreater(best["packet"]["time_ns"], best["analytical"]["compute_ns"])
        with open(os.path.join(self.dir, "report.md"), encoding="utf-8") as f:
            report = f.read()
        spread = done[-1]["analytical"]["time_ns"] / best["analytical"]["time_ns"]
        self.assertIn(f"Spread, worst / best feasible: {spread:.2f}x", report)
        self.assertIn("## Pruned", report)
        self.assertIn("Memory-expansion gain", report)
        for name in ("heatmap-parallelism", "heatmap-network-memory", "best-breakdown"):
            for ext in ("png", "svg"):
                self.assertGreater(os.path.getsize(os.path.join(self.dir, f"{name}.{ext}")), 1000)


if __name__ == "__main__":
    unittest.main()
