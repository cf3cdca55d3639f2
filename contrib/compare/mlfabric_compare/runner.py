# SPDX-License-Identifier: GPL-2.0-only
"""Running an experiment's simulations as parallel processes under one progress bar.

Each run writes into its own folder; a run whose folder holds a summary.json has
finished and is skipped when the experiment is run again into the same results folder.
"""

import os
import re
import subprocess
import sys
import time

# "ranks 3/16" in the replay's progress lines
_RANKS = re.compile(r"(\d+)\s*/\s*(\d+)\s+ranks")


class RunState:
    """A run in progress or done."""

    def __init__(self, run, out_dir):
        self.run = run
        self.out_dir = out_dir
        self.process = None
        self.log = None
        self.status = None
        self.ranks_done = 0
        self.ranks = 0
        self.read_offset = 0
        # Why a run has no result beyond its exit status (an executor's own words).
        self.failure = None

    @property
    def summary_path(self):
        return os.path.join(self.out_dir, "summary.json")

    def finished_before(self):
        return os.path.exists(self.summary_path)


def _update_progress(state):
    """Read the newest ranks-finished figure from the run's log."""
    try:
        with open(state.log.name, encoding="utf-8", errors="replace") as f:
            f.seek(state.read_offset)
            text = f.read()
            state.read_offset = f.tell()
    except OSError:
        return
    for match in _RANKS.finditer(text):
        state.ranks_done, state.ranks = int(match.group(1)), int(match.group(2))


def _bar(done, total, width=30):
    filled = int(width * done / total) if total else width
    return "[" + "#" * filled + "." * (width - filled) + "]"


def _render(states, started, total, skipped):
    done = sum(1 for s in states if s.status is not None) + skipped
    running = [s for s in states if s.process is not None and s.status is None]
    parts = [f"{_bar(done, total)} {done}/{total} runs"]
    for s in running:
        ranks = f" {s.ranks_done}/{s.ranks} ranks" if s.ranks else ""
        parts.append(f"{s.run.scheme}{ranks}")
    elapsed = int(time.time() - started)
    parts.append(f"{elapsed // 60}m{elapsed % 60:02d}s")
    return " | ".join(parts)


def prepare_states(runs, results_dir):
    """Every run's folder and state; returns (states, the runs not finished before)."""
    states = []
    for run in runs:
        out_dir = os.path.join(results_dir, "runs", run.run_id)
        os.makedirs(out_dir, exist_ok=True)
        states.append(RunState(run, out_dir))
    pending = [s for s in states if not s.finished_before()]
    for s in states:
        if s.finished_before():
            s.status = "skipped"
    return states, pending


def run_all(runs, results_dir, binary, jobs, stream=sys.stderr):
    """Run every run not finished before, at most `jobs` at once.

    Returns the list of RunState, in the order of `runs`. A run that exits non-zero keeps
    its log and has no summary; the caller reports it.
    """
    states, pending = prepare_states(runs, results_dir)
    skipped = len(states) - len(pending)
    states_to_show = [s for s in states if s.status is None]
    tty = stream.isatty()
    started = time.time()
    last_line = 0.0
    active = []
    while pending or active:
        while pending and len(active) < jobs:
            s = pending.pop(0)
            s.log = open(os.path.join(s.out_dir, "log.txt"), "w", encoding="utf-8")
            s.process = subprocess.Popen([binary] + s.run.arguments(s.out_dir),
                                         stdout=s.log, stderr=subprocess.STDOUT)
            active.append(s)
        time.sleep(0.2)
        for s in list(active):
            _update_progress(s)
            code = s.process.poll()
            if code is not None:
                s.log.close()
                s.status = code
                active.remove(s)
        now = time.time()
        line = _render(states_to_show, started, len(states), skipped)
        if tty:
            stream.write("\r" + line[:160].ljust(160))
            stream.flush()
        elif now - last_line >= 10 or (not pending and not active):
            stream.write(line + "\n")
            stream.flush()
            last_line = now
    if tty:
        stream.write("\n")
    return states
