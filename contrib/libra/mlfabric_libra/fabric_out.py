# SPDX-License-Identifier: GPL-2.0-only
"""--write-fabric: the chosen bandwidths as an mlfabric fabric YAML (doc/fabrics.md).

A dimension's link rate is its per-NPU bandwidth over its links (LIBRA's cost model): a
ring NPU has two links (a ring of 2 has one), a fully connected one n-1, a switch one.
GB/s is 10^9 B/s, so a GB/s is 8 Gb/s. From an mlfabric fabric the file is kept as it is
and only the rates change: the scale-out network's switch-to-switch links scale with its
host links, which keeps its oversubscription."""

import copy

import yaml

from .network import InputError, link_bandwidth_share, parse_latency_ns, parse_rate_gbps


def _rate(gbps: float) -> str:
    return f"{gbps:.6g}Gbps"


def _latencies(text, network):
    if not text:
        return [d.latency_ns if d.latency_ns is not None else 500.0 for d in network.dims]
    parts = [p.strip() for p in text.split(",")]
    if len(parts) == 1:
        parts = parts * len(network.dims)
    if len(parts) != len(network.dims):
        raise InputError(f"--latency: {len(parts)} values for {len(network.dims)} dimensions")
    return [parse_latency_ns(p, "--latency") for p in parts]


def fabric_dict(network, bw, latency_text="", note=""):
    lat = _latencies(latency_text, network)
    if network.kind == "mlfabric":
        data = copy.deepcopy(network.fabric)
        dims = data.get("dimensions", [])
        for i, d in enumerate(dims):
            n = network.dims[i]
            d["rate"] = _rate(bw[i] * 8 * link_bandwidth_share(n.topology, n.npus))
            if latency_text:
                d["latency"] = f"{lat[i]:g}ns"
        if data.get("scale_out") is not None:
            so = data["scale_out"]
            k = len(dims)
            host_key = "host_link" if "host_link" in so else "nic_link"
            old = parse_rate_gbps(so[host_key]["rate"], f"{network.path}: scale_out")
            factor = bw[k] * 8 / old
            for key, value in so.items():
                if key.endswith("_link") and isinstance(value, dict) and "rate" in value:
                    value["rate"] = _rate(parse_rate_gbps(value["rate"], key) * factor)
            if latency_text:
                so[host_key]["latency"] = f"{lat[k]:g}ns"
        data["name"] = str(data.get("name", "fabric")) + "-libra"
    else:
        data = {"name": "libra", "routing": "dimension-order", "dimensions": []}
        for i, d in enumerate(network.dims):
            data["dimensions"].append({
                "name": d.name, "topology": d.topology, "npus": d.npus,
                "rate": _rate(bw[i] * 8 * link_bandwidth_share(d.topology, d.npus)),
                "latency": f"{lat[i]:g}ns"})
    data["description"] = (f"LIBRA's bandwidths per NPU "
                           f"{', '.join(f'{x:.2f}' for x in bw)} GB/s {note}").strip()
    return data


def write(network, bw, path, latency_text, result=None):
    note = ""
    if result is not None:
        note = f"({result.objective} of {result.workload.path})"
    data = fabric_dict(network, bw, latency_text, note)
    with open(path, "w") as f:
        f.write(f"# Written by mlfabric libra from {network.path}.\n")
        yaml.safe_dump(data, f, sort_keys=False, default_flow_style=None)
