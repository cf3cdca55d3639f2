# SPDX-License-Identifier: GPL-2.0-only
"""Running an experiment's simulations as one Slurm job array.

The runs not finished before become the tasks of one array (sbatch), at most `jobs` at
once (the array's % throttle). Each task runs mlfabric_compare.task, which leaves the run's
log.txt and exit-status in its folder; the results folder and the replay program must
therefore be on a file system the compute nodes share. A task that the scheduler ended
before it wrote its status (cancelled, out of time, node failure) is reported with the
scheduler's state, reason and the task's Slurm output file.
"""

import json
import os
import re
import shlex
import subprocess
import sys
import time

from . import task as task_mod
from .runner import prepare_states

POLL_SECONDS = 1.0


class SlurmError(Exception):
    """sbatch, squeue or scontrol failed; the message has their error text."""


def option_error(jobs, executor, sbatch_options):
    """The error in -j, --executor and --sbatch-option as a command line gave them, or None."""
    if jobs is not None and jobs < 1:
        return "-j: must be at least 1"
    if sbatch_options and executor != "slurm":
        return "--sbatch-option: only with --executor=slurm"
    for option in sbatch_options:
        if not option.startswith("-"):
            return (f"--sbatch-option: '{option}' is not an sbatch option "
                    "(e.g. --partition=cpu)")
    return None


def _slurm(command):
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as e:
        raise SlurmError(f"{command[0]}: cannot run: {e.strerror} (is Slurm installed?)") \
            from None
    if done.returncode != 0:
        raise SlurmError(f"{' '.join(command[:2])}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


# Slurm states of a task the scheduler ended, rather than the run itself.
SCHEDULER_ENDED = ("CANCELLED", "TIMEOUT", "PREEMPTED", "NODE_FAIL", "DEADLINE",
                   "OUT_OF_MEMORY")


def _read_status(state):
    try:
        with open(os.path.join(state.out_dir, task_mod.EXIT_STATUS), encoding="utf-8") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def _batch_script(manifest, count, jobs, slurm_dir, options):
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    lines = [
        "#!/bin/bash",
        "#SBATCH --job-name=mlfabric-compare",
        f"#SBATCH --array=0-{count - 1}%{jobs}",
        f"#SBATCH --output={os.path.join(slurm_dir, '%A_%a.out')}",
        "#SBATCH --ntasks=1",
        "#SBATCH --cpus-per-task=1",
    ]
    lines += [f"#SBATCH {opt}" for opt in options]
    lines += [
        f"export PYTHONPATH={shlex.quote(package_dir)}${{PYTHONPATH:+:$PYTHONPATH}}",
        f"exec {shlex.quote(sys.executable)} -m mlfabric_compare.task "
        f"{shlex.quote(manifest)} \"$SLURM_ARRAY_TASK_ID\"",
        "",
    ]
    return "\n".join(lines)


def _queue(job_id):
    """Array task index -> Slurm state, for the tasks still in the queue."""
    try:
        text = _slurm(["squeue", "-h", "-r", "-j", job_id, "-o", "%K %T"])
    except SlurmError as e:
        if "Invalid job id" in str(e):
            return {}
        raise
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit():
            out[int(parts[0])] = parts[1]
    return out


def _final_records(job_id):
    """Array task index -> "STATE (reason Reason, exit code E)" from scontrol."""
    try:
        text = _slurm(["scontrol", "-o", "show", "job", job_id])
    except SlurmError:
        return {}
    out = {}
    for line in text.splitlines():
        fields = dict(re.findall(r"(\w+)=(\S*)", line))
        if fields.get("ArrayTaskId", "").isdigit():
            out[int(fields["ArrayTaskId"])] = (
                f"{fields.get('JobState', '?')} (reason {fields.get('Reason', '?')}, "
                f"exit code {fields.get('ExitCode', '?')})")
    return out


def _render(done, total, skipped, queue, job_id, started):
    running = sum(1 for s in queue.values() if s == "RUNNING")
    waiting = sum(1 for s in queue.values() if s == "PENDING")
    elapsed = int(time.time() - started)
    filled = int(30 * (done + skipped) / total) if total else 30
    return (f"[{'#' * filled}{'.' * (30 - filled)}] {done + skipped}/{total} runs | "
            f"job {job_id}: {running} running, {waiting} pending | "
            f"{elapsed // 60}m{elapsed % 60:02d}s")


def run_all(runs, results_dir, binary, jobs, options=(), stream=None):
    """Submit every run not finished before as one job array and wait for it.

    Returns the list of RunState in the order of `runs`, as runner.run_all does; a run
    the scheduler ended without a status has status "lost" and a `failure` text.
    """
    stream = stream or sys.stderr
    states, pending = prepare_states(runs, results_dir, binary, stream)
    skipped = len(states) - len(pending)
    if not pending:
        return states
    slurm_dir = os.path.join(os.path.abspath(results_dir), "slurm")
    os.makedirs(slurm_dir, exist_ok=True)
    for s in pending:
        for name in (task_mod.EXIT_STATUS, "summary.json"):
            if os.path.exists(os.path.join(s.out_dir, name)):
                os.remove(os.path.join(s.out_dir, name))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    manifest = os.path.join(slurm_dir, f"tasks-{stamp}.json")
    with open(manifest, "w", encoding="utf-8") as f:
        json.dump({"tasks": [{"run_id": s.run.run_id,
                              "out_dir": os.path.abspath(s.out_dir),
                              "command": [binary] + s.run.arguments(os.path.abspath(s.out_dir))}
                             for s in pending]}, f, indent=1)
    script = os.path.join(slurm_dir, f"array-{stamp}.sh")
    with open(script, "w", encoding="utf-8") as f:
        f.write(_batch_script(manifest, len(pending), jobs, slurm_dir, options))
    job_id = _slurm(["sbatch", "--parsable", script]).strip().split(";")[0]
    stream.write(f"submitted {len(pending)} runs as Slurm job array {job_id} ({script})\n")
    started = time.time()
    last_line = 0.0
    tty = stream.isatty()
    try:
        while True:
            for s in pending:
                if s.status is None:
                    s.status = _read_status(s)
            done = sum(1 for s in pending if s.status is not None)
            queue = _queue(job_id) if done < len(pending) else {}
            line = _render(done, len(states), skipped, queue, job_id, started)
            finished = done == len(pending) or not queue
            now = time.time()
            if tty:
                stream.write("\r" + line[:160].ljust(160))
            elif now - last_line >= 10 or finished:
                stream.write(line + "\n")
                last_line = now
            stream.flush()
            if finished:
                break
            time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        subprocess.run(["scancel", job_id], check=False)
        stream.write(f"\ncancelled Slurm job {job_id}\n")
        raise
    if tty:
        stream.write("\n")
    # The queue is empty: a status written in the meantime still counts. A run killed by a
    # signal may have been killed by the scheduler (scancel, a time limit) a moment before
    # its task was, which then still wrote the status: Slurm's record of the task decides.
    lost = []
    signalled = []
    for s in pending:
        if s.status is None:
            s.status = _read_status(s)
        if s.status is None:
            lost.append(s)
        elif s.status < 0:
            signalled.append(s)
    if lost or signalled:
        records = _final_records(job_id)
        for index, s in enumerate(pending):
            ended = records.get(index, "").startswith(SCHEDULER_ENDED)
            if s in lost or (s in signalled and ended):
                s.status = "lost"
                s.failure = (f"Slurm ended task {job_id}_{index} as "
                             f"{records.get(index, 'unknown state')} before it finished; "
                             f"see {os.path.join(slurm_dir, f'{job_id}_{index}.out')}")
    return states

