# SPDX-License-Identifier: GPL-2.0-only
"""The sweep's replays on the compare tool's executors, the same code `./mlfabric compare`
runs: local processes (at most -j at once) or the tasks of one Slurm job array.

Each replay runs in results/runs/<point>.<backend>/ with its log.txt (and under Slurm its
exit-status); a replay whose summary.json a run of the same build left there is not run
again, so a sweep stopped or partly failed resumes into the same --results folder.
"""

import os
import sys

try:
    from mlfabric_compare import report as compare_report
    from mlfabric_compare import runner, slurm
except ImportError:  # run from a clone without contrib/compare on the path
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "compare"))
    from mlfabric_compare import report as compare_report
    from mlfabric_compare import runner, slurm

from . import run

EXECUTORS = ("local", "slurm")
SlurmError = slurm.SlurmError


def replay_all(runs, results_dir, binary, executor, jobs, sbatch_options=()):
    """Run the ReplayRuns; returns [(run, figures or None, reason)] in their order.

    Raises SlurmError when sbatch, squeue or scontrol fail."""
    if not runs:
        return []
    if executor == "slurm":
        states = slurm.run_all(runs, results_dir, os.path.abspath(binary), jobs, sbatch_options)
    else:
        states = runner.run_all(runs, results_dir, binary, jobs)
    out = []
    for state in states:
        figures, reason = run.replay_outcome(state, compare_report.failure_text)
        out.append((state.run, figures, reason))
    return out
