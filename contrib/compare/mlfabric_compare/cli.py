# SPDX-License-Identifier: GPL-2.0-only
"""`./mlfabric compare`: run an experiment and report it."""

import argparse
import datetime
import os
import sys

from . import experiment as exp
from . import report, runner, slurm


def _parser():
    p = argparse.ArgumentParser(
        prog="mlfabric compare",
        description="Compare congestion control and fabrics on training workloads.")
    p.add_argument("experiment", help="experiment YAML file")
    p.add_argument("-j", "--jobs", type=int, default=None,
                   help="simulations at once (default: the number of cores; with "
                        "--executor=slurm, the job array's limit, default no limit)")
    p.add_argument("--executor", choices=("local", "slurm"), default="local",
                   help="where the runs run: processes on this machine (default), or the "
                        "tasks of one Slurm job array submitted with sbatch")
    p.add_argument("--sbatch-option", action="append", default=[], metavar="OPTION",
                   help="an sbatch option for the job array, e.g. --sbatch-option="
                        "--partition=cpu (repeatable; --executor=slurm only)")
    p.add_argument("--results", default="",
                   help="results folder; runs already finished there are skipped "
                        "(default: results/<name>-<time>)")
    p.add_argument("--backend", choices=exp.BACKENDS,
                   help="replace the experiment's backends (analytical pre-screens a sweep)")
    p.add_argument("--quick", action="store_true",
                   help="the experiment's reduced form (its 'quick' key)")
    p.add_argument("--binary", default="", help="the chakra-replay program")
    return p


def main(argv=None, root=None):
    """Run the command; returns the exit status (2 for bad input)."""
    argv = sys.argv[1:] if argv is None else argv
    # The repository (for the built program and the default results folder); the
    # experiment file and --results are the caller's paths, relative to where they are.
    root = root or os.environ.get("MLFABRIC_ROOT") or os.getcwd()
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    error = slurm.option_error(args.jobs, args.executor, args.sbatch_option)
    if error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        experiment = exp.load_experiment(args.experiment, args.backend, args.quick)
    except exp.ExperimentError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for entry in experiment.workloads + experiment.fabrics:
        path = entry.get("file") or entry["trace"] + ".0.et"
        if not os.path.exists(path):
            print(f"error: {args.experiment}: {entry['name']}: no file {path}", file=sys.stderr)
            return 2
    binary = args.binary or os.path.join(root, "build", "examples", "chakra-replay")
    if not os.access(binary, os.X_OK):
        print(f"error: {binary}: not built (run ./mlfabric build)", file=sys.stderr)
        return 2
    results_dir = args.results or os.path.join(
        root, "results", f"{experiment.name}-{datetime.datetime.now():%Y%m%d-%H%M%S}")
    os.makedirs(results_dir, exist_ok=True)

    runs = experiment.runs()
    bad = runner.check_inputs(runs, binary, args.jobs or os.cpu_count() or 1)
    for run, error in bad:
        print(f"error: {args.experiment}: run {run.run_id}: {error}", file=sys.stderr)
    if bad:
        return 2
    if args.executor == "slurm":
        jobs = args.jobs or len(runs)
        print(f"{experiment.name}: {len(runs)} runs on Slurm, at most {jobs} at once, "
              f"into {results_dir}", file=sys.stderr)
        try:
            states = slurm.run_all(runs, results_dir, os.path.abspath(binary), jobs,
                                   args.sbatch_option)
        except slurm.SlurmError as e:
            print(f"error: --executor=slurm: {e}", file=sys.stderr)
            return 2
    else:
        jobs = args.jobs or os.cpu_count() or 1
        print(f"{experiment.name}: {len(runs)} runs, {jobs} at once, into {results_dir}",
              file=sys.stderr)
        states = runner.run_all(runs, results_dir, binary, jobs)
    rows = []
    failed = []
    for state in states:
        row = report.summarize(state)
        if row is None:
            failed.append(state)
        else:
            rows.append(row)
    report.write_tables(rows, results_dir)
    plots = report.make_plots(states, rows, results_dir)
    command = "./mlfabric compare " + " ".join(argv)
    report.write_report(experiment, rows, [report.failure_text(s) for s in failed], plots,
                        results_dir, command, states)
    print(report.format_table(rows))
    print(f"\nresults: {results_dir}/report.md")
    for state in failed:
        print(f"error: run {report.failure_text(state)}", file=sys.stderr)
    return 1 if failed else 0
