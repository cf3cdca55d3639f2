# SPDX-License-Identifier: GPL-2.0-only
"""One point of a sweep: generate its workload, replay it, read where its time went.

Each point writes its workload into its own folder. The generator decides feasibility: a
point it refuses (exit status 2) is pruned with its message as the reason, so that the
rules of the model (TP dividing heads, PP dividing layers, the memory footprint against
HBM) live in one place. The replays are runs of the compare tool's executors.
"""

import json
import os
import subprocess

GEN_TIMEOUT_S = 3600


class Outcome:
    """What became of one point."""

    def __init__(self, point):
        self.point = point
        self.status = "pending"  # generated, pruned, failed, done
        self.reason = ""
        self.footprint = {}
        self.analytical = None
        self.packet = None
        self.packet_note = ""  # why the packet replay did not give figures
        self.prefix = None  # the generated workload's trace prefix


def fabric_yaml(cluster, network):
    """An mlfabric fabric of two Switch dimensions: a scale-up switch per node, and per
    NPU position a scale-out switch across the nodes (rail-optimized), each at its rate
    per NPU. Both the analytical closed forms and the packet level read it."""
    per_node = cluster["npus_per_node"]
    nodes = cluster["npus"] // per_node
    lines = [f"name: dse-{network['name']}",
             f"description: {per_node}-NPU scale-up switch at {network['scale_up']} x "
             f"{nodes} nodes, rail switches at {network['scale_out']} per NPU",
             "routing: dimension-order",
             "defaults:",
             f"  switch_buffer: {cluster.get('switch_buffer', '16MiB')}",
             "  pfc_priorities: [3]",
             "dimensions:",
             f"  - {{name: scale-up, topology: Switch, npus: {per_node}, "
             f"rate: {network['scale_up']}, latency: {cluster.get('scale_up_latency', '25ns')}}}"]
    if nodes > 1:
        lines.append(f"  - {{name: scale-out, topology: Switch, npus: {nodes}, "
                     f"rate: {network['scale_out']}, "
                     f"latency: {cluster.get('scale_out_latency', '500ns')}}}")
    return "\n".join(lines) + "\n"


def remote_memory_json(cluster, memory):
    """ASTRA-sim's remote-memory file for a memory tier (strings carry their units)."""
    doc = {"memory-type": memory["type"], "remote-mem-latency": memory["latency"],
           "remote-mem-bw": memory["bandwidth"]}
    if memory["type"] == "PER_NODE_MEMORY_EXPANSION":
        doc["num-nodes"] = cluster["npus"] // cluster["npus_per_node"]
        doc["num-npus-per-node"] = cluster["npus_per_node"]
    return json.dumps(doc) + "\n"


def gen_arguments(sweep, point, prefix, summary):
    """et-gen transformer's arguments for a point."""
    m = sweep.model
    p = point
    args = ["transformer", f"--npus={sweep.cluster['npus']}", f"--tp={p['tp']}",
            f"--pp={p['pp']}", f"--dp={p['dp']}", f"--micro-batch={p['micro-batch']}",
            f"--sharding={p['sharding']}", f"--recompute={p['recompute']}",
            f"--peak-tflops={p['compute']['peak-tflops']}",
            f"--efficiency={p['compute']['efficiency']}", f"--mem-bw={p['compute']['mem-bw']}",
            f"--hbm={p['hbm']}", f"--out={prefix}", f"--summary={summary}"]
    for key in sorted(m):
        args.append(f"--{key}={m[key]}")
    if p["memory"]["name"] != "none":
        args.append("--memory-expansion=1")
        args.append(f"--offload-overlap={p['memory'].get('overlap', 'serial')}")
    return args


def _error_line(text):
    """The program's last `error:` line, or its last line."""
    lines = text.strip().splitlines()
    errors = [ln[len("error:"):].strip() for ln in lines if ln.startswith("error:")]
    return errors[-1] if errors else (lines[-1] if lines else "no message")


def _groups(path, tp):
    """Communicator-group id -> parallelism kind, from the members' stride."""
    with open(path, encoding="utf-8") as f:
        groups = json.load(f)
    kinds = {}
    for gid, members in groups.items():
        stride = members[1] - members[0] if len(members) > 1 else 0
        kinds[str(gid)] = "tp" if tp > 1 and stride == 1 else "dp"
    return kinds


def read_replay(summary_path, groups_path, tp):
    """The slowest rank's time and breakdown, ns, from a chakra-replay summary."""
    with open(summary_path, encoding="utf-8") as f:
        s = json.load(f)
    ranks = s["ranks"]
    slowest = max(ranks, key=lambda r: r["finish_ns"])
    kinds = _groups(groups_path, tp) if os.path.exists(groups_path) else {}
    # TP collectives sit on the device stream: each one's whole time is exposed. The
    # record of a group's collective is shared by its members; count the slowest rank's.
    tp_ns = 0.0
    for c in s.get("collectives", []):
        if kinds.get(str(c["group"])) == "tp":
            tp_ns += c["end_ns"] - c["start_ns"]
    tp_groups = sum(1 for k in kinds.values() if k == "tp")
    tp_ns = tp_ns / tp_groups if tp_groups else 0.0
    exposed = slowest["exposed_comm_ns"]
    return {"time_ns": slowest["finish_ns"], "compute_ns": slowest["compute_ns"],
            "exposed_comm_ns": exposed, "exposed_tp_ns": min(tp_ns, exposed),
            "exposed_dp_pp_ns": max(0.0, exposed - tp_ns),
            "memory_ns": slowest["remote_memory_ns"],
            "events": s.get("events", 0), "wall_s": s.get("wall_seconds", 0)}


def generate(gen, sweep, point, out_dir):
    """Write the point's workload. Returns (prefix or None, footprint, reason); the
    reason of a generator that failed for another cause than its input starts with
    "et-gen exit"."""
    prefix = os.path.join(out_dir, "w")
    summary = os.path.join(out_dir, "gen.json")
    args = [gen] + gen_arguments(sweep, point, prefix, summary)
    proc = subprocess.run(args, capture_output=True, text=True, timeout=GEN_TIMEOUT_S)
    footprint = {}
    if os.path.exists(summary):
        with open(summary, encoding="utf-8") as f:
            footprint = json.load(f).get("footprint", {})
    if proc.returncode == 2:
        return None, footprint, _error_line(proc.stderr)
    if proc.returncode != 0:
        return None, footprint, f"et-gen exit {proc.returncode}: {_error_line(proc.stderr)}"
    return prefix, footprint, ""


def generate_point(gen, sweep, point, out_dir):
    """Write one point's workload, or prune it. Returns its Outcome: "generated" (with its
    trace prefix), "pruned" or "failed", each with the reason."""
    o = Outcome(point)
    if point["dp"] == 0:
        o.status = "pruned"
        o.reason = (f"TP x PP = {point['tp'] * point['pp']} does not divide the "
                    f"{sweep.cluster['npus']} NPUs")
        return o
    os.makedirs(out_dir, exist_ok=True)
    o.prefix, o.footprint, reason = generate(gen, sweep, point, out_dir)
    if o.prefix is None:
        o.status = "failed" if reason.startswith("et-gen exit") else "pruned"
        o.reason = reason
    else:
        o.status = "generated"
    return o


def remove_traces(prefix, npus):
    """Rank files take room; the packet pass regenerates the few it needs."""
    if os.environ.get("MLFABRIC_DSE_KEEP_TRACES"):
        return
    for r in range(npus):
        try:
            os.remove(f"{prefix}.{r}.et")
        except OSError:
            pass


class ReplayRun:
    """A point's replay on one backend, as a run of the compare tool's executors (local
    processes or a Slurm job array): a stable id for resumption and the chakra-replay
    arguments that write its summary into the folder the executor gives it."""

    def __init__(self, outcome, backend, fabric, memory_json):
        self.outcome = outcome
        self.backend = backend
        self.fabric = fabric
        self.memory_json = memory_json
        self.run_id = f"{outcome.point.point_id}.{backend}"
        self.scheme = f"{backend} {outcome.point.point_id}"  # the progress line's name

    def arguments(self, out_dir):
        """chakra-replay's arguments, its summary in out_dir."""
        args = [f"--workload={self.outcome.prefix}", f"--fabric={self.fabric}",
                f"--backend={self.backend}",
                f"--summary={os.path.join(out_dir, 'summary.json')}", "--progress=1",
                "--collectives=0"]
        if self.memory_json:
            args.append(f"--remote-memory={self.memory_json}")
        return args


def replay_outcome(state, failure_text):
    """(figures, "") of a finished replay run, or (None, why not): the executor's words
    (exit status, signal, the scheduler's state) and the run's last error line."""
    outcome = state.run.outcome
    if state.status in (0, "skipped") and state.summary_exists():
        return read_replay(state.summary_path, outcome.prefix + ".comm-groups.json",
                           outcome.point["tp"]), ""
    reason = failure_text(state)
    log = os.path.join(state.out_dir, "log.txt")
    if os.path.exists(log):
        with open(log, encoding="utf-8", errors="replace") as f:
            reason += f" ({_error_line(f.read())})"
    return None, f"{state.run.backend} replay: {reason}"
