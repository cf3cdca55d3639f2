# SPDX-License-Identifier: GPL-2.0-only
"""Experiment files: what to compare, and the runs that compare it.

An experiment is a YAML file naming workloads, fabrics, congestion-control schemes,
parameter grids and seeds; its runs are their cross product. Paths in the file are
relative to the file's own folder.
"""

import itertools
import os
import re

import yaml

SCHEMES = (
    "none", "dcqcn", "dcqcn-hpccns3", "dcqcn-window", "hpcc", "hpcc-pint", "timely", "dctcp",
    "swift", "nscc"
)
BACKENDS = ("packet", "hybrid", "flow", "analytical", "analytical-aware")
#: the backends whose RoCE traffic runs at packet level: congestion control applies
PACKET_LEVEL = ("packet", "hybrid")
KNOWN_KEYS = {"name", "description", "backend", "workloads", "fabrics", "schemes",
              "parameters", "seeds", "stop", "quick"}


class ExperimentError(Exception):
    """Bad experiment input; the message names the file and key."""


class Run:
    """One simulation: a workload on a fabric under one scheme, parameters and seed."""

    def __init__(self, workload, fabric, scheme, parameters, seed, backend, stop):
        self.workload = workload
        self.fabric = fabric
        self.scheme = scheme
        self.parameters = dict(parameters)
        self.seed = seed
        self.backend = backend
        self.stop = stop

    @property
    def run_id(self):
        """A stable folder name: the same run always gets the same one (resumption)."""
        parts = [self.workload["name"], self.fabric["name"], self.backend, self.scheme]
        parts += [f"{k}={v}" for k, v in sorted(self.parameters.items())]
        parts.append(f"seed{self.seed}")
        return re.sub(r"[^A-Za-z0-9_.=+-]", "_", "-".join(parts))

    def arguments(self, out_dir):
        """Command-line arguments of the chakra-replay example for this run."""
        args = [
            f"--workload={self.workload['trace']}",
            f"--fabric={self.fabric['file']}",
            f"--backend={self.backend}",
            f"--RngRun={self.seed}",
            f"--summary={os.path.join(out_dir, 'summary.json')}",
            f"--csv={os.path.join(out_dir, 'ranks.csv')}",
            "--progress=1",
            "--critical-path=1",
            f"--timeline={os.path.join(out_dir, 'timeline.json')}",
        ]
        if self.backend in PACKET_LEVEL:
            args.append(f"--cc={self.scheme}")
            args.append(f"--timeseries={os.path.join(out_dir, 'timeseries.csv')}")
            args.append(f"--link-utilization={os.path.join(out_dir, 'links.json')}")
        for key in ("comm_groups", "system"):
            if self.workload.get(key):
                flag = "comm-group" if key == "comm_groups" else key
                args.append(f"--{flag}={self.workload[key]}")
        if self.stop:
            args.append(f"--stop={self.stop}")
        args += [f"--{k}={v}" for k, v in sorted(self.parameters.items())]
        return args

    def label(self):
        """Short human label for tables and plots; a backend other than packet is named."""
        extra = ",".join(f"{k}={v}" for k, v in sorted(self.parameters.items()))
        backend = "" if self.backend == "packet" else self.backend + " "
        return backend + self.scheme + (f" ({extra})" if extra else "")


class Experiment:
    """A parsed experiment file."""

    def __init__(self, path, data):
        self.path = path
        self.name = data["name"]
        self.description = data.get("description", "")
        self.backends = data["backends"]
        self.workloads = data["workloads"]
        self.fabrics = data["fabrics"]
        self.schemes = data["schemes"]
        self.parameters = data["parameters"]
        self.seeds = data["seeds"]
        self.stop = data.get("stop", "")

    def runs(self):
        """The cross product, in a stable order. The flow and analytical backends model no
        congestion control: one run per point, under "none"."""
        keys = sorted(self.parameters)
        grids = [dict(zip(keys, values))
                 for values in itertools.product(*(self.parameters[k] for k in keys))]
        out = []
        for backend, workload, fabric, grid, seed in itertools.product(
                self.backends, self.workloads, self.fabrics, grids, self.seeds):
            schemes = self.schemes if backend in PACKET_LEVEL else ["none"]
            for scheme in schemes:
                out.append(Run(workload, fabric, scheme, grid, seed, backend, self.stop))
        return out


def _fail(path, key, what):
    raise ExperimentError(f"{path}: {key}: {what}")


def _as_list(path, key, value):
    if value is None:
        _fail(path, key, "is empty")
    return value if isinstance(value, list) else [value]


def _named_entries(path, key, entries, file_key, base):
    """Workloads and fabrics: a path, or {name, <file_key>, ...} with paths resolved."""
    out = []
    for i, entry in enumerate(_as_list(path, key, entries)):
        where = f"{key}[{i}]"
        if isinstance(entry, str):
            entry = {file_key: entry}
        if not isinstance(entry, dict) or file_key not in entry:
            _fail(path, where, f"needs '{file_key}'")
        entry = dict(entry)
        for k in (file_key, "comm_groups", "system"):
            if entry.get(k):
                entry[k] = os.path.normpath(os.path.join(base, str(entry[k])))
        if "name" not in entry:
            entry["name"] = os.path.basename(entry[file_key]).split(".")[0]
        out.append(entry)
    names = [e["name"] for e in out]
    if len(set(names)) != len(names):
        _fail(path, key, f"names must differ (got {names})")
    return out


def load_experiment(path, backend_override=None, quick=False):
    """Read and check an experiment file; raise ExperimentError naming the key."""
    try:
        with open(path, encoding="utf-8") as f:
            raw = yaml.safe_load(f)
    except OSError as e:
        raise ExperimentError(f"{path}: cannot read: {e.strerror}") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        raise ExperimentError(f"{path}{line}: not valid YAML") from None
    if not isinstance(raw, dict):
        raise ExperimentError(f"{path}: expected a mapping of keys")
    unknown = sorted(set(raw) - KNOWN_KEYS)
    if unknown:
        _fail(path, unknown[0], f"unknown key (known: {', '.join(sorted(KNOWN_KEYS))})")
    base = os.path.dirname(os.path.abspath(path))
    data = {"name": str(raw.get("name") or os.path.basename(path).split(".")[0])}
    data["description"] = raw.get("description", "")
    backends = [backend_override] if backend_override else _as_list(
        path, "backend", raw.get("backend", "packet"))
    for b in backends:
        if b not in BACKENDS:
            _fail(path, "backend", f"unknown backend '{b}' (known: {', '.join(BACKENDS)})")
    data["backends"] = backends
    data["workloads"] = _named_entries(path, "workloads", raw.get("workloads"), "trace", base)
    data["fabrics"] = _named_entries(path, "fabrics", raw.get("fabrics"), "file", base)
    schemes = _as_list(path, "schemes", raw.get("schemes", list(SCHEMES)))
    for s in schemes:
        if s not in SCHEMES:
            _fail(path, "schemes", f"unknown scheme '{s}' (known: {', '.join(SCHEMES)})")
    data["schemes"] = schemes
    params = raw.get("parameters") or {}
    if not isinstance(params, dict):
        _fail(path, "parameters", "expected a mapping of option -> list of values")
    data["parameters"] = {str(k): _as_list(path, f"parameters.{k}", v) for k, v in params.items()}
    seeds = _as_list(path, "seeds", raw.get("seeds", [1]))
    for s in seeds:
        if not isinstance(s, int) or s < 1:
            _fail(path, "seeds", f"seeds are whole numbers from 1 (got {s!r})")
    data["seeds"] = seeds
    data["stop"] = str(raw.get("stop", ""))
    if quick:
        if "quick" not in raw:
            _fail(path, "quick", "--quick asks for this key, which the experiment does not have "
                  "(run it without --quick, or add a reduced form under 'quick')")
        overrides = raw.get("quick") or {}
        if not isinstance(overrides, dict):
            _fail(path, "quick", "expected a mapping of keys to replace")
        for key, value in overrides.items():
            if key in ("workloads", "fabrics"):
                file_key = "trace" if key == "workloads" else "file"
                data[key] = _named_entries(path, f"quick.{key}", value, file_key, base)
            elif key in ("schemes", "seeds"):
                data[key] = _as_list(path, f"quick.{key}", value)
            elif key == "parameters":
                data[key] = {str(k): _as_list(path, f"quick.parameters.{k}", v)
                             for k, v in value.items()}
            else:
                _fail(path, f"quick.{key}", "only workloads, fabrics, schemes, seeds and "
                      "parameters can be replaced")
    return Experiment(path, data)
