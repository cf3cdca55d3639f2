# SPDX-License-Identifier: GPL-2.0-only
"""Running an experiment's simulations as parallel processes under one progress bar.

Each run writes into its own folder; a run whose folder holds a summary.json has
finished and is skipped when the experiment is run again into the same results folder,
provided the same build of the simulator made it: a results folder never mixes runs of
two builds.
"""

import hashlib
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

# The replay's progress lines: "progress: 1975.360 us simulated, 3.17 M events/s,
# 0/16 ranks finished, 123/720 nodes, about 38 s left".
_RANKS = re.compile(r"(\d+)\s*/\s*(\d+)\s+ranks")
_SIMULATED = re.compile(r"progress: ([0-9.]+) us simulated")
_NODES = re.compile(r"(\d+)/(\d+) nodes")
_LEFT = re.compile(r"about (\d+) s left")


# The digest of the simulator that made a run, beside its summary.
BUILD_ID = "build-id"


def build_id(binary):
    """A digest of the simulator: the program and the mlfabric libraries it loads."""
    paths = [binary]
    try:
        linked = subprocess.run(["ldd", binary], capture_output=True, text=True, check=False)
        paths += sorted(line.split("=>")[1].split("(")[0].strip()
                        for line in linked.stdout.splitlines()
                        if "mlfabric" in line and "=>" in line)
    except OSError:
        pass  # no ldd: the program alone
    digest = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


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
        self.simulated_us = None
        self.nodes_done = 0
        self.nodes = 0
        self.seconds_left = None
        self.read_offset = 0
        # Why a run has no result beyond its exit status (an executor's own words).
        self.failure = None

    @property
    def summary_path(self):
        return os.path.join(self.out_dir, "summary.json")

    @property
    def build_path(self):
        return os.path.join(self.out_dir, BUILD_ID)

    def summary_exists(self):
        return os.path.exists(self.summary_path)

    def finished_before(self, build):
        """True if the run finished in an earlier sitting with the build `build`."""
        if not self.summary_exists():
            return False
        try:
            with open(self.build_path, encoding="utf-8") as f:
                return f.read().strip() == build
        except OSError:
            return False


def _update_progress(state):
    """Read the newest ranks-finished figure from the run's log."""
    try:
        with open(state.log.name, encoding="utf-8", errors="replace") as f:
            f.seek(state.read_offset)
            text = f.read()
            state.read_offset = f.tell()
    except OSError:
        return
    for line in text.splitlines():
        if not line.startswith("progress: "):
            continue
        ranks, simulated = _RANKS.search(line), _SIMULATED.search(line)
        nodes, left = _NODES.search(line), _LEFT.search(line)
        if ranks:
            state.ranks_done, state.ranks = int(ranks.group(1)), int(ranks.group(2))
        if simulated:
            state.simulated_us = float(simulated.group(1))
        if nodes:
            state.nodes_done, state.nodes = int(nodes.group(1)), int(nodes.group(2))
        state.seconds_left = int(left.group(1)) if left else None


def describe(state):
    """A running run in the progress line: simulated time, share of nodes, estimate."""
    parts = [state.run.scheme]
    if state.simulated_us is not None:
        parts.append(f"{state.simulated_us / 1e3:.2f} ms simulated")
    if state.nodes:
        parts.append(f"{100 * state.nodes_done // state.nodes}% of nodes")
    elif state.ranks:
        parts.append(f"{state.ranks_done}/{state.ranks} ranks")
    if state.seconds_left is not None:
        parts.append(f"~{state.seconds_left} s left")
    return " ".join(parts)


def _bar(done, total, width=30):
    filled = int(width * done / total) if total else width
    return "[" + "#" * filled + "." * (width - filled) + "]"


def _render(states, started, total, skipped):
    done = sum(1 for s in states if s.status is not None) + skipped
    running = [s for s in states if s.process is not None and s.status is None]
    parts = [f"{_bar(done, total)} {done}/{total} runs"]
    for s in running:
        parts.append(describe(s))
    elapsed = int(time.time() - started)
    parts.append(f"{elapsed // 60}m{elapsed % 60:02d}s")
    return " | ".join(parts)


def _check_one(run, binary):
    """None if the run's inputs are good, else the program's error line."""
    with tempfile.TemporaryDirectory(prefix="mlfabric-check-") as scratch:
        # A run of one picosecond reads and checks every input and builds the network;
        # stopping at the time limit is status 1, bad input status 2.
        command = [binary] + run.arguments(scratch) + ["--stop=1ps", "--progress=0"]
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, errors="replace", check=False)
    if done.returncode in (0, 1):
        return None
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    if errors:
        return errors[-1][len("error: "):]
    return f"{os.path.basename(binary)} ended with status {done.returncode}"


def check_inputs(runs, binary, jobs):
    """Check every run's inputs before any simulation: [(run, error line)] of bad ones."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(lambda run: _check_one(run, binary), runs))
    return [(run, error) for run, error in zip(runs, results) if error]


def prepare_states(runs, results_dir, binary, stream=None):
    """Every run's folder and state; returns (states, the runs to run now).

    A run finished before by another build of `binary` runs again. Each run to run now
    gets the build's digest in its folder, so that its summary is known to be this
    build's."""
    stream = stream or sys.stderr
    build = build_id(binary)
    states = []
    for run in runs:
        out_dir = os.path.join(results_dir, "runs", run.run_id)
        os.makedirs(out_dir, exist_ok=True)
        states.append(RunState(run, out_dir))
    pending = [s for s in states if not s.finished_before(build)]
    stale = [s for s in pending if s.summary_exists()]
    if stale:
        stream.write(f"compare: {len(stale)} finished run(s) in {results_dir} were made by "
                     f"another build of {os.path.basename(binary)}; running them again\n")
    for s in states:
        if s in pending:
            if s.summary_exists():
                os.remove(s.summary_path)
            with open(s.build_path, "w", encoding="utf-8") as f:
                f.write(build + "\n")
        else:
            s.status = "skipped"
    return states, pending


def run_all(runs, results_dir, binary, jobs, stream=None):
    """Run every run not finished before, at most `jobs` at once.

    Returns the list of RunState, in the order of `runs`. A run that exits non-zero keeps
    its log and has no summary; the caller reports it.
    """
    stream = stream or sys.stderr
    states, pending = prepare_states(runs, results_dir, binary, stream)
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
