# SPDX-License-Identifier: GPL-2.0-only
"""The multi-dimensional network LIBRA optimises, read from LIBRA's network YAML or
from a fabric file (ASTRA-sim network YAML, mlfabric YAML with dimensions)."""

import math
import os
from dataclasses import dataclass, field
from typing import List, Optional

import yaml

TOPOLOGIES = ("Ring", "FullyConnected", "Switch")


class InputError(Exception):
    """Bad input: the message names the file or option and what is wrong."""


@dataclass
class Dimension:
    """One dimension: its building block, size and the cost-model entry it is priced by."""
    topology: str
    npus: int
    cost_key: str
    name: str
    latency_ns: Optional[float] = None
    # Per-NPU bandwidth the file gives (GB/s, GB = 10^9 B), for fabric files.
    given_bw_GBps: Optional[float] = None


@dataclass
class Network:
    dims: List[Dimension]
    path: str
    kind: str  # "libra", "astra-sim" or "mlfabric"
    fabric: Optional[dict] = field(default=None, repr=False)  # the mlfabric YAML as read

    @property
    def npus(self) -> int:
        return math.prod(d.npus for d in self.dims)

    def coordinates(self, rank: int) -> List[int]:
        """Mixed-radix coordinates, dimension 0 fastest (ASTRA-sim's and mlfabric's rule)."""
        out = []
        for d in self.dims:
            out.append(rank % d.npus)
            rank //= d.npus
        return out


def load_yaml(path: str, what: str):
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such {what} file")
    try:
        with open(path) as f:
            return yaml.safe_load(f)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise InputError(f"{path}{where}: not YAML ({getattr(e, 'problem', e)})") from None


def _int_list(path, data, key, minimum):
    value = data.get(key)
    if not isinstance(value, list) or not value:
        raise InputError(f"{path}: {key}: must be a non-empty list")
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
            raise InputError(f"{path}: {key}[{i}]: {v!r} is not a whole number >= {minimum}")
    return value


def _topology(path, key, i, name):
    if name not in TOPOLOGIES:
        raise InputError(f"{path}: {key}[{i}]: unknown topology {name!r} "
                         f"(expected Ring, FullyConnected or Switch)")
    return name


def _libra_network(path, data) -> Network:
    unknown = sorted(set(data) - {"Topology", "NpusCount", "CostDimension"})
    if unknown:
        raise InputError(f"{path}: unknown key {unknown[0]!r} (LIBRA's network has "
                         f"Topology, NpusCount and CostDimension)")
    topo = data.get("Topology")
    if not isinstance(topo, list) or not topo:
        raise InputError(f"{path}: Topology: must be a non-empty list")
    npus = _int_list(path, data, "NpusCount", 2)
    cost = data.get("CostDimension")
    if not isinstance(cost, list):
        raise InputError(f"{path}: CostDimension: must be a list")
    for key, value in (("NpusCount", npus), ("CostDimension", cost)):
        if len(value) != len(topo):
            raise InputError(f"{path}: {key}: has {len(value)} entries but Topology has "
                             f"{len(topo)} (one per dimension)")
    dims = [Dimension(_topology(path, "Topology", i, t), n, str(c), f"dim{i}")
            for i, (t, n, c) in enumerate(zip(topo, npus, cost))]
    return Network(dims, path, "libra")


def _astra_network(path, data) -> Network:
    known = {"topology", "npus_count", "bandwidth", "latency"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InputError(f"{path}: unknown key {unknown[0]!r}")
    topo = data.get("topology")
    if not isinstance(topo, list) or not topo:
        raise InputError(f"{path}: topology: must be a non-empty list")
    npus = _int_list(path, data, "npus_count", 2)
    lists = {}
    for key in ("bandwidth", "latency"):
        value = data.get(key, [])
        if not isinstance(value, list) or len(value) != len(topo):
            raise InputError(f"{path}: {key}: must have one entry per dimension ({len(topo)})")
        lists[key] = value
    if len(npus) != len(topo):
        raise InputError(f"{path}: npus_count: has {len(npus)} entries but topology has "
                         f"{len(topo)} (one per dimension)")
    dims = []
    for i, (t, n, bw, lat) in enumerate(zip(topo, npus, lists["bandwidth"], lists["latency"])):
        t = _topology(path, "topology", i, t)
        # ASTRA-sim's bandwidth is per link and direction in GB/s with GB = 2^30 B; per NPU
        # a ring has two links, a fully connected dimension n-1 and a switch one.
        links = {"Ring": 2 if n > 2 else 1, "FullyConnected": n - 1, "Switch": 1}[t]
        dims.append(Dimension(t, n, f"dim{i}", f"dim{i}", float(lat),
                              float(bw) * 2**30 / 1e9 * links))
    return Network(dims, path, "astra-sim")


def parse_rate_gbps(text, where):
    """Bits per second as mlfabric writes them ('400Gbps', '1.6Tbps', '100G') -> Gb/s."""
    s = str(text).strip()
    units = (("Tbps", 1e3), ("Gbps", 1.0), ("Mbps", 1e-3), ("Kbps", 1e-6), ("bps", 1e-9),
             ("T", 1e3), ("G", 1.0), ("M", 1e-3), ("K", 1e-6))
    for suffix, scale in units:
        if s.endswith(suffix):
            try:
                return float(s[: -len(suffix)]) * scale
            except ValueError:
                break
    raise InputError(f"{where}: rate {text!r} is not a bit rate such as 400Gbps")


def parse_latency_ns(text, where):
    s = str(text).strip()
    for suffix, scale in (("ns", 1.0), ("us", 1e3), ("ms", 1e6), ("ps", 1e-3), ("s", 1e9)):
        if s.endswith(suffix):
            try:
                return float(s[: -len(suffix)]) * scale
            except ValueError:
                break
    raise InputError(f"{where}: latency {text!r} is not a time such as 500ns")


def link_bandwidth_share(topology: str, npus: int) -> float:
    """Per-link share of a per-NPU bandwidth (LIBRA's cost model): a ring NPU has two
    links, a fully connected one n-1, a switch one. A ring of 2 is one link."""
    if topology == "Ring":
        return 1.0 if npus == 2 else 0.5
    if topology == "FullyConnected":
        return 1.0 / (npus - 1)
    return 1.0


def _mlfabric_network(path, data) -> Network:
    dims_data = data.get("dimensions", [])
    if not isinstance(dims_data, list):
        raise InputError(f"{path}: dimensions: must be a list")
    dims = []
    for i, d in enumerate(dims_data):
        where = f"{path}: dimensions[{i}]"
        if not isinstance(d, dict):
            raise InputError(f"{where}: must be a map")
        t = _topology(path, "dimensions", i, d.get("topology"))
        n = d.get("npus")
        if isinstance(n, bool) or not isinstance(n, int) or n < 2:
            raise InputError(f"{where}.npus: {n!r} is not a whole number >= 2")
        name = str(d.get("name", f"dim{i}"))
        rate = parse_rate_gbps(d.get("rate", ""), f"{where}.rate")
        lat = parse_latency_ns(d.get("latency", "0ns"), f"{where}.latency")
        per_npu = rate / 8 / link_bandwidth_share(t, n)
        dims.append(Dimension(t, n, name, name, lat, per_npu))
    so = data.get("scale_out")
    if so is not None:
        where = f"{path}: scale_out"
        if not isinstance(so, dict):
            raise InputError(f"{where}: must be a map")
        servers = so.get("servers")
        if isinstance(servers, bool) or not isinstance(servers, int) or servers < 2:
            raise InputError(f"{where}.servers: {servers!r} is not a whole number >= 2 "
                             f"(LIBRA's model needs it as a dimension)")
        host = so.get("host_link") or so.get("nic_link")
        if not isinstance(host, dict):
            raise InputError(f"{where}: needs host_link (or nic_link for rails)")
        rate = parse_rate_gbps(host.get("rate", ""), f"{where}.host_link.rate")
        lat = parse_latency_ns(host.get("latency", "0ns"), f"{where}.host_link.latency")
        # One NIC per NPU, its switch network seen as one big switch (LIBRA's Switch); a
        # trip crosses at least two host links.
        dims.append(Dimension("Switch", servers, "scale-out", "scale-out", lat, rate / 8))
    if not dims:
        raise InputError(f"{path}: no dimensions and no scale_out: LIBRA needs a "
                         f"multi-dimensional fabric")
    return Network(dims, path, "mlfabric", data)


def load_network(path: str) -> Network:
    """LIBRA's network YAML (Topology/NpusCount/CostDimension), ASTRA-sim's network YAML
    (npus_count) or an mlfabric fabric YAML (dimensions / scale_out)."""
    data = load_yaml(path, "network")
    if not isinstance(data, dict):
        raise InputError(f"{path}: a network file is a YAML map")
    if "Topology" in data or "NpusCount" in data:
        return _libra_network(path, data)
    if "npus_count" in data:
        return _astra_network(path, data)
    if "dimensions" in data or "scale_out" in data:
        return _mlfabric_network(path, data)
    raise InputError(f"{path}: neither LIBRA's network (Topology, NpusCount, CostDimension), "
                     f"ASTRA-sim's (npus_count) nor an mlfabric fabric with dimensions")
