# SPDX-License-Identifier: GPL-2.0-only
"""LIBRA's layer-wise workload as a Chakra workload, for the replay: per NPU one chain in
the order of LIBRA's no_overlap loop (forward layer by layer: compute then its
collective; backward in reverse: input-grad compute and collective, weight-grad compute
and collective), each collective on the group its pass's communicator gives the NPU.

Chakra keeps compute as whole microseconds (duration_micros), so compute is rounded; the
workload returned beside the files is the model's view with that rounding."""

import copy
import json
import os

from mlfabric_chakra import COLL_NODE, COMP_NODE, bindings, rank_path, write_trace

from .workload import PASSES, RankView

_TYPE = {"ALLREDUCE": 0, "ALLGATHER": 2, "ALLTOALL": 6, "REDUCESCATTER": 7}


def _micros(ns: float) -> int:
    return int(round(ns / 1000.0))


def _rounded_ns(ns: float) -> float:
    # The replay charges 1 ns for a zero duration, as ASTRA-sim does.
    return max(_micros(ns) * 1000.0, 1.0)


def group_of(rank, comm, network):
    me = network.coordinates(rank)
    members = []
    for s in range(network.npus):
        c = network.coordinates(s)
        if all((c[d] == me[d]) if k <= 0 else (c[d] // k == me[d] // k)
               for d, k in enumerate(comm)):
            members.append(s)
    return members


def write_libra_as_chakra(workload, network, outdir):
    pb = bindings()
    prefix = os.path.join(outdir, "libra-workload")
    comm = workload.communicator
    groups = {}
    names = {}

    def group_name(members):
        if len(members) == network.npus:
            return ""
        key = tuple(members)
        if key not in names:
            names[key] = str(len(names) + 1)
            groups[names[key]] = list(members)
        return names[key]

    order = []  # (layer index, pass index) in the no_overlap loop's order
    for i in range(len(workload.layers)):
        order.append((i, 0))
    for i in reversed(range(len(workload.layers))):
        order.extend([(i, 1), (i, 2)])
    for rank in range(network.npus):
        pg = {p: group_name(group_of(rank, comm[p], network)) for p in PASSES}
        nodes = []
        last = None
        nid = 0
        for li, p in order:
            layer = workload.layers[li]
            compute_ns, kind, size = layer["phases"][p]
            node = pb.Node(id=nid, name=f"{layer['name']}.{PASSES[p]}.compute", type=COMP_NODE,
                           duration_micros=_micros(compute_ns))
            node.attr.add(name="is_cpu_op", bool_val=False)
            if last is not None:
                node.data_deps.append(last)
            nodes.append(node)
            last, nid = nid, nid + 1
            if kind is None or size == 0 or all(k <= 1 for k in comm[PASSES[p]]):
                continue
            node = pb.Node(id=nid, name=f"{layer['name']}.{PASSES[p]}.{kind.lower()}",
                           type=COLL_NODE)
            node.attr.add(name="is_cpu_op", bool_val=False)
            node.attr.add(name="comm_type", int64_val=_TYPE[kind])
            node.attr.add(name="comm_size", int64_val=int(size))
            node.attr.add(name="pg_name", string_val=pg[PASSES[p]])
            node.data_deps.append(last)
            nodes.append(node)
            last, nid = nid, nid + 1
        write_trace(rank_path(prefix, rank), nodes)
    groups_path = f"{prefix}.comm-groups.json"
    with open(groups_path, "w") as f:
        json.dump(groups, f)
    rounded = copy.copy(workload)
    compute = sum(_rounded_ns(ph[0]) for layer in workload.layers for ph in layer["phases"])
    rounded.views = [RankView(v.label, compute, v.comms) for v in workload.views]
    return prefix, groups_path, rounded
