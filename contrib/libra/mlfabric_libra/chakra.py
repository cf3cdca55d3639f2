# SPDX-License-Identifier: GPL-2.0-only
"""A Chakra workload (PREFIX.<rank>.et and its communicator groups) as LIBRA's model sees
it: per rank, its compute time and its collectives, each collective's group mapped onto
the fabric's dimensions. The files are read by mlfabric_chakra (contrib/chakra)."""

import json
import os
from typing import Dict, List

from mlfabric_chakra import (COLL_NODE, COMM_SEND_NODE, COMP_NODE, ChakraError, attributes,
                             read_trace, rank_files)

from .network import InputError, Network
from .traffic import dimension_traffic
from .workload import Communication, RankView, Workload

_COMM_TYPES = {0: "ALLREDUCE", 2: "ALLGATHER", 6: "ALLTOALL", 7: "REDUCESCATTER",
               8: "REDUCESCATTER"}
_UNMODELLED = {1: "REDUCE", 3: "GATHER", 4: "SCATTER", 5: "BROADCAST", 9: "BARRIER"}


def read_nodes(path: str):
    """The nodes of one rank's trace; a bad file is an InputError naming it."""
    try:
        return read_trace(path)[1]
    except ChakraError as error:
        raise InputError(str(error)) from None


def read_groups(path: str) -> Dict[str, List[int]]:
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such communicator-group file")
    try:
        with open(path) as f:
            data = json.load(f)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}:{e.lineno}: not JSON ({e.msg})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: a communicator-group file maps group names to rank lists")
    for name, ranks in data.items():
        if not isinstance(ranks, list) or not ranks or \
                not all(isinstance(r, int) and not isinstance(r, bool) and r >= 0 for r in ranks):
            raise InputError(f"{path}: group {name!r}: must be a non-empty list of ranks")
    return {str(k): sorted(v) for k, v in data.items()}


def group_communicator(ranks: List[int], network: Network, where: str) -> List[int]:
    """Per dimension, how many NPUs of the group it spans (-1: none); the group must be a
    product of per-dimension groups (every combination of its coordinates present)."""
    coords = [network.coordinates(r) for r in ranks]
    per_dim = [sorted({c[d] for c in coords}) for d in range(len(network.dims))]
    sizes = [len(v) for v in per_dim]
    product = 1
    for s in sizes:
        product *= s
    if product != len(set(ranks)):
        raise InputError(f"{where}: ranks {ranks} are not a product of per-dimension groups "
                         f"of {network.path} (dimension sizes "
                         f"{[d.npus for d in network.dims]}): LIBRA's per-dimension model "
                         f"cannot place it")
    for d, s in enumerate(sizes):
        if s > 1 and network.dims[d].npus % s != 0:
            raise InputError(f"{where}: spans {s} NPUs of dimension {d}, which does not "
                             f"divide its {network.dims[d].npus} NPUs ({network.path})")
    return [s if s > 1 else -1 for s in sizes]


def chakra_workload(prefix: str, groups_path: str, network: Network) -> Workload:
    files = rank_files(prefix)
    if not files:
        raise InputError(f"--workload: no {prefix}.0.et (a Chakra workload is a prefix "
                         f"of PREFIX.<rank>.et files)")
    if len(files) != network.npus:
        raise InputError(f"--workload: {prefix} has {len(files)} ranks but {network.path} "
                         f"has {network.npus} NPUs")
    groups = read_groups(groups_path) if groups_path else {}
    for name, ranks in groups.items():
        if max(ranks) >= network.npus:
            raise InputError(f"{groups_path}: group {name!r}: rank {max(ranks)} is outside "
                             f"the {network.npus} NPUs")
    world = list(range(network.npus))
    comm_cache: Dict[str, List[int]] = {}
    views = []
    for rank, path in enumerate(files):
        compute = 0.0
        comms = []
        for node in read_nodes(path):
            attrs = attributes(node)
            where = f"{path}: node {node.id}"
            if node.type == COMP_NODE and not attrs.get("is_cpu_op", False):
                # As the replay: duration_micros in us, a zero duration costs 1 ns.
                compute += max(node.duration_micros * 1000.0, 1.0)
            elif node.type == COLL_NODE:
                if "comm_type" not in attrs or "comm_size" not in attrs:
                    continue  # host-side c10d op: replayed by duration, no traffic
                ctype = int(attrs["comm_type"])
                if ctype in _UNMODELLED:
                    raise InputError(f"{where}: {_UNMODELLED[ctype]}: LIBRA's model has no "
                                     f"traffic rule for it (all-reduce, all-gather, "
                                     f"reduce-scatter, all-to-all, send/receive)")
                if ctype not in _COMM_TYPES:
                    raise InputError(f"{where}: unknown comm_type {ctype}")
                pg = str(attrs.get("pg_name", ""))
                if pg in ("", "0"):
                    ranks, label = world, "all"
                elif pg in groups:
                    ranks, label = groups[pg], pg
                else:
                    raise InputError(f"{where}: pg_name {pg!r} names no group of "
                                     f"{groups_path or '(no communicator-group file)'}")
                if label not in comm_cache:
                    comm_cache[label] = group_communicator(
                        ranks, network, f"{groups_path}: group {label!r}")
                vec = comm_cache[label]
                kind = _COMM_TYPES[ctype]
                size = float(attrs["comm_size"])
                comms.append(Communication(node.name, kind, size, vec,
                                           dimension_traffic(kind, size, vec)))
            elif node.type == COMM_SEND_NODE and "comm_dst" in attrs:
                dst = int(attrs["comm_dst"])
                if dst >= network.npus:
                    raise InputError(f"{where}: comm_dst {dst} is outside the "
                                     f"{network.npus} NPUs")
                a, b = network.coordinates(rank), network.coordinates(dst)
                vec = [2 if x != y else -1 for x, y in zip(a, b)]
                size = float(attrs.get("comm_size", 0))
                comms.append(Communication(node.name, "SENDRECV", size, vec,
                                           dimension_traffic("SENDRECV", size, vec)))
        views.append(RankView(f"rank {rank}", compute, comms))
    ncoll = sum(len(v.comms) for v in views)
    desc = f"{prefix} ({len(files)} ranks, {ncoll} collectives and sends)"
    w = Workload(prefix, "chakra", views, desc)
    w.groups = groups
    w.groups_path = groups_path
    return w
