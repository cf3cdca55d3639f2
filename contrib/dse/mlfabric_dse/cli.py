# SPDX-License-Identifier: GPL-2.0-only
"""`./mlfabric dse <sweep.yaml>`: generate, prune, replay and rank a design space."""

import argparse
import concurrent.futures
import datetime
import os
import sys

from . import executor, report, run, spec


def _parser():
    p = argparse.ArgumentParser(
        prog="mlfabric dse",
        description="Sweep parallelization x memory x network for a Transformer training "
                    "job: prune what does not fit, replay the rest on the analytical "
                    "network, the best few at packet level.")
    p.add_argument("sweep", help="sweep YAML file")
    p.add_argument("-j", "--jobs", type=int, default=None,
                   help="workloads generated and replays run at once (default: the number "
                        "of cores; with --executor=slurm, the job array's limit on replays, "
                        "default no limit)")
    p.add_argument("--executor", choices=executor.EXECUTORS, default="local",
                   help="where the replays run: processes on this machine (default), or the "
                        "tasks of one Slurm job array per pass, as ./mlfabric compare runs "
                        "them; the results folder must be on a file system the nodes share")
    p.add_argument("--sbatch-option", action="append", default=[], metavar="OPTION",
                   help="an sbatch option for the job arrays, e.g. --sbatch-option="
                        "--partition=cpu (repeatable; --executor=slurm only)")
    p.add_argument("--results", default="",
                   help="results folder; replays already finished there by the same build "
                        "are not run again (default: results/<name>-<time>)")
    p.add_argument("--quick", action="store_true", help="the sweep's reduced form ('quick' key)")
    p.add_argument("--packet-top", type=int, default=None,
                   help="replay this many of the best points at packet level (default: the "
                        "file's packet_top)")
    p.add_argument("--build", default="", help="build folder with tools/et-gen and "
                   "examples/chakra-replay (default: build/)")
    return p


def main(argv=None, root=None):
    """Run the command; returns the exit status (2 for bad input)."""
    argv = sys.argv[1:] if argv is None else argv
    root = root or os.getcwd()
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    if args.jobs is not None and args.jobs < 1:
        print("error: -j: must be at least 1", file=sys.stderr)
        return 2
    if args.sbatch_option and args.executor != "slurm":
        print("error: --sbatch-option: only with --executor=slurm", file=sys.stderr)
        return 2
    for option in args.sbatch_option:
        if not option.startswith("-"):
            print(f"error: --sbatch-option: '{option}' is not an sbatch option "
                  "(e.g. --partition=cpu)", file=sys.stderr)
            return 2
    if args.packet_top is not None and args.packet_top < 0:
        print("error: --packet-top: must be at least 0", file=sys.stderr)
        return 2
    try:
        sweep = spec.load(args.sweep, args.quick)
    except spec.SpecError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    build = args.build or os.path.join(root, "build")
    tools = {"gen": os.path.join(build, "tools", "et-gen"),
             "replay": os.path.join(build, "examples", "chakra-replay")}
    for path in tools.values():
        if not os.access(path, os.X_OK):
            print(f"error: {path}: not built (run ./mlfabric build)", file=sys.stderr)
            return 2
    out = os.path.abspath(args.results or os.path.join(
        root, "results", f"{sweep.name}-{datetime.datetime.now():%Y%m%d-%H%M%S}"))
    os.makedirs(os.path.join(out, "inputs"), exist_ok=True)
    files = {"fabric": {}, "memory": {}}
    for network in sweep.sweep["network"]:
        path = os.path.join(out, "inputs", f"fabric-{network['name']}.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(run.fabric_yaml(sweep.cluster, network))
        files["fabric"][network["name"]] = path
    for memory in sweep.sweep["memory"]:
        if memory["name"] == "none":
            continue
        path = os.path.join(out, "inputs", f"memory-{memory['name']}.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(run.remote_memory_json(sweep.cluster, memory))
        files["memory"][memory["name"]] = path

    points = sweep.points()
    local_jobs = args.jobs or os.cpu_count() or 1
    replay_jobs = args.jobs or (len(points) if args.executor == "slurm" else local_jobs)
    print(f"{sweep.name}: {len(points)} points, {local_jobs} generated at once, replays on "
          f"the {args.executor} executor, into {out}", file=sys.stderr)
    outcomes = [None] * len(points)
    with concurrent.futures.ThreadPoolExecutor(max_workers=local_jobs) as pool:
        futures = {pool.submit(run.generate_point, tools["gen"], sweep, p,
                               os.path.join(out, "points", p.point_id)): i
                   for i, p in enumerate(points)}
        for n, future in enumerate(concurrent.futures.as_completed(futures), 1):
            o = future.result()
            outcomes[futures[future]] = o
            if o.status != "generated":
                print(f"[{n}/{len(points)}] {o.point.label()}: {o.status}: {o.reason}",
                      file=sys.stderr)

    def replay(backend, chosen):
        runs = [run.ReplayRun(o, backend, files["fabric"][o.point["network"]["name"]],
                              files["memory"].get(o.point["memory"]["name"]))
                for o in chosen]
        try:
            return executor.replay_all(runs, out, tools["replay"], args.executor, replay_jobs,
                                       args.sbatch_option)
        finally:
            for o in chosen:
                run.remove_traces(o.prefix, sweep.cluster["npus"])

    try:
        for r, figures, reason in replay("analytical",
                                         [o for o in outcomes if o.status == "generated"]):
            o = r.outcome
            o.analytical = figures
            o.status, o.reason = ("done", "") if figures else ("failed", reason)
            what = f"{figures['time_ns'] / 1e6:.2f} ms" if figures else reason
            print(f"analytical {o.point.label()}: {what}", file=sys.stderr)

        top = sweep.packet_top if args.packet_top is None else args.packet_top
        chosen = []
        for o in report.packet_candidates(outcomes)[:top]:
            # The analytical pass removed the rank files: generate them again.
            o.prefix, _, reason = run.generate(tools["gen"], sweep, o.point,
                                               os.path.join(out, "points", o.point.point_id))
            if o.prefix is None:
                o.packet_note = reason
            else:
                chosen.append(o)
        for r, figures, reason in replay("packet", chosen):
            o = r.outcome
            o.packet, o.packet_note = figures, reason
            what = f"{figures['time_ns'] / 1e6:.2f} ms" if figures else reason
            print(f"packet {o.point.label()}: {what}", file=sys.stderr)
    except executor.SlurmError as e:
        print(f"error: --executor=slurm: {e}", file=sys.stderr)
        return 2

    report.write_data(outcomes, out)
    plots = []
    if report.ranked(outcomes):
        plots += report.plot_parallelism(sweep, outcomes, out)
        plots += report.plot_network_memory(sweep, outcomes, out)
        plots += report.plot_breakdown(report.ranked(outcomes)[:8], out, "best-breakdown")
    report.write_report(sweep, outcomes, plots, out, "./mlfabric dse " + " ".join(argv))
    with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
        print(f.read())
    print(f"results: {out}/report.md")
    failed = [o for o in outcomes if o.status == "failed"]
    for o in failed:
        print(f"error: {o.point.point_id}: {o.reason}", file=sys.stderr)
    return 1 if failed else 0
