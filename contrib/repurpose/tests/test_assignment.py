# SPDX-License-Identifier: GPL-2.0-only
"""The Munkres step against brute force, and the l0 step's limits."""

import itertools
import unittest

import numpy as np

import shared  # noqa: F401  (puts the package on the path)
from mlfabric_repurpose import assignment, restructure
from mlfabric_repurpose.fidelity import LayerFidelity
from mlfabric_repurpose.mlp import Mlp


def brute_force(cost, capacity):
    """Least total cost over every assignment that respects the capacities."""
    neurons, workers = cost.shape
    best = None
    for owners in itertools.product(range(workers), repeat=neurons):
        if np.any(np.bincount(owners, minlength=workers) > capacity):
            continue
        total = sum(cost[n, owners[n]] for n in range(neurons))
        best = total if best is None else min(best, total)
    return best


class AssignmentTest(unittest.TestCase):
    def test_random_costs_match_brute_force(self):
        rng = np.random.default_rng(7)
        for neurons, workers, capacity in ((6, 3, [2, 2, 2]), (7, 3, [3, 2, 3]),
                                           (5, 2, [4, 1]), (8, 4, [2, 2, 2, 2])):
            cost = rng.random((neurons, workers))
            owners = assignment.assign(cost, capacity)
            self.assertTrue(np.all(np.bincount(owners, minlength=workers) <= capacity))
            total = cost[np.arange(neurons), owners].sum()
            self.assertAlmostEqual(total, brute_force(cost, capacity), places=12)

    def test_small_layer_fidelity_costs_match_brute_force(self):
        """A small layer of 6 inputs and 6 neurons over 3 workers: the assignment of
        RePurpose's first alternation (no remote input kept) costs what the best of all
        90 balanced assignments costs, in summed squared fidelity error."""
        rng = np.random.default_rng(3)
        x = np.maximum(rng.normal(size=(200, 6)), 0.0)
        w = rng.normal(size=(6, 6))
        y = x @ w.T + rng.normal(size=6)
        fidelity = LayerFidelity(x, y)
        owner_in = assignment.contiguous(6, 3)
        cost = np.column_stack([fidelity.errors(np.flatnonzero(owner_in == j)) for j in range(3)])
        capacity = assignment.capacities(6, 3, 0.0)
        owners = assignment.assign(cost, capacity)
        best = brute_force(cost, np.array(capacity))
        # The cost of each neuron on a worker is its actual error there (recomputed).
        actual = sum(float(fidelity.errors(np.flatnonzero(owner_in == owners[n]), [n])[0])
                     for n in range(6))
        self.assertAlmostEqual(actual, best, delta=1e-9 * best)
        # Brute force over the layer itself: every balanced assignment's true error.
        worst = max(sum(float(fidelity.errors(np.flatnonzero(owner_in == o[n]), [n])[0])
                        for n in range(6))
                    for o in itertools.product(range(3), repeat=6)
                    if np.all(np.bincount(o, minlength=3) <= 2))
        self.assertLess(best, worst)

    def test_capacity_too_small(self):
        with self.assertRaises(ValueError):
            assignment.assign(np.zeros((5, 2)), [2, 2])

    def test_baseline_splits_are_balanced(self):
        rng = np.random.default_rng(0)
        for split in (assignment.contiguous(10, 4), assignment.random_split(10, 4, rng)):
            self.assertEqual(sorted(np.bincount(split, minlength=4)), [2, 2, 3, 3])


class PruningTest(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(11)
        widths = (12, 16, 8)
        self.model = Mlp([rng.normal(size=(o, i)) for i, o in zip(widths[:-1], widths[1:])],
                         [rng.normal(size=o) for o in widths[1:]])
        self.x = rng.random((300, 12))

    def test_limits_hold_per_worker_and_layer(self):
        for prune in (0.5, 0.8, 1.0):
            limits = restructure.Limits(4, prune)
            part = restructure.restructure(self.model, self.x, limits)
            for l in range(1, part.layers + 1):
                counts = part.activation_counts(l)
                inputs = part.owners[l - 1]
                for j in range(4):
                    remote = int(np.sum(inputs != j))
                    self.assertLessEqual(int(counts[:, j].sum()), limits.budget(remote))
                neurons = np.bincount(part.owners[l], minlength=4)
                self.assertTrue(np.all(neurons <= assignment.capacities(len(part.owners[l]), 4, 0)))

    def test_nothing_pruned_reproduces_the_network(self):
        """Every remote input kept: the refit finds the original weights again, up to
        the ridge that keeps the Gram matrix of the dead ReLU unit invertible."""
        part = restructure.restructure(self.model, self.x, restructure.Limits(4, 0.0))
        restructured = part.model.activations(self.x)[-1]
        original = self.model.activations(self.x)[-1]
        self.assertLess(np.linalg.norm(restructured - original) / np.linalg.norm(original), 1e-4)
        np.testing.assert_array_equal(np.argmax(restructured, 1), np.argmax(original, 1))

    def test_more_pruning_less_fidelity(self):
        errors = [restructure.restructure(self.model, self.x,
                                          restructure.Limits(4, prune)).fidelity[0]
                  for prune in (0.0, 0.5, 1.0)]
        self.assertLess(errors[0], 1e-6)
        self.assertLess(errors[0], errors[1])
        self.assertLess(errors[1], errors[2])


if __name__ == "__main__":
    unittest.main()
