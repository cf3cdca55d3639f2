# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the compare tool: sweep expansion, resumption, result files and report."""

import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stdout, redirect_stderr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from mlfabric_compare import experiment as exp  # noqa: E402
from mlfabric_compare.cli import main  # noqa: E402

FAKE = os.path.join(HERE, "fake_replay.py")


class CompareTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        for name in ("w.0.et", "f.yaml", "g.0.et", "h.yaml"):
            open(os.path.join(self.dir, name), "w").close()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, text, name="exp.yaml"):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def run_main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = main(list(args), root=self.dir)
        return status, out.getvalue(), err.getvalue()

    def test_sweep_is_the_cross_product(self):
        path = self.write("name: sweep\nworkloads: [w, g]\nfabrics: [f.yaml, h.yaml]\n"
                          "schemes: [none, hpcc, dcqcn]\nparameters: {mtu: [1024B, 4096B]}\n"
                          "seeds: [1, 2]\n")
        runs = exp.load_experiment(path).runs()
        self.assertEqual(len(runs), 2 * 2 * 3 * 2 * 2)
        self.assertEqual(len({r.run_id for r in runs}), len(runs))
        args = runs[0].arguments("/out")
        self.assertIn(f"--workload={self.dir}/w", args)
        self.assertIn("--mtu=1024B", args)
        self.assertIn("--RngRun=1", args)
        # Analytical backends have no congestion control: one run per point.
        analytical = exp.load_experiment(path, backend_override="analytical").runs()
        self.assertEqual(len(analytical), 2 * 2 * 2 * 2)
        self.assertTrue(all(r.scheme == "none" for r in analytical))
        # The hybrid runs RoCE at packet level, so every scheme; the flow level none.
        hybrid = exp.load_experiment(path, backend_override="hybrid").runs()
        self.assertEqual(len(hybrid), len(runs))
        self.assertIn("--cc=dcqcn", hybrid[2].arguments("/out"))
        self.assertIn("--backend=hybrid", hybrid[2].arguments("/out"))
        flow = exp.load_experiment(path, backend_override="flow").runs()
        self.assertEqual(len(flow), 2 * 2 * 2 * 2)
        self.assertFalse(any(a.startswith("--cc=") for a in flow[0].arguments("/out")))

    def test_quick_replaces_keys(self):
        path = self.write("name: q\nworkloads: [w]\nfabrics: [f.yaml]\nschemes: [none, hpcc, "
                          "dcqcn, timely]\nquick: {schemes: [none], workloads: [g]}\n")
        runs = exp.load_experiment(path, quick=True).runs()
        self.assertEqual([(r.workload["name"], r.scheme) for r in runs], [("g", "none")])

    def test_bad_input_names_the_key(self):
        cases = {
            "name: x\nworkloads: [w]\nfabrics: [f.yaml]\nschemes: [warp]\n": "schemes",
            "name: x\nworkloads: [w]\nfabrics: [f.yaml]\nbackend: abacus\n": "backend",
            "name: x\nfabrics: [f.yaml]\n": "workloads",
            "name: x\nworkloads: [w]\nfabrics: [f.yaml]\nseeds: [0]\n": "seeds",
            "name: x\nworkloads: [w]\nfabrics: [f.yaml]\nflavour: mint\n": "flavour",
            "name: x\nworkloads: [w, w]\nfabrics: [f.yaml]\n": "workloads",
            "name: [unclosed\n": "exp.yaml:",
        }
        for text, key in cases.items():
            path = self.write(text)
            status, _, err = self.run_main(path, "--binary=" + FAKE)
            self.assertEqual(status, 2, text)
            self.assertTrue(err.startswith("error: "), err)
            self.assertIn(key, err)
            self.assertEqual(err.count("\n"), 1, err)
        status, _, err = self.run_main(self.write("name: x\nworkloads: [nowhere]\n"
                                                  "fabrics: [f.yaml]\n"), "--binary=" + FAKE)
        self.assertEqual(status, 2)
        self.assertIn("nowhere.0.et", err)

    def test_progress_shows_simulated_time_and_estimate(self):
        from mlfabric_compare import runner
        run = exp.load_experiment(self.write("name: p\nworkloads: [w]\nfabrics: [f.yaml]\n"
                                             "schemes: [dcqcn]\n")).runs()[0]
        state = runner.RunState(run, self.dir)
        log = os.path.join(self.dir, "log.txt")
        with open(log, "w", encoding="utf-8") as f:
            f.write("chakra-replay: header\n"
                    "progress: 1975.360 us simulated, 3.17 M events/s, 0/16 ranks finished, "
                    "180/720 nodes, about 38 s left\n")
        state.log = open(log, encoding="utf-8")
        try:
            runner._update_progress(state)
        finally:
            state.log.close()
        self.assertEqual(runner.describe(state), "dcqcn 1.98 ms simulated 25% of nodes ~38 s left")

    def test_quick_without_a_quick_section_is_an_error(self):
        path = self.write("name: q\nworkloads: [w]\nfabrics: [f.yaml]\n")
        status, _, err = self.run_main(path, "--quick", "--binary=" + FAKE)
        self.assertEqual(status, 2)
        self.assertIn("quick", err)
        self.assertEqual(err.count("\n"), 1, err)

    def test_inputs_are_checked_before_any_run(self):
        path = self.write("name: c\nworkloads: [w]\nfabrics: [f.yaml]\n"
                          "schemes: [none, dcqcn, hpcc]\n")
        results = os.path.join(self.dir, "checked")
        counter = os.path.join(self.dir, "calls")
        os.environ["FAKE_REPLAY_COUNTER"] = counter
        os.environ["FAKE_REPLAY_BAD_INPUT"] = "hpcc"
        try:
            status, out, err = self.run_main(path, "--results=" + results, "--binary=" + FAKE)
        finally:
            del os.environ["FAKE_REPLAY_COUNTER"]
            del os.environ["FAKE_REPLAY_BAD_INPUT"]
        self.assertEqual(status, 2)
        # One line naming the run and the program's own error; nothing was simulated.
        self.assertEqual(err.strip().count("\n"), 0, err)
        self.assertIn("hpcc", err)
        self.assertIn("--bogus: unknown argument", err)
        self.assertFalse(os.path.exists(counter))
        self.assertFalse(os.path.exists(os.path.join(results, "report.md")))
        self.assertEqual(out, "")

    def test_results_report_and_resumption(self):
        path = self.write("name: cmp\ndescription: three schemes\nworkloads: [w]\n"
                          "fabrics: [f.yaml]\nschemes: [none, dcqcn, hpcc]\n")
        results = os.path.join(self.dir, "results")
        counter = os.path.join(self.dir, "calls")
        os.environ["FAKE_REPLAY_COUNTER"] = counter
        try:
            status, out, _ = self.run_main(path, "-j", "2", "--results=" + results,
                                           "--binary=" + FAKE)
            self.assertEqual(status, 0)
            with open(counter) as f:
                self.assertEqual(sorted(f.read().split()), ["dcqcn", "hpcc", "none"])
            # Run again into the same folder: nothing is simulated again.
            status, _, _ = self.run_main(path, "--results=" + results, "--binary=" + FAKE)
            self.assertEqual(status, 0)
            with open(counter) as f:
                self.assertEqual(len(f.read().split()), 3)
        finally:
            del os.environ["FAKE_REPLAY_COUNTER"]

        with open(os.path.join(results, "results.json")) as f:
            rows = {r["scheme"]: r for r in json.load(f)["runs"]}
        self.assertEqual(set(rows), {"none", "dcqcn", "hpcc"})
        # Figures come from each run's summary: iteration = slowest rank.
        self.assertAlmostEqual(rows["none"]["iteration_ms"], 3.000007)
        self.assertAlmostEqual(rows["hpcc"]["collective_p50_us"], 200.0)
        self.assertAlmostEqual(rows["hpcc"]["collective_p99_us"], 400.0)
        self.assertEqual(rows["dcqcn"]["pfc_pause_frames"], 20)
        self.assertAlmostEqual(rows["none"]["events_per_s_m"], 2.0)
        self.assertIn("iteration (ms)", out)
        with open(os.path.join(results, "results.csv")) as f:
            self.assertEqual(len(f.read().strip().split("\n")), 4)
        with open(os.path.join(results, "report.md")) as f:
            text = f.read()
        self.assertIn("# cmp", text)
        self.assertIn("three schemes", text)
        # The busiest links: in the table, and in the report by role with every run.
        self.assertEqual(rows["none"]["busiest_link"], "leaf0>spine0")
        self.assertAlmostEqual(rows["none"]["busiest_link_mean_pct"], 60.0)
        self.assertIn("leaf0>spine0 60/90", out)
        self.assertIn("## The busiest links", text)
        # By the highest mean of any run: leaf0>spine0 (up to 60 %) before nic1>leaf0
        # (20 %); the idle spine0>leaf0 last.
        links = [line.split(" | ")[0] for line in text.splitlines()
                 if line.startswith("| ") and ">" in line.split(" | ")[0]]
        self.assertEqual(links[:2], ["| leaf0>spine0", "| nic1>leaf0"])
        self.assertIn("| leaf0>spine0 | leaf>spine | 60.0 / 60.0 | 40.0 / 40.0 | 20.0 / 20.0 |",
                      text)
        for plot in ("iteration-time.png", "collective-cdf.png", "queue-over-time.png",
                     "pfc-pauses.png", "link-utilization.png"):
            self.assertIn(f"]({plot})", text)
            with open(os.path.join(results, plot), "rb") as img:
                self.assertEqual(img.read(8), b"\x89PNG\r\n\x1a\n")

    def test_runs_of_another_build_are_run_again(self):
        path = self.write("name: b\nworkloads: [w]\nfabrics: [f.yaml]\nschemes: [none, hpcc]\n")
        results = os.path.join(self.dir, "results")
        binary = os.path.join(self.dir, "replay.py")
        shutil.copy(FAKE, binary)
        counter = os.path.join(self.dir, "calls")
        os.environ["FAKE_REPLAY_COUNTER"] = counter

        def calls():
            with open(counter) as f:
                return len(f.read().split())
        try:
            self.assertEqual(self.run_main(path, "--results=" + results,
                                           "--binary=" + binary)[0], 0)
            self.assertEqual(calls(), 2)
            # The same build: both runs are kept.
            self.assertEqual(self.run_main(path, "--results=" + results,
                                           "--binary=" + binary)[0], 0)
            self.assertEqual(calls(), 2)
            # Another build of the program: both run again, and the user is told.
            with open(binary, "a", encoding="utf-8") as f:
                f.write("# rebuilt\n")
            status, _, err = self.run_main(path, "--results=" + results, "--binary=" + binary)
            self.assertEqual(status, 0)
            self.assertEqual(calls(), 4)
            self.assertIn("2 finished run(s)", err)
            self.assertIn("another build of replay.py", err)
        finally:
            del os.environ["FAKE_REPLAY_COUNTER"]

    def test_a_failed_run_is_reported_and_retried(self):
        path = self.write("name: f\nworkloads: [w]\nfabrics: [f.yaml]\n"
                          "schemes: [none, timely]\n")
        results = os.path.join(self.dir, "r")
        os.environ["FAKE_REPLAY_FAIL_TIMELY"] = "1"
        try:
            status, _, err = self.run_main(path, "--results=" + results, "--binary=" + FAKE)
        finally:
            del os.environ["FAKE_REPLAY_FAIL_TIMELY"]
        self.assertEqual(status, 1)
        self.assertIn("timely", err)
        with open(os.path.join(results, "report.md")) as f:
            self.assertIn("did not finish", f.read())
        # The failed run has no summary, so a second attempt runs it again.
        status, _, _ = self.run_main(path, "--results=" + results, "--binary=" + FAKE)
        self.assertEqual(status, 0)

    def test_slurm_options_are_checked(self):
        path = self.write("name: s\nworkloads: [w]\nfabrics: [f.yaml]\nschemes: [none]\n")
        status, _, err = self.run_main(path, "--sbatch-option=--partition=x", "--binary=" + FAKE)
        self.assertEqual(status, 2)
        self.assertEqual(err, "error: --sbatch-option: only with --executor=slurm\n")
        status, _, err = self.run_main(path, "--executor=slurm", "--sbatch-option=partition=x",
                                       "--binary=" + FAKE)
        self.assertEqual(status, 2)
        self.assertIn("'partition=x' is not an sbatch option", err)
        status, _, err = self.run_main(path, "--executor=pbs", "--binary=" + FAKE)
        self.assertEqual(status, 2)

    def test_slurm_without_sbatch_is_one_error(self):
        path = self.write("name: s\nworkloads: [w]\nfabrics: [f.yaml]\nschemes: [none]\n")
        saved = os.environ["PATH"]
        # A PATH with python3 (the stand-in replay's interpreter) and no sbatch.
        os.symlink("/usr/bin/python3", os.path.join(self.dir, "python3"))
        os.environ["PATH"] = self.dir
        try:
            status, _, err = self.run_main(path, "--executor=slurm", "--binary=" + FAKE,
                                           "--results=" + os.path.join(self.dir, "r"))
        finally:
            os.environ["PATH"] = saved
        self.assertEqual(status, 2)
        self.assertTrue(err.splitlines()[-1].startswith("error: --executor=slurm: sbatch: "
                                                        "cannot run"), err)


if __name__ == "__main__":
    unittest.main()
