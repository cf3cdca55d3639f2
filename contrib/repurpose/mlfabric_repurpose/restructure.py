# SPDX-License-Identifier: GPL-2.0-only
"""RePurpose's layer-wise restructuring and the baseline splits.

Layer by layer, from the input to the logits:

1. the inputs of the layer are where the previous layer put its neurons (the input
   features where the sensors that see them are: an equal contiguous split of the
   pixels);
2. alternate (a) the assignment of the layer's neurons to workers, Munkres on the cost
   "squared fidelity error of neuron n if it ran on worker j with j's available
   inputs", under the compute limit (neurons per worker), and (b) the l0 step: for each
   worker, the remote inputs it keeps, at most its communication limit, chosen greedily
   for the least fidelity error of its neurons; until the assignment repeats;
3. refit the kept weights by least squares to the original pre-activations (the
   fidelity term; the labels are never used, the network is not retrained), and feed
   the restructured layer's outputs to the next layer, so that later layers correct
   the error of earlier ones.
"""

import math

import numpy as np

from . import assignment
from .fidelity import LayerFidelity
from .mlp import Mlp
from .partition import Partition, unpruned


class Limits:
    """Per-worker limits: compute (neurons per layer, through slack) and communication
    (keep = share of the remote inputs of a layer a worker may receive; 1 - prune)."""

    def __init__(self, workers, prune, slack=0.0, iterations=5):
        self.workers = workers
        self.keep = 1.0 - prune
        self.slack = slack
        self.iterations = iterations

    def budget(self, remote_inputs):
        """Remote inputs a worker may keep out of remote_inputs."""
        return int(math.floor(self.keep * remote_inputs + 1e-9))


def input_owners(model, workers):
    """The input features' workers: contiguous blocks of pixels (image rows)."""
    return assignment.contiguous(model.widths[0], workers)


def baseline(name, model, workers, seed):
    """The unpruned splits: 'contiguous' (equal blocks) or 'random' (seeded)."""
    owners = [input_owners(model, workers)]
    rng = np.random.default_rng(seed)
    for width in model.widths[1:]:
        owners.append(assignment.contiguous(width, workers) if name == "contiguous"
                      else assignment.random_split(width, workers, rng))
    return unpruned(name, workers, owners, model)


def restructure(model, x_calibration, limits, reassign=True, name="repurpose"):
    """RePurpose on model with calibration inputs x_calibration (the training images).

    With reassign=False the neurons stay in contiguous blocks and only the l0 step and
    the refit run: the ablation that shows what the assignment buys.
    """
    workers = limits.workers
    original = model.activations(x_calibration)
    owners = [input_owners(model, workers)]
    current = x_calibration
    weights, biases, errors = [], [], []
    for l in range(model.layers):
        w, b = model.weights[l], model.biases[l]
        target = original[l] @ w.T + b
        fidelity = LayerFidelity(current, target)
        owner_in = owners[-1]
        if reassign:
            owner_out, kept = _alternate(fidelity, owner_in, w.shape[0], limits)
        else:
            owner_out = assignment.contiguous(w.shape[0], workers)
            kept = _select(fidelity, owner_in, owner_out, limits)
        new_w, new_b = _refit(fidelity, owner_in, owner_out, kept, w.shape)
        pre = current @ new_w.T + new_b
        errors.append(float(np.linalg.norm(pre - target) / max(np.linalg.norm(target), 1e-300)))
        current = pre if l == model.layers - 1 else np.maximum(pre, 0.0)
        weights.append(new_w)
        biases.append(new_b)
        owners.append(owner_out)
    return Partition(name, workers, owners, Mlp(weights, biases), errors)


def _available(owner_in, worker, kept):
    return np.concatenate([np.flatnonzero(owner_in == worker),
                           np.asarray(kept[worker], dtype=np.int64)])


def _select(fidelity, owner_in, owner_out, limits):
    """The l0 step: each worker's kept remote inputs for its assigned neurons."""
    kept = []
    for j in range(limits.workers):
        remote = np.flatnonzero(owner_in != j)
        kept.append(fidelity.select(np.flatnonzero(owner_in == j), remote,
                                    np.flatnonzero(owner_out == j), limits.budget(len(remote))))
    return kept


def _alternate(fidelity, owner_in, neurons, limits):
    """Alternate Munkres assignment and the l0 step; the best pair found."""
    capacity = assignment.capacities(neurons, limits.workers, limits.slack)
    kept = [[] for _ in range(limits.workers)]
    best, previous = None, None
    for _ in range(max(1, limits.iterations)):
        cost = np.column_stack([fidelity.errors(_available(owner_in, j, kept))
                                for j in range(limits.workers)])
        owner_out = assignment.assign(cost, capacity)
        if previous is not None and np.array_equal(owner_out, previous):
            break
        kept = _select(fidelity, owner_in, owner_out, limits)
        total = sum(float(np.sum(fidelity.errors(_available(owner_in, j, kept),
                                                 np.flatnonzero(owner_out == j))))
                    for j in range(limits.workers))
        if best is None or total < best[0]:
            best = (total, owner_out, kept)
        previous = owner_out
    return best[1], best[2]


def _refit(fidelity, owner_in, owner_out, kept, shape):
    """The restructured layer: refitted weights on each worker's available inputs."""
    new_w = np.zeros(shape)
    new_b = np.zeros(shape[0])
    for j in range(len(kept)):
        outputs = np.flatnonzero(owner_out == j)
        if len(outputs) == 0:
            continue
        available = _available(owner_in, j, kept)
        fitted = fidelity.refit(available, outputs)
        new_w[np.ix_(outputs, available)] = fitted[:-1].T
        new_b[outputs] = fitted[-1]
    return new_w, new_b
