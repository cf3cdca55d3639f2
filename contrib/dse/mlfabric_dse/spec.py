# SPDX-License-Identifier: GPL-2.0-only
"""Sweep files: a model, a cluster template and the ranges to cross.

Every point of the cross product is one training configuration on one cluster. Points
whose degrees do not multiply to the cluster's NPUs are kept and reported as pruned, so
that a bad range never stops the sweep.
"""

import itertools

import yaml

KNOWN = {"name", "description", "model", "cluster", "sweep", "packet_top", "quick"}
MODEL_KEYS = {"layers", "hidden", "heads", "seq", "vocab", "ffn", "global-batch", "precision",
              "iterations", "sequence-parallel"}
CLUSTER_KEYS = {"npus", "npus_per_node", "scale_up_latency", "scale_out_latency",
                "switch_buffer"}
SWEEP_KEYS = {"tp", "pp", "micro-batch", "sharding", "recompute", "compute", "hbm", "memory",
              "network"}
MEMORY_TYPES = {"PER_NPU_MEMORY_EXPANSION", "PER_NODE_MEMORY_EXPANSION", "MEMORY_POOL"}


class SpecError(Exception):
    """Bad sweep input; the message names the file and key."""


def _fail(path, key, what):
    raise SpecError(f"{path}: {key}: {what}")


def _list(path, key, value):
    if value is None or value == []:
        _fail(path, key, "is empty")
    return value if isinstance(value, list) else [value]


# How offloaded activations move (et-gen --offload-overlap); serial when not given.
OVERLAPS = ("serial", "prefetch")


def _named(path, key, entries, required, optional=()):
    """Tiers given as mappings with a name, the required keys and optional ones."""
    out = []
    for i, entry in enumerate(_list(path, key, entries)):
        where = f"{key}[{i}]"
        if entry == "none" and key == "sweep.memory":
            out.append({"name": "none"})
            continue
        if not isinstance(entry, dict) or "name" not in entry:
            _fail(path, where, "needs a mapping with 'name'")
        missing = [k for k in required if k not in entry]
        if missing:
            _fail(path, where, f"missing {', '.join(missing)}")
        unknown = sorted(set(entry) - set(required) - set(optional) - {"name"})
        if unknown:
            _fail(path, f"{where}.{unknown[0]}",
                  f"unknown key (known: name, {', '.join(list(required) + list(optional))})")
        out.append({k: str(v) if k != "name" else v for k, v in entry.items()})
    names = [e["name"] for e in out]
    if len(set(names)) != len(names):
        _fail(path, key, f"names must differ (got {names})")
    return out


class Point:
    """One configuration: parallel degrees, schemes and the cluster's tiers."""

    def __init__(self, values):
        self.values = values

    def __getitem__(self, key):
        return self.values[key]

    @property
    def point_id(self):
        v = self.values
        return (f"tp{v['tp']}-pp{v['pp']}-dp{v['dp']}-mb{v['micro-batch']}-{v['sharding']}-"
                f"{v['recompute']}-{v['compute']['name']}-hbm{v['hbm']}-{v['memory']['name']}-"
                f"{v['network']['name']}")

    def label(self):
        v = self.values
        return (f"TP{v['tp']} PP{v['pp']} DP{v['dp']} mb{v['micro-batch']} {v['sharding']} "
                f"rc={v['recompute']} {v['compute']['name']} {v['hbm']} "
                f"mem={v['memory']['name']} net={v['network']['name']}")


class Sweep:
    """A parsed sweep file."""

    def __init__(self, path, data):
        self.path = path
        self.name = data["name"]
        self.description = data.get("description", "")
        self.model = data["model"]
        self.cluster = data["cluster"]
        self.sweep = data["sweep"]
        self.packet_top = data["packet_top"]

    def points(self):
        """The cross product, in a stable order; dp is what the NPUs leave (0: none)."""
        s = self.sweep
        npus = self.cluster["npus"]
        out = []
        for tp, pp, mb, sharding, recompute, compute, hbm, memory, network in itertools.product(
                s["tp"], s["pp"], s["micro-batch"], s["sharding"], s["recompute"], s["compute"],
                s["hbm"], s["memory"], s["network"]):
            dp = npus // (tp * pp) if npus % (tp * pp) == 0 else 0
            out.append(Point({"tp": tp, "pp": pp, "dp": dp, "micro-batch": mb,
                              "sharding": sharding, "recompute": recompute, "compute": compute,
                              "hbm": hbm, "memory": memory, "network": network}))
        return out


def _positive_ints(path, key, value):
    values = _list(path, key, value)
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            _fail(path, key, f"whole numbers from 1 (got {v!r})")
    return values


def _check_sweep(path, prefix, raw):
    unknown = sorted(set(raw) - SWEEP_KEYS)
    if unknown:
        _fail(path, f"{prefix}.{unknown[0]}", f"unknown key (known: {', '.join(sorted(SWEEP_KEYS))})")
    out = {}
    for key in ("tp", "pp", "micro-batch"):
        out[key] = _positive_ints(path, f"{prefix}.{key}", raw.get(key, [1]))
    out["sharding"] = [str(v) for v in _list(path, f"{prefix}.sharding", raw.get("sharding", ["none"]))]
    out["recompute"] = [str(v) for v in
                        _list(path, f"{prefix}.recompute", raw.get("recompute", ["none"]))]
    out["compute"] = _named(path, f"{prefix}.compute", raw.get("compute"),
                            ["peak-tflops", "efficiency", "mem-bw"])
    out["hbm"] = [str(v) for v in _list(path, f"{prefix}.hbm", raw.get("hbm"))]
    out["memory"] = _named(path, f"{prefix}.memory", raw.get("memory", ["none"]),
                           ["type", "latency", "bandwidth"], ["overlap"])
    for i, m in enumerate(out["memory"]):
        if m["name"] != "none" and m["type"] not in MEMORY_TYPES:
            _fail(path, f"{prefix}.memory[{i}].type",
                  f"unknown type '{m['type']}' (known: {', '.join(sorted(MEMORY_TYPES))})")
        if m.get("overlap", "serial") not in OVERLAPS:
            _fail(path, f"{prefix}.memory[{i}].overlap",
                  f"unknown overlap '{m['overlap']}' (known: {', '.join(OVERLAPS)})")
    out["network"] = _named(path, f"{prefix}.network", raw.get("network"),
                            ["scale_up", "scale_out"])
    return out


def load(path, quick=False):
    """Read and check a sweep file; raise SpecError naming the key."""
    try:
        with open(path, encoding="utf-8") as f:
            raw = yaml.safe_load(f)
    except OSError as e:
        raise SpecError(f"{path}: cannot read: {e.strerror}") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise SpecError(f"{path}{':' + str(mark.line + 1) if mark else ''}: not valid YAML") from None
    if not isinstance(raw, dict):
        raise SpecError(f"{path}: expected a mapping of keys")
    unknown = sorted(set(raw) - KNOWN)
    if unknown:
        _fail(path, unknown[0], f"unknown key (known: {', '.join(sorted(KNOWN))})")
    data = {"name": str(raw.get("name") or "dse"), "description": raw.get("description", "")}
    for key, known in (("model", MODEL_KEYS), ("cluster", CLUSTER_KEYS)):
        section = raw.get(key)
        if not isinstance(section, dict):
            _fail(path, key, "expected a mapping")
        bad = sorted(set(section) - known)
        if bad:
            _fail(path, f"{key}.{bad[0]}", f"unknown key (known: {', '.join(sorted(known))})")
        data[key] = dict(section)
    for key in ("npus", "npus_per_node"):
        if not isinstance(data["cluster"].get(key), int) or data["cluster"][key] < 1:
            _fail(path, f"cluster.{key}", "a whole number from 1 is required")
    if data["cluster"]["npus"] % data["cluster"]["npus_per_node"]:
        _fail(path, "cluster.npus", "must be a multiple of npus_per_node")
    sweep = raw.get("sweep")
    if not isinstance(sweep, dict):
        _fail(path, "sweep", "expected a mapping")
    top = raw.get("packet_top", 0)
    if quick:
        q = raw.get("quick") or {}
        if not isinstance(q, dict):
            _fail(path, "quick", "expected a mapping of keys to replace")
        bad = sorted(set(q) - {"model", "cluster", "sweep", "packet_top"})
        if bad:
            _fail(path, f"quick.{bad[0]}", "only model, cluster, sweep and packet_top can be replaced")
        for key in ("model", "cluster"):
            data[key].update(q.get(key) or {})
        sweep = dict(sweep, **(q.get("sweep") or {}))
        top = q.get("packet_top", top)
    if not isinstance(top, int) or top < 0:
        _fail(path, "packet_top", f"a whole number from 0 (got {top!r})")
    data["packet_top"] = top
    data["sweep"] = _check_sweep(path, "sweep", sweep)
    return Sweep(path, data)
