# SPDX-License-Identifier: GPL-2.0-only
"""The trained network's accuracy, recomputed from the shipped training script and seed."""

import json
import os
import unittest

import numpy as np

import shared
from mlfabric_repurpose import mlp
from mlfabric_repurpose.data import Digits

STUDY = os.path.join(shared.ROOT, "doc", "studies", "repurpose.json")


def forward(weights, biases, x):
    """The MLP written out again: ReLU layers, linear logits."""
    for w, b in zip(weights[:-1], biases[:-1]):
        x = np.maximum(x @ w.T + b, 0.0)
    return x @ weights[-1].T + biases[-1]


class AccuracyTest(unittest.TestCase):
    def test_training_from_the_seed_gives_the_published_network(self):
        """Training again from seed 0 (not from a cache) gives, bit for bit, the network
        of doc/studies/repurpose.json, and its accuracy on the held-out digits is the
        published one."""
        data = Digits(shared.SEED)
        model = mlp.train(mlp.DEFAULT_WIDTHS, shared.SEED, data)
        with open(STUDY, encoding="utf-8") as f:
            study = json.load(f)
        self.assertEqual(model.digest(), study["model_sha256"])
        predictions = np.argmax(forward(model.weights, model.biases, data.x_test), axis=1)
        correct = int(np.sum(predictions == data.y_test))
        self.assertEqual(len(data.y_test), study["test_samples"])
        self.assertEqual(correct / len(data.y_test), study["original_accuracy"])
        # A trained network, not a chance one (10 classes).
        self.assertGreater(correct / len(data.y_test), 0.95)
        # The shared, cached network of the other tests is the same one.
        self.assertEqual(shared.trained()[1].digest(), model.digest())

    def test_held_out_digits_are_never_trained_on(self):
        data = Digits(shared.SEED)
        train = {row.tobytes() for row in data.x_train}
        overlap = sum(row.tobytes() in train for row in data.x_test)
        # The digits set has a few duplicate images; a split by index keeps them rare.
        self.assertLess(overlap, 5)
        self.assertEqual(len(data.x_train) + len(data.x_test), 1797)

    def test_published_study_accuracies_recompute(self):
        """Every accuracy of the study's partitions is recomputed from the seed."""
        from mlfabric_repurpose import restructure
        with open(STUDY, encoding="utf-8") as f:
            study = json.load(f)
        data, model = shared.trained()
        for name in ("contiguous", "random"):
            part = restructure.baseline(name, model, study["workers"], study["seed"])
            self.assertEqual(part.model.accuracy(data.x_test, data.y_test),
                             study["baselines"][name]["accuracy"])
        point = next(p for p in study["repurpose"] if p["prune"] == 0.9)
        part = restructure.restructure(model, data.x_train,
                                       restructure.Limits(study["workers"], 0.9))
        self.assertEqual(part.model.accuracy(data.x_test, data.y_test), point["accuracy"])
        self.assertEqual(part.cross_worker_bytes(study["batch"], study["precision_bytes"]),
                         point["cross_worker_bytes"])


if __name__ == "__main__":
    unittest.main()
