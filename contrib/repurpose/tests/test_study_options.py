# SPDX-License-Identifier: GPL-2.0-only
"""The study's folder options fail before any work, with one line and status 2."""

import io
import os
import unittest
from contextlib import redirect_stderr

import shared
from mlfabric_repurpose import study


def run_study(*args):
    err = io.StringIO()
    with redirect_stderr(err):
        status = study.main(list(args))
    return status, err.getvalue()


class StudyOptionsTest(unittest.TestCase):
    def test_out_that_is_a_file_is_refused(self):
        path = os.path.join(shared.folder(), "a-file")
        with open(path, "w", encoding="utf-8") as f:
            f.write("x")
        status, err = run_study(f"--out={path}")
        self.assertEqual(status, 2)
        self.assertEqual(err.strip(), f"error: --out: {path}: not a folder")

    def test_plot_only_without_results_is_refused(self):
        folder = os.path.join(shared.folder(), "empty-study")
        os.makedirs(folder, exist_ok=True)
        status, err = run_study(f"--out={folder}", "--plot-only")
        self.assertEqual(status, 2)
        self.assertIn("--plot-only", err)
        self.assertIn(os.path.join(folder, "repurpose.json"), err)
        self.assertEqual(len(err.strip().splitlines()), 1)


if __name__ == "__main__":
    unittest.main()
