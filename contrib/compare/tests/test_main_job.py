# SPDX-License-Identifier: GPL-2.0-only
"""The main job in its reduced form, on the real replay program.

Runs when MLFABRIC_REPLAY_BINARY names the built chakra-replay (ctest sets it)."""

import csv
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
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

from mlfabric_compare.cli import main  # noqa: E402

BINARY = os.environ.get("MLFABRIC_REPLAY_BINARY", "")


@unittest.skipUnless(BINARY and os.access(BINARY, os.X_OK), "chakra-replay not built")
class MainJobQuickTest(unittest.TestCase):
    def test_quick_comparison_writes_every_output(self):
        results = tempfile.mkdtemp()
        try:
            out, err = io.StringIO(), io.StringIO()
            with redirect_stdout(out), redirect_stderr(err):
                status = main([os.path.join(ROOT, "experiments", "cc-compare.yaml"), "--quick",
                               "-j", "2", "--results=" + results, "--binary=" + BINARY],
                              root=ROOT)
            self.assertEqual(status, 0, err.getvalue())
            with open(os.path.join(results, "results.json")) as f:
                rows = json.load(f)["runs"]
            self.assertEqual(sorted(r["scheme"] for r in rows), ["dcqcn", "hpcc", "none"])
            for row in rows:
                # One 1 MiB all-reduce on 8 NPUs over two servers: a ring of 8 sends
                # 2 x 7/8 MiB per NPU, so the iteration takes at least that at 200 Gb/s.
                self.assertGreater(row["iteration_ms"], 2 * 7 / 8 * 2**20 * 8 / 200e9 * 1e3)
                self.assertLess(row["iteration_ms"], 5.0)
                self.assertEqual(row["drops"], 0)
                self.assertIsNotNone(row["peak_queue_kib"])
            with open(os.path.join(results, "results.csv")) as f:
                self.assertEqual(len(list(csv.DictReader(f))), 3)
            for name in ("report.md", "iteration-time.png", "collective-cdf.png",
                         "queue-over-time.png", "pfc-pauses.png"):
                self.assertTrue(os.path.getsize(os.path.join(results, name)) > 0, name)
            self.assertIn("iteration (ms)", out.getvalue())
        finally:
            shutil.rmtree(results)


if __name__ == "__main__":
    unittest.main()
