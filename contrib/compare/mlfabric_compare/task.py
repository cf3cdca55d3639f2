# SPDX-License-Identifier: GPL-2.0-only
"""One run of a sweep as a task of a cluster scheduler's job array.

    python3 -m mlfabric_compare.task MANIFEST INDEX

MANIFEST is the JSON list the executor wrote at submission: per task the run's folder and
its command. The task runs the command with its output in the folder's log.txt, then
writes the exit status into the folder's exit-status file (-N for a run killed by
signal N), so that the submitting side
reads each run's log and status from the shared file system, as the local executor does.
"""

import json
import os
import subprocess
import sys

LOG = "log.txt"
EXIT_STATUS = "exit-status"


def run_task(manifest_path, index):
    """Run task `index` of the manifest; returns its exit status."""
    with open(manifest_path, encoding="utf-8") as f:
        tasks = json.load(f)["tasks"]
    if not 0 <= index < len(tasks):
        print(f"error: {manifest_path}: no task {index} (it has {len(tasks)})", file=sys.stderr)
        return 2
    task = tasks[index]
    out_dir = task["out_dir"]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, LOG), "w", encoding="utf-8") as log:
        try:
            status = subprocess.call(task["command"], stdout=log, stderr=subprocess.STDOUT)
        except OSError as e:
            log.write(f"error: cannot start {task['command'][0]}: {e.strerror}\n")
            status = 127
    # Written last, and renamed into place: its presence means the run is over.
    partial = os.path.join(out_dir, EXIT_STATUS + ".partial")
    with open(partial, "w", encoding="utf-8") as f:
        f.write(f"{status}\n")
    os.replace(partial, os.path.join(out_dir, EXIT_STATUS))
    # A run killed by signal N (status -N) ends the task as a shell would: 128 + N.
    return status if status >= 0 else 128 - status


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or not argv[1].isdigit():
        print("usage: python3 -m mlfabric_compare.task MANIFEST INDEX", file=sys.stderr)
        return 2
    return run_task(argv[0], int(argv[1]))


if __name__ == "__main__":
    sys.exit(main())
