# SPDX-License-Identifier: GPL-2.0-only
"""`./mlfabric compare --executor=slurm` and `./mlfabric dse --executor=slurm` on a real
Slurm: munged, slurmctld and slurmd started on localhost for the test (localhost_slurm.py),
sweeps submitted as job arrays.

Skips only without root (slurmd runs the tasks as the submitting user and needs root to
do so) or, outside CI, without Debian's slurm-wlm and munge; in CI (CI set) a missing
install step fails. Exits 77 when everything skipped, for ctest's SKIP_RETURN_CODE.
"""

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from contextlib import redirect_stdout, redirect_stderr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

sys.path.insert(0, os.path.join(ROOT, "contrib", "dse"))

from localhost_slurm import LocalSlurm, missing_programs  # noqa: E402
from mlfabric_compare.cli import main  # noqa: E402
from mlfabric_dse import cli as dse_cli  # noqa: E402

FAKE = os.path.join(HERE, "fake_replay.py")
BINARY = os.environ.get("MLFABRIC_REPLAY_BINARY", "")
MISSING = missing_programs()
if MISSING and os.environ.get("CI"):
    raise SystemExit(f"error: CI without {', '.join(MISSING)}: ./mlfabric setup installs "
                     "slurm-wlm and munge")
REASON = ("slurmd needs root to run tasks" if os.geteuid() != 0 else
          f"not installed: {', '.join(MISSING)}" if MISSING else "")
# Figures that depend on the machine's speed, not on the simulation.
TIMING_KEYS = {"events_per_s_m", "wall_seconds", "wall_s"}


@unittest.skipIf(REASON, REASON)
class SlurmSweepTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster = LocalSlurm(cpus=2)
        cls.cluster.__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.cluster.__exit__(None, None, None)

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        for name in ("w.0.et", "f.yaml"):
            open(os.path.join(self.dir, name), "w").close()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, text):
        path = os.path.join(self.dir, "exp.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def run_main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = main(list(args), root=self.dir)
        return status, out.getvalue(), err.getvalue()

    def test_array_results_failure_and_resumption(self):
        path = self.write("name: s\nworkloads: [w]\nfabrics: [f.yaml]\n"
                          "schemes: [none, dcqcn, hpcc, timely]\n")
        results = os.path.join(self.dir, "results")
        counter = os.path.join(self.dir, "calls")
        os.environ.update(FAKE_REPLAY_COUNTER=counter, FAKE_REPLAY_FAIL_TIMELY="1")
        try:
            status, out, err = self.run_main(path, "--executor=slurm", "-j", "2",
                                             "--results=" + results, "--binary=" + FAKE)
        finally:
            del os.environ["FAKE_REPLAY_FAIL_TIMELY"]
        self.assertEqual(status, 1, err)
        self.assertIn("as Slurm job array", err)
        with open(counter) as f:
            self.assertEqual(sorted(f.read().split()), ["dcqcn", "hpcc", "none", "timely"])
        with open(os.path.join(results, "results.json")) as f:
            rows = {r["scheme"]: r for r in json.load(f)["runs"]}
        # The same figures as the local executor's test: they come from each summary.
        self.assertEqual(set(rows), {"none", "dcqcn", "hpcc"})
        self.assertAlmostEqual(rows["none"]["iteration_ms"], 3.000007)
        self.assertEqual(rows["dcqcn"]["pfc_pause_frames"], 20)
        self.assertIn("iteration (ms)", out)
        # The failed run's exit status and log came back from the task.
        self.assertIn("timely", err)
        self.assertIn("exited with status 1", err)
        timely = [d for d in os.listdir(os.path.join(results, "runs")) if "timely" in d][0]
        with open(os.path.join(results, "runs", timely, "log.txt")) as f:
            self.assertIn("simulated failure", f.read())
        with open(os.path.join(results, "report.md")) as f:
            self.assertIn("exited with status 1", f.read())
        # Again into the same folder: only the failed run is submitted.
        try:
            status, _, err = self.run_main(path, "--executor=slurm", "--results=" + results,
                                           "--binary=" + FAKE)
        finally:
            del os.environ["FAKE_REPLAY_COUNTER"]
        self.assertEqual(status, 0, err)
        self.assertIn("submitted 1 runs", err)
        with open(counter) as f:
            self.assertEqual(f.read().split().count("timely"), 2)
        with open(os.path.join(results, "results.json")) as f:
            self.assertEqual(len(json.load(f)["runs"]), 4)

    def test_a_task_the_scheduler_ends_is_reported(self):
        path = self.write("name: c\nworkloads: [w]\nfabrics: [f.yaml]\n"
                          "schemes: [none, timely]\n")
        results = os.path.join(self.dir, "results")

        def cancel_the_slow_task():
            # Wait for the slow run's log, then cancel every running task of the array.
            deadline = time.time() + 60
            while time.time() < deadline:
                logs = [os.path.join(results, "runs", d, "log.txt")
                        for d in (os.listdir(os.path.join(results, "runs"))
                                  if os.path.isdir(os.path.join(results, "runs")) else [])
                        if "timely" in d]
                if logs and os.path.exists(logs[0]) and "waiting" in open(logs[0]).read():
                    subprocess.run(["scancel", "--name=mlfabric-compare"], check=False)
                    return
                time.sleep(0.2)

        canceller = threading.Thread(target=cancel_the_slow_task)
        os.environ["FAKE_REPLAY_SLOW_TIMELY"] = "1"
        canceller.start()
        try:
            status, _, err = self.run_main(path, "--executor=slurm", "-j", "1",
                                           "--results=" + results, "--binary=" + FAKE)
        finally:
            canceller.join()
            del os.environ["FAKE_REPLAY_SLOW_TIMELY"]
        self.assertEqual(status, 1, err)
        lost = [line for line in err.splitlines() if "timely" in line and "error" in line]
        self.assertEqual(len(lost), 1, err)
        self.assertIn("CANCELLED", lost[0])
        self.assertIn("before it finished", lost[0])
        with open(os.path.join(results, "results.json")) as f:
            self.assertEqual([r["scheme"] for r in json.load(f)["runs"]], ["none"])

    @unittest.skipUnless(BINARY and os.access(BINARY, os.X_OK), "chakra-replay not built")
    def test_the_same_figures_as_the_local_executor(self):
        path = self.write(
            "name: same\nworkloads:\n  - name: allreduce-8npu\n"
            f"    trace: {ROOT}/traces/allreduce-8npu/allreduce\n"
            f"fabrics: [{ROOT}/fabrics/two-dim-4x2.yaml]\nschemes: [none, hpcc]\n")
        tables = {}
        for executor in ("local", "slurm"):
            results = os.path.join(self.dir, executor)
            status, _, err = self.run_main(path, f"--executor={executor}", "-j", "2",
                                           "--results=" + results, "--binary=" + BINARY)
            self.assertEqual(status, 0, err)
            with open(os.path.join(results, "results.json")) as f:
                tables[executor] = [{k: v for k, v in r.items() if k not in TIMING_KEYS}
                                    for r in json.load(f)["runs"]]
        self.assertEqual(len(tables["slurm"]), 2)
        self.assertGreater(tables["slurm"][0]["iteration_ms"], 0)
        self.assertEqual(tables["local"], tables["slurm"])


# A small design space: 2 TP x 2 PP (DP follows on 4 NPUs) x 2 memory tiers at 20 MB of
# HBM: two points pruned for memory, two offloaded to the pool, the best at packet level.
DSE_SWEEP = """name: dse-slurm
model: {layers: 2, hidden: 256, heads: 4, seq: 128, vocab: 1024, global-batch: 8}
cluster: {npus: 4, npus_per_node: 2}
sweep:
  tp: [1, 2]
  pp: [1, 2]
  compute: [{name: a100, peak-tflops: 312, efficiency: 0.5, mem-bw: 2039GBps}]
  hbm: [20MB]
  memory: [none, {name: pool, type: MEMORY_POOL, latency: 1us, bandwidth: 64GBps}]
  network: [{name: n, scale_up: 2400Gbps, scale_out: 400Gbps}]
packet_top: 1
"""


@unittest.skipIf(REASON, REASON)
@unittest.skipUnless(BINARY and os.access(BINARY, os.X_OK), "chakra-replay not built")
class SlurmDseTest(unittest.TestCase):
    """./mlfabric dse --executor=slurm: the same table as the local executor, a failed
    replay reported for its point, and a second sitting that runs only that one."""

    @classmethod
    def setUpClass(cls):
        cls.cluster = LocalSlurm(cpus=2)
        cls.cluster.__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.cluster.__exit__(None, None, None)

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        build = os.path.dirname(os.path.dirname(BINARY))
        # A build folder whose chakra-replay fails for one point while DSE_FAIL is set.
        self.build = os.path.join(self.dir, "build")
        for sub in ("tools", "examples"):
            os.makedirs(os.path.join(self.build, sub))
        os.symlink(os.path.join(build, "tools", "et-gen"),
                   os.path.join(self.build, "tools", "et-gen"))
        wrapper = os.path.join(self.build, "examples", "chakra-replay")
        with open(wrapper, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\n"
                    "if [ -n \"$DSE_FAIL\" ]; then case \"$*\" in *tp2-pp1-*analytical*)\n"
                    "  echo 'error: simulated failure' >&2; exit 3;; esac; fi\n"
                    f"exec {BINARY} \"$@\"\n")
        os.chmod(wrapper, 0o755)
        self.sweep = os.path.join(self.dir, "sweep.yaml")
        with open(self.sweep, "w", encoding="utf-8") as f:
            f.write(DSE_SWEEP)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def dse(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = dse_cli.main([self.sweep, f"--build={self.build}", "-j", "2"] + list(args),
                                  root=self.dir)
        return status, err.getvalue()

    def table(self, results):
        with open(os.path.join(results, "dse.json"), encoding="utf-8") as f:
            points = json.load(f)
        for p in points:
            for key in ("analytical", "packet"):
                if p[key]:
                    p[key] = {k: v for k, v in p[key].items() if k not in TIMING_KEYS}
        return points

    def test_the_same_table_as_the_local_executor(self):
        local = os.path.join(self.dir, "local")
        status, err = self.dse("--results=" + local)
        self.assertEqual(status, 0, err)

        on_slurm = os.path.join(self.dir, "slurm")
        os.environ["DSE_FAIL"] = "1"
        try:
            status, err = self.dse("--executor=slurm", "--results=" + on_slurm)
        finally:
            del os.environ["DSE_FAIL"]
        self.assertEqual(status, 1, err)
        self.assertIn("as Slurm job array", err)
        failed = [p for p in self.table(on_slurm) if p["status"] == "failed"]
        self.assertEqual([p["id"][:8] for p in failed], ["tp2-pp1-"] * len(failed))
        self.assertEqual(len(failed), 2)
        for p in failed:
            self.assertIn("exited with status 3", p["reason"])
            self.assertIn("simulated failure", p["reason"])
            log = os.path.join(on_slurm, "runs", p["id"] + ".analytical", "log.txt")
            with open(log, encoding="utf-8") as f:
                self.assertIn("simulated failure", f.read())

        # The second sitting submits the failed replays only, then the packet pass.
        status, err = self.dse("--executor=slurm", "--results=" + on_slurm)
        self.assertEqual(status, 0, err)
        self.assertIn(f"submitted {len(failed)} runs", err)
        expected = self.table(local)
        self.assertEqual(len([p for p in expected if p["status"] == "done"]), 6)
        self.assertTrue(any(p["status"] == "pruned" for p in expected))
        self.assertEqual(sum(1 for p in expected if p["packet"]), 1)
        self.assertEqual(self.table(on_slurm), expected)


if __name__ == "__main__":
    result = unittest.main(exit=False).result
    ran = result.testsRun - len(result.skipped)
    if not result.wasSuccessful():
        sys.exit(1)
    sys.exit(77 if ran == 0 else 0)
