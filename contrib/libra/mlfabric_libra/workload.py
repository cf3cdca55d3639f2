# SPDX-License-Identifier: GPL-2.0-only
"""LIBRA's inputs for the workload: the ASTRA-sim 1.0 layer-wise text and the communicator
YAML; and the form the model takes them in (compute time plus collectives per NPU)."""

import os
from dataclasses import dataclass, field
from typing import Dict, List

from .network import InputError, Network, load_yaml
from .traffic import dimension_traffic

PASSES = ("Forward", "InputGrad", "WeightGrad")
_COMM_NAMES = {"NONE": None, "ALLREDUCE": "ALLREDUCE", "ALLGATHER": "ALLGATHER",
               "REDUCESCATTER": "REDUCESCATTER", "ALLTOALL": "ALLTOALL"}


@dataclass
class Communication:
    """One collective (or message) of an NPU: its kind, size and per-dimension traffic."""
    label: str
    kind: str
    size: float
    comm: List[int]
    traffic: List[float] = field(default_factory=list)


@dataclass
class RankView:
    """What one NPU does under LIBRA's no-overlap loop: compute, then communication, never
    both at once, so its time is compute + the sum of its collectives' times."""
    label: str
    compute_ns: float
    comms: List[Communication]


@dataclass
class Workload:
    path: str
    kind: str  # "libra" or "chakra"
    views: List[RankView]
    description: str
    layers: List[dict] = field(default_factory=list)  # LIBRA text: the parsed layers
    groups: Dict[str, List[int]] = field(default_factory=dict)  # Chakra: communicator groups


@dataclass
class Layer:
    name: str
    phases: List[tuple]  # per pass: (compute_ns, kind or None, size)


def read_layers(path: str) -> List[Layer]:
    """ASTRA-sim 1.0's workload text as LIBRA reads it: one layer per line, 12 fields
    (name, reserved, then compute / type / size of forward, input-grad and weight-grad,
    then the update time, which LIBRA's loop does not use). ASTRA-sim's own files start
    with two header lines (parallelism, layer count); they are accepted and checked."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such workload file")
    with open(path) as f:
        lines = [(i + 1, line.split()) for i, line in enumerate(f)]
    lines = [(n, fields) for n, fields in lines if fields]
    declared = None
    if len(lines) >= 2 and len(lines[0][1]) < 12 and len(lines[1][1]) == 1:
        try:
            declared = int(lines[1][1][0])
        except ValueError:
            raise InputError(f"{path}:{lines[1][0]}: layer count {lines[1][1][0]!r} is not "
                             f"a whole number") from None
        lines = lines[2:]
    layers = []
    names = ("forward compute", "forward comm type", "forward comm size",
             "input-grad compute", "input-grad comm type", "input-grad comm size",
             "weight-grad compute", "weight-grad comm type", "weight-grad comm size")
    for n, fields in lines:
        if len(fields) != 12:
            raise InputError(f"{path}:{n}: {len(fields)} fields; ASTRA-sim 1.0's layer line "
                             f"has 12 (name, reserved, 3 x (compute, comm type, comm size), "
                             f"update time)")
        phases = []
        for p in range(3):
            compute, kind, size = fields[2 + 3 * p: 5 + 3 * p]
            try:
                compute_ns = float(compute)
            except ValueError:
                raise InputError(f"{path}:{n}: {names[3 * p]}: {compute!r} is not a "
                                 f"number") from None
            key = kind.upper().replace("_", "")
            if key not in _COMM_NAMES:
                raise InputError(f"{path}:{n}: {names[3 * p + 1]}: unknown {kind!r} "
                                 f"(NONE, ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL)")
            try:
                size_b = float(size)
            except ValueError:
                raise InputError(f"{path}:{n}: {names[3 * p + 2]}: {size!r} is not a "
                                 f"number") from None
            if compute_ns < 0 or size_b < 0:
                raise InputError(f"{path}:{n}: negative compute time or size")
            phases.append((compute_ns, _COMM_NAMES[key], size_b))
        layers.append(Layer(fields[0], phases))
    if not layers:
        raise InputError(f"{path}: no layers")
    if declared is not None and declared != len(layers):
        raise InputError(f"{path}:2: declares {declared} layers but has {len(layers)}")
    return layers


def read_communicator(path: str, network: Network) -> Dict[str, List[int]]:
    """LIBRA's communicator YAML: per pass, the NPUs of each dimension in the group (-1:
    the dimension is not used). A size must divide its dimension's NPU count."""
    data = load_yaml(path, "communicator")
    if not isinstance(data, dict):
        raise InputError(f"{path}: a communicator file is a YAML map")
    unknown = sorted(set(data) - set(PASSES))
    if unknown:
        raise InputError(f"{path}: unknown key {unknown[0]!r} (Forward, InputGrad, WeightGrad)")
    out = {}
    for key in PASSES:
        value = data.get(key)
        if not isinstance(value, list):
            raise InputError(f"{path}: {key}: missing, or not a list")
        if len(value) != len(network.dims):
            raise InputError(f"{path}: {key}: has {len(value)} entries but {network.path} "
                             f"has {len(network.dims)} dimensions")
        for d, c in enumerate(value):
            n = network.dims[d].npus
            if isinstance(c, bool) or not isinstance(c, int) or (c < 1 and c != -1):
                raise InputError(f"{path}: {key}[{d}]: {c!r} is not -1 or a whole number >= 1")
            if c > 0 and n % c != 0:
                raise InputError(f"{path}: {key}[{d}]: {c} NPUs do not divide dimension "
                                 f"{d}'s {n} NPUs ({network.path})")
        out[key] = [int(c) for c in value]
    return out


def libra_workload(path: str, communicator_path: str, network: Network) -> Workload:
    """LIBRA's layer-wise workload on `network`: one view, every NPU alike."""
    layers = read_layers(path)
    comm = read_communicator(communicator_path, network)
    compute = 0.0
    comms = []
    for layer in layers:
        for p, (compute_ns, kind, size) in enumerate(layer.phases):
            compute += compute_ns
            if kind is None or size == 0:
                continue
            vector = comm[PASSES[p]]
            comms.append(Communication(f"{layer.name}.{PASSES[p]}", kind, size, vector,
                                       dimension_traffic(kind, size, vector)))
    desc = f"{os.path.basename(path)} ({len(layers)} layers, {len(comms)} collectives)"
    w = Workload(path, "libra", [RankView("every NPU", compute, comms)], desc)
    w.layers = [{"name": l.name, "phases": l.phases} for l in layers]
    w.communicator = comm
    return w

