# SPDX-License-Identifier: GPL-2.0-only
"""--validate: replay the workload with chakra-replay on the chosen bandwidths and set the
model's prediction beside what the simulators measure.

* analytical: ASTRA-sim's congestion-unaware model on LIBRA's view of the fabric (every
  dimension Ring, FullyConnected or Switch; a scale-out Clos as one switch);
* packet: the RoCE packet-level network on the written fabric (a Clos with its
  oversubscription, PFC, queues);
* flow, hybrid: the flow level, or flow level inside scale-up dimensions and packet
  level elsewhere, on the written fabric (doc/replay.md).

LIBRA's layer-wise text becomes a Chakra workload first (et_writer.py): one chain per NPU
in the order of LIBRA's no-overlap loop, a group per communicator."""

import json
import os
import subprocess
import tempfile

from .fabric_out import fabric_dict
from .model import build_problem
from .network import InputError
from .et_writer import write_libra_as_chakra

import yaml

PACKET_NPU_LIMIT = 256
#: chakra-replay backends the validation runs; the flow, hybrid and packet ones on the
#: fabric written with the chosen bandwidths, the analytical ones on LIBRA's view of it
BACKENDS = ("analytical", "analytical-aware", "flow", "hybrid", "packet")
#: the backends that simulate packets, and so have a size limit here
PACKET_LEVEL = ("hybrid", "packet")
ANALYTICAL_NPU_LIMIT = 4096


def _latency_ns(network, workload, default_ns):
    """What the model leaves out: per collective, its steps x the hop latency, summed over
    the slowest NPU's collectives (ring steps: all-reduce 2(c-1), the others c-1; a
    switch trip is two hops)."""
    total = 0.0
    view = workload.views[0]
    for c in view.comms:
        for d, size in enumerate(c.comm):
            if size <= 1:
                continue
            dim = network.dims[d]
            lat = dim.latency_ns if dim.latency_ns is not None else default_ns
            hop = lat * (2 if dim.topology == "Switch" else 1)
            steps = 2 * (size - 1) if c.kind == "ALLREDUCE" else size - 1
            if c.kind == "SENDRECV":
                steps = 1
            total += steps * hop
    return total


def _system(outdir, dims, splits):
    """ASTRA-sim's system JSON for LIBRA's decomposition: reduce-scatter up the dimensions,
    all-reduce on the last, all-gather down (localBWAware), a ring per dimension, and
    `splits` chunks so that dimensions can work on different chunks at once (LIBRA's
    pipelining); no local-reduction cost, as in the model."""
    path = os.path.join(outdir, "system.json")
    ring = ["ring"] * dims
    with open(path, "w") as f:
        json.dump({"scheduling-policy": "LIFO", "endpoint-delay": 10,
                   "active-chunks-per-dimension": 1, "preferred-dataset-splits": splits,
                   "all-reduce-implementation": ring, "all-gather-implementation": ring,
                   "reduce-scatter-implementation": ring, "all-to-all-implementation": ring,
                   "collective-optimization": "localBWAware"}, f, indent=2)
    return path


def _replay(binary, workload_prefix, groups, fabric, backend, outdir, tag, system):
    summary = os.path.join(outdir, f"{tag}.json")
    cmd = [binary, f"--workload={workload_prefix}", f"--fabric={fabric}",
           f"--backend={backend}", "--progress=0", f"--summary={summary}",
           f"--system={system}"]
    if groups:
        cmd.append(f"--comm-group={groups}")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.isfile(summary):
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise InputError(f"--validate: chakra-replay --backend={backend} failed: "
                         f"{' / '.join(tail)} (command: {' '.join(cmd)})")
    with open(summary) as f:
        return json.load(f), " ".join(cmd)


def run(args, network, workload, result):
    root = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    binary = args.replay_binary or os.environ.get("MLFABRIC_REPLAY_BINARY") or \
        os.path.join(root, "build", "examples", "chakra-replay")
    if not os.access(binary, os.X_OK):
        raise InputError(f"--validate: {binary}: not built (./mlfabric build)")
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    for b in backends:
        if b not in BACKENDS:
            raise InputError(f"--backends: unknown backend {b!r} ({', '.join(BACKENDS)})")
    npus = network.npus
    if any(b in PACKET_LEVEL for b in backends) and npus > PACKET_NPU_LIMIT:
        raise InputError(f"--validate: {npus} NPUs are too many for the packet-level replay "
                         f"here (at most {PACKET_NPU_LIMIT}); validate on a reduced network "
                         f"(contrib/libra/inputs/reduced) or give --backends=analytical")
    if npus > ANALYTICAL_NPU_LIMIT:
        raise InputError(f"--validate: {npus} NPUs: at most {ANALYTICAL_NPU_LIMIT}")
    outdir = args.validate_dir or tempfile.mkdtemp(prefix="mlfabric-libra-validate-")
    os.makedirs(outdir, exist_ok=True)
    bw = result.bw
    # The fabric LIBRA's model describes (analytical) and the one written (packet).
    model_view = network
    if network.kind == "mlfabric":
        from .network import Network
        model_view = Network(network.dims, network.path, "libra")
    analytical_fabric = os.path.join(outdir, "fabric-model-view.yaml")
    with open(analytical_fabric, "w") as f:
        yaml.safe_dump(fabric_dict(model_view, bw, args.latency), f, sort_keys=False)
    packet_fabric = args.write_fabric or os.path.join(outdir, "fabric.yaml")
    if not args.write_fabric:
        with open(packet_fabric, "w") as f:
            yaml.safe_dump(fabric_dict(network, bw, args.latency), f, sort_keys=False)

    if workload.kind == "libra":
        prefix, groups, rounded = write_libra_as_chakra(workload, network, outdir)
        # Chakra stores compute in whole microseconds: predict with the same rounding.
        predicted_workload = rounded
    else:
        prefix, groups = workload.path, getattr(workload, "groups_path", "")
        predicted_workload = workload
    problem = build_problem(predicted_workload, len(network.dims), result.dim_time)
    predicted = problem.e2e_ns(bw)
    predicted_comm = problem.comm_ns(bw)
    other = build_problem(predicted_workload, len(network.dims),
                          "sum" if result.dim_time == "max" else "max")
    latency = _latency_ns(network, predicted_workload, 500.0)

    system = _system(outdir, len(network.dims), args.validate_splits)
    lines = ["", "validation (chakra-replay on the chosen bandwidths):",
             f"  model ({result.dim_time} over dimensions): {predicted / 1e6:.4f} ms "
             f"(communication {predicted_comm / 1e6:.4f} ms); with the "
             f"{other.dim_time} rule {other.e2e_ns(bw) / 1e6:.4f} ms; hop latency it leaves "
             f"out ~{latency / 1e6:.4f} ms"]
    out = {"predicted_time_ns": predicted, "predicted_comm_ns": predicted_comm,
           "predicted_other_rule_ns": other.e2e_ns(bw), "latency_left_out_ns": latency,
           "runs": []}
    for backend in backends:
        fabric = analytical_fabric if backend.startswith("analytical") else packet_fabric
        s, cmd = _replay(binary, prefix, groups, fabric, backend, outdir, backend, system)
        sim = float(s["simulated_ns"])
        ranks = s.get("ranks", [])
        comm = max((r["comm_ns"] for r in ranks), default=0.0)
        exposed = max((r["exposed_comm_ns"] for r in ranks), default=0.0)
        err = (sim - predicted) / predicted
        lines.append(f"  {backend:<17} {sim / 1e6:.4f} ms ({err:+.1%} against the model); "
                     f"communication {comm / 1e6:.4f} ms, exposed {exposed / 1e6:.4f} ms "
                     f"[{os.path.basename(fabric)}]")
        out["runs"].append({"backend": backend, "fabric": fabric, "simulated_ns": sim,
                            "comm_ns": comm, "exposed_comm_ns": exposed,
                            "relative_error": err, "outcome": s.get("outcome"),
                            "command": cmd})
    lines.append("  why they differ: the model has no latency (above), runs dimensions "
                 + ("pipelined (max)" if result.dim_time == "max" else "one after another")
                 + f" while the replay pipelines {args.validate_splits} chunks through them; a group "
                 "smaller than the world runs over the dimensions it spans, or as one ring over "
                 "its members where they are no sub-grid (the replay's groups: line says which); "
                 "the replay overlaps what the trace's dependencies allow (the model never "
                 "does) and waits where other ranks are late (pipeline stages); the packet "
                 "level adds congestion, oversubscription, headers and PFC.")
    print("\n".join(lines))
    return out
