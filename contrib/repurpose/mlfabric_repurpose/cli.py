# SPDX-License-Identifier: GPL-2.0-only
"""`./mlfabric gen repurpose`: restructure the trained network and write its traces."""

import json
import os
import sys

from . import mlp, restructure, workload
from .data import Digits

USAGE = """usage: mlfabric gen repurpose --workers=K --out=PREFIX [--name=value ...]

Train (or load) the digits MLP, split it across K workers with RePurpose and the two
unpruned baselines, and write Chakra traces of distributed inference, one rank per
worker, for the partition --partition names.

  --workers=K          workers (ranks), at least 2
  --out=PREFIX         writes PREFIX.<rank>.et
  --summary=FILE       the figures of every partition as JSON
  --partition=NAME     repurpose (default), contiguous, random (the unpruned baselines)
                       or contiguous-pruned (the l0 step without the assignment)
  --prune=P            share of each worker's remote inputs pruned per layer, 0..1 [0.9]
  --batch=B            samples per inference batch [32]
  --precision=BYTES    bytes per activation on the wire [4]
  --device-gflops=R    each worker's sustained compute rate, GFLOP/s [10]
  --compute-slack=S    a worker may hold (1 + S) times its even share of a layer [0]
  --iterations=N       most assignment / l0 alternations per layer [5]
  --hidden=W,W         hidden layer widths of the network [256,256]
  --seed=N             data split, training and random baseline [0]
  --weights=FILE       cache of the trained weights (.npz): read if it holds the
                       network of these widths and seed, written otherwise
"""

PARTITIONS = ("repurpose", "contiguous", "random", "contiguous-pruned")


class UsageError(Exception):
    """Bad input: one line naming the option."""


def _integer(name, text, low, high=None):
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"--{name}: not a whole number: '{text}'") from None
    if value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise UsageError(f"--{name}: must be {bound} (got {value})")
    return value


def _real(name, text, low, high=None, low_open=False):
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"--{name}: not a number: '{text}'") from None
    if value != value or value in (float("inf"), float("-inf")) or value < low \
            or (low_open and value == low) or (high is not None and value > high):
        rule = (f"in [{low:g}, {high:g}]" if high is not None
                else f"> {low:g}" if low_open else f">= {low:g}")
        raise UsageError(f"--{name}: must be {rule} (got {text})")
    return value


DEFAULTS = {
    "workers": None, "out": None, "summary": "", "partition": "repurpose", "prune": "0.9",
    "batch": "32", "precision": "4", "device-gflops": "10", "compute-slack": "0",
    "iterations": "5", "hidden": "256,256", "seed": "0", "weights": "",
}


def parse(argv):
    """The options as a dict of typed values; UsageError on any bad one."""
    given = {}
    for arg in argv:
        if not arg.startswith("--") or "=" not in arg:
            raise UsageError(f"unexpected argument '{arg}' (options are --name=value)")
        name, value = arg[2:].split("=", 1)
        if name not in DEFAULTS:
            raise UsageError(f"--{name}: not an option of gen repurpose (see --help)")
        if name in given:
            raise UsageError(f"--{name}: given twice")
        given[name] = value
    for name in ("workers", "out"):
        if name not in given:
            raise UsageError(f"--{name}: required")
    text = {**DEFAULTS, **given}
    options = {
        "workers": _integer("workers", text["workers"], 2, 1 << 20),
        "out": text["out"],
        "summary": text["summary"],
        "partition": text["partition"],
        "prune": _real("prune", text["prune"], 0.0, 1.0),
        "batch": _integer("batch", text["batch"], 1),
        "precision": _integer("precision", text["precision"], 1, 64),
        "device_gflops": _real("device-gflops", text["device-gflops"], 0.0, low_open=True),
        "compute_slack": _real("compute-slack", text["compute-slack"], 0.0),
        "iterations": _integer("iterations", text["iterations"], 1),
        "seed": _integer("seed", text["seed"], 0, 2 ** 32 - 1),
        "weights": text["weights"],
    }
    if not options["out"]:
        raise UsageError("--out: empty prefix")
    out_dir = os.path.dirname(os.path.abspath(options["out"]))
    if not os.path.isdir(out_dir):
        raise UsageError(f"--out: no folder {out_dir}")
    if options["partition"] not in PARTITIONS:
        raise UsageError(f"--partition: '{options['partition']}' is none of "
                         + ", ".join(PARTITIONS))
    try:
        hidden = tuple(int(w) for w in text["hidden"].split(","))
    except ValueError:
        raise UsageError(f"--hidden: not a list of whole numbers: '{text['hidden']}'") from None
    if not hidden or min(hidden) < 1:
        raise UsageError(f"--hidden: widths must be at least 1 (got {text['hidden']})")
    options["widths"] = (64,) + hidden + (10,)
    if min(options["widths"]) < options["workers"]:
        raise UsageError(f"--workers: {options['workers']} workers but a layer has only "
                         f"{min(options['widths'])} neurons")
    return options


def build(options):
    """Every partition of the options and the data: (data, model, {name: Partition})."""
    data = Digits(options["seed"])
    model = mlp.load_or_train(options["weights"], options["widths"], options["seed"], data)
    limits = restructure.Limits(options["workers"], options["prune"],
                                options["compute_slack"], options["iterations"])
    partitions = {name: restructure.baseline(name, model, options["workers"], options["seed"])
                  for name in ("contiguous", "random")}
    partitions["repurpose"] = restructure.restructure(model, data.x_train, limits)
    if options["partition"] == "contiguous-pruned":
        partitions["contiguous-pruned"] = restructure.restructure(
            model, data.x_train, limits, reassign=False, name="contiguous-pruned")
    return data, model, partitions


def parameters_text(options):
    """The options as the traces' metadata 'parameters' string."""
    keys = ("workers", "partition", "prune", "batch", "precision", "device_gflops",
            "compute_slack", "iterations", "seed")
    widths = ",".join(map(str, options["widths"]))
    return " ".join(f"{k.replace('_', '-')}={options[k]}" for k in keys) + f" widths={widths}"


def summary(options, data, model, partitions, paths):
    """The summary JSON: the traced partition's figures at the top, the baselines under
    'baselines'."""
    batch, precision = options["batch"], options["precision"]
    traced = partitions[options["partition"]]
    result = {
        "generator": "mlfabric gen repurpose",
        "workers": options["workers"],
        "partition": traced.name,
        "prune": options["prune"],
        "batch": batch,
        "precision_bytes": precision,
        "device_gflops": options["device_gflops"],
        "seed": options["seed"],
        "widths": list(options["widths"]),
        "model_sha256": model.digest(),
        "original_accuracy": model.accuracy(data.x_test, data.y_test),
        "test_samples": int(len(data.y_test)),
        "traces": paths,
    }
    result.update(traced.describe(data, batch, precision))
    result["repurpose"] = partitions["repurpose"].describe(data, batch, precision)
    result["baselines"] = {name: partitions[name].describe(data, batch, precision)
                           for name in ("contiguous", "random")}
    return result


def main(argv=None):
    """Run the command; returns the exit status (2 for bad input)."""
    argv = sys.argv[1:] if argv is None else argv
    if any(a in ("-h", "--help", "help") for a in argv):
        print(USAGE, end="")
        return 0
    try:
        options = parse(argv)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        data, model, partitions = build(options)
    except (OSError, ValueError) as error:
        print(f"error: --weights: {options['weights']}: {error}", file=sys.stderr)
        return 2
    traced = partitions[options["partition"]]
    trace = workload.Workload(traced, options["batch"], options["precision"],
                              workload.Device(options["device_gflops"]))
    try:
        paths = trace.write(options["out"], parameters_text(options))
    except OSError as error:
        print(f"error: --out: {error}", file=sys.stderr)
        return 2
    figures = summary(options, data, model, partitions, paths)
    print(f"repurpose: {options['workers']} workers, partition {traced.name}, prune "
          f"{options['prune']:g}: accuracy {figures['accuracy']:.4f} (original "
          f"{figures['original_accuracy']:.4f}), {figures['cross_worker_bytes']} cross-worker "
          f"bytes per batch of {options['batch']} (contiguous "
          f"{figures['baselines']['contiguous']['cross_worker_bytes']}); wrote "
          f"{len(paths)} traces {options['out']}.<rank>.et")
    if options["summary"]:
        try:
            with open(options["summary"], "w", encoding="utf-8") as f:
                json.dump(figures, f, indent=1)
                f.write("\n")
        except OSError as error:
            print(f"error: --summary: {error}", file=sys.stderr)
            return 2
    return 0
