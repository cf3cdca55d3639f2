# SPDX-License-Identifier: GPL-2.0-only
"""One point of a sweep: generate its workload, replay it, read where its time went.

Each point writes into its own folder. The generator decides feasibility: a point it
refuses (exit status 2) is pruned with its message as the reason, so that the rules of
the model (TP dividing heads, PP dividing layers, the memory footprint against HBM) live
in one place.
"""

import json
import os
import subprocess

GEN_TIMEOUT_S = 3600
REPLAY_TIMEOUT_S = 6 * 3600


class Outcome:
    """What became of one point."""

    def __init__(self, point):
        self.point = point
        self.status = "pending"  # pruned, failed, done
        self.reason = ""
        self.footprint = {}
        self.analytical = None
        self.packet = None
        self.packet_note = ""  # why the packet replay did not give figures


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


def replay(binary, backend, prefix, fabric, memory_json, out_dir, tp):
    """Run chakra-replay on a generated workload; returns (figures or None, message)."""
    summary = os.path.join(out_dir, f"{backend}.json")
    args = [binary, f"--workload={prefix}", f"--fabric={fabric}", f"--backend={backend}",
            f"--summary={summary}", "--progress=0", "--collectives=0"]
    if memory_json:
        args.append(f"--remote-memory={memory_json}")
    with open(os.path.join(out_dir, f"{backend}.log"), "w", encoding="utf-8") as log:
        try:
            code = subprocess.run(args, stdout=log, stderr=subprocess.STDOUT,
                                  timeout=REPLAY_TIMEOUT_S).returncode
        except subprocess.TimeoutExpired:
            return None, f"{backend} replay exceeded {REPLAY_TIMEOUT_S} s"
    if code != 0 or not os.path.exists(summary):
        with open(os.path.join(out_dir, f"{backend}.log"), encoding="utf-8",
                  errors="replace") as f:
            return None, f"{backend} replay exit {code}: {_error_line(f.read())}"
    return read_replay(summary, prefix + ".comm-groups.json", tp), ""


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


def run_point(tools, sweep, point, out_dir, files):
    """Generate and replay (analytical) one point."""
    o = Outcome(point)
    if point["dp"] == 0:
        o.status = "pruned"
        o.reason = (f"TP x PP = {point['tp'] * point['pp']} does not divide the "
                    f"{sweep.cluster['npus']} NPUs")
        return o
    os.makedirs(out_dir, exist_ok=True)
    prefix, o.footprint, reason = generate(tools["gen"], sweep, point, out_dir)
    if prefix is None:
        o.status = "failed" if reason.startswith("et-gen exit") else "pruned"
        o.reason = reason
        return o
    memory = files["memory"].get(point["memory"]["name"])
    o.analytical, reason = replay(tools["replay"], "analytical", prefix,
                                  files["fabric"][point["network"]["name"]], memory, out_dir,
                                  point["tp"])
    o.status, o.reason = ("done", "") if o.analytical else ("failed", reason)
    if o.status == "done" and not os.environ.get("MLFABRIC_DSE_KEEP_TRACES"):
        _remove_traces(prefix, sweep.cluster["npus"])
    return o


def _remove_traces(prefix, npus):
    """Rank files take room; the packet pass regenerates the few it needs."""
    for r in range(npus):
        try:
            os.remove(f"{prefix}.{r}.et")
        except OSError:
            pass


def run_packet(tools, sweep, outcome, out_dir, files):
    """Replay a point at packet level (regenerating its workload)."""
    prefix, _, reason = generate(tools["gen"], sweep, outcome.point, out_dir)
    if prefix is None:
        return None, reason
    memory = files["memory"].get(outcome.point["memory"]["name"])
    figures, reason = replay(tools["replay"], "packet", prefix,
                             files["fabric"][outcome.point["network"]["name"]], memory, out_dir,
                             outcome.point["tp"])
    _remove_traces(prefix, sweep.cluster["npus"])
    return figures, reason
