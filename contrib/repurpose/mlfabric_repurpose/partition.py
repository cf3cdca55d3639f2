# SPDX-License-Identifier: GPL-2.0-only
"""A network split across workers: who holds which neuron, and the weights it runs with."""

import numpy as np

from .mlp import Mlp

class Partition:
    """owners[0] places the input features, owners[l] the outputs of layer l; model holds
    the weights every worker runs with (zero where a weight was pruned)."""

    def __init__(self, name, workers, owners, model, fidelity=None):
        self.name = name
        self.workers = workers
        self.owners = [np.asarray(o, dtype=np.int64) for o in owners]
        self.model = model
        #: per layer: relative Frobenius error of the pre-activations on the calibration
        #: data, ||Z' - Z|| / ||Z|| (None for an unpruned split, where it is 0).
        self.fidelity = fidelity or [0.0] * model.layers

    @property
    def layers(self):
        return self.model.layers

    def needed(self, layer):
        """needed[i][j]: the inputs of this layer (1-based) that worker i holds and
        worker j uses, i.e. that some surviving weight of j's outputs multiplies."""
        weights = self.model.weights[layer - 1]
        inputs, outputs = self.owners[layer - 1], self.owners[layer]
        result = [[np.zeros(0, dtype=np.int64)] * self.workers for _ in range(self.workers)]
        for j in range(self.workers):
            used = np.any(weights[outputs == j] != 0.0, axis=0)
            for i in range(self.workers):
                if i != j:
                    result[i][j] = np.flatnonzero(used & (inputs == i))
        return result

    def activation_counts(self, layer):
        """K x K matrix: activations per sample that worker i sends worker j in layer."""
        needed = self.needed(layer)
        return np.array([[len(needed[i][j]) for j in range(self.workers)]
                         for i in range(self.workers)], dtype=np.int64)

    def neurons(self, layer, worker):
        """Output neurons of layer (1-based) on this worker."""
        return np.flatnonzero(self.owners[layer] == worker)

    def used_inputs(self, layer, worker):
        """(own, remote) counts of the inputs that worker's outputs of layer use."""
        weights = self.model.weights[layer - 1][self.owners[layer] == worker]
        used = np.any(weights != 0.0, axis=0) if len(weights) else np.zeros(0, bool)
        if len(weights) == 0:
            return 0, 0
        own = int(np.sum(used & (self.owners[layer - 1] == worker)))
        return own, int(np.sum(used)) - own

    def cross_worker_bytes(self, batch, precision):
        """Bytes that cross between workers for one batch: every layer's activations.
        The logits stay on the workers that compute them."""
        activations = sum(int(self.activation_counts(l).sum()) for l in range(1, self.layers + 1))
        return batch * precision * activations

    def describe(self, data, batch, precision):
        """The summary's figures of this partition."""
        layers = []
        for l in range(1, self.layers + 1):
            counts = self.activation_counts(l)
            layers.append({
                "layer": l,
                "neurons_per_worker": np.bincount(self.owners[l], minlength=self.workers).tolist(),
                "activations_per_sample": counts.tolist(),
                "bytes": int(counts.sum()) * batch * precision,
                "relative_error": self.fidelity[l - 1],
            })
        return {
            "accuracy": self.model.accuracy(data.x_test, data.y_test),
            "cross_worker_bytes": self.cross_worker_bytes(batch, precision),
            "kept_weights": int(sum(np.count_nonzero(w) for w in self.model.weights)),
            "layers": layers,
        }


def unpruned(name, workers, owners, model):
    """A split that runs the original weights: every worker needs every remote input."""
    return Partition(name, workers, owners, Mlp(model.weights, model.biases))
