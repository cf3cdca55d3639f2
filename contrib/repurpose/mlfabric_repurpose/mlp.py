# SPDX-License-Identifier: GPL-2.0-only
"""The trained network: a ReLU multilayer perceptron, trained here by a seeded script.

Training is plain mini-batch Adam on the cross-entropy, in float64 with numpy, so that
one seed gives one set of weights. Nothing is downloaded: the data ship with
scikit-learn (python3-sklearn).
"""

import hashlib
import os

import numpy as np

from .data import Digits

#: Layer widths of the network the study restructures: 64 pixels, two hidden layers of
#: 256 ReLU neurons, 10 logits.
DEFAULT_WIDTHS = (64, 256, 256, 10)
#: Training schedule (fixed, so that a seed names one network).
EPOCHS = 60
MINIBATCH = 32
LEARNING_RATE = 1e-3
WEIGHT_DECAY = 1e-4
ADAM_BETAS = (0.9, 0.999)
ADAM_EPS = 1e-8
#: Version of this recipe, stored with cached weights: a change here invalidates them.
RECIPE = "mlp-adam-v1"


class Mlp:
    """Weights W[l] (out x in) and biases b[l] of each layer; ReLU on all but the last."""

    def __init__(self, weights, biases):
        self.weights = [np.asarray(w, dtype=np.float64) for w in weights]
        self.biases = [np.asarray(b, dtype=np.float64) for b in biases]

    @property
    def widths(self):
        return (self.weights[0].shape[1],) + tuple(w.shape[0] for w in self.weights)

    @property
    def layers(self):
        return len(self.weights)

    def activations(self, x):
        """Inputs of every layer and the logits: [x, h1, ..., logits]."""
        out = [x]
        for l, (w, b) in enumerate(zip(self.weights, self.biases)):
            z = out[-1] @ w.T + b
            out.append(z if l == self.layers - 1 else np.maximum(z, 0.0))
        return out

    def predict(self, x):
        return np.argmax(self.activations(x)[-1], axis=1)

    def accuracy(self, x, y):
        return float(np.mean(self.predict(x) == y))

    def digest(self):
        """SHA-256 of the weights' bytes: names one trained network."""
        h = hashlib.sha256()
        for array in self.weights + self.biases:
            h.update(np.ascontiguousarray(array).tobytes())
        return h.hexdigest()


def train(widths, seed, data=None):
    """Train the MLP of these widths on the digits' training split of this seed."""
    data = data or Digits(seed)
    rng = np.random.default_rng(seed)
    # He initialisation for ReLU layers.
    weights = [rng.normal(0.0, np.sqrt(2.0 / fan_in), size=(fan_out, fan_in))
               for fan_in, fan_out in zip(widths[:-1], widths[1:])]
    biases = [np.zeros(fan_out) for fan_out in widths[1:]]
    params = weights + biases
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    x, y = data.x_train, data.y_train
    onehot = np.eye(widths[-1])[y]
    step = 0
    for _ in range(EPOCHS):
        order = rng.permutation(len(x))
        for start in range(0, len(x), MINIBATCH):
            batch = order[start:start + MINIBATCH]
            grads = _gradients(weights, biases, x[batch], onehot[batch])
            step += 1
            b1, b2 = ADAM_BETAS
            for p, g, m, v in zip(params, grads, moments, squares):
                m *= b1
                m += (1 - b1) * g
                v *= b2
                v += (1 - b2) * g * g
                m_hat = m / (1 - b1 ** step)
                v_hat = v / (1 - b2 ** step)
                p -= LEARNING_RATE * m_hat / (np.sqrt(v_hat) + ADAM_EPS)
    return Mlp(weights, biases)


def _gradients(weights, biases, x, onehot):
    """Gradients of the mean cross-entropy plus weight decay, weights then biases."""
    inputs, pre = [x], []
    for l, (w, b) in enumerate(zip(weights, biases)):
        z = inputs[-1] @ w.T + b
        pre.append(z)
        if l < len(weights) - 1:
            inputs.append(np.maximum(z, 0.0))
    logits = pre[-1]
    logits = logits - logits.max(axis=1, keepdims=True)
    prob = np.exp(logits)
    prob /= prob.sum(axis=1, keepdims=True)
    delta = (prob - onehot) / len(x)
    grad_w, grad_b = [None] * len(weights), [None] * len(weights)
    for l in range(len(weights) - 1, -1, -1):
        grad_w[l] = delta.T @ inputs[l] + WEIGHT_DECAY * weights[l]
        grad_b[l] = delta.sum(axis=0)
        if l > 0:
            delta = (delta @ weights[l]) * (pre[l - 1] > 0)
    return grad_w + grad_b


def load_or_train(path, widths, seed, data=None):
    """The network of (widths, seed): from the cache file path if it holds that one,
    otherwise trained and, when path is given, stored there."""
    key = f"{RECIPE} widths={','.join(map(str, widths))} seed={seed}"
    if path and os.path.exists(path):
        with np.load(path) as stored:
            if str(stored["key"]) == key:
                count = (len(stored.files) - 1) // 2
                return Mlp([stored[f"w{l}"] for l in range(count)],
                           [stored[f"b{l}"] for l in range(count)])
    model = train(widths, seed, data)
    if path:
        arrays = {f"w{l}": w for l, w in enumerate(model.weights)}
        arrays.update({f"b{l}": b for l, b in enumerate(model.biases)})
        directory = os.path.dirname(os.path.abspath(path))
        os.makedirs(directory, exist_ok=True)
        temporary = path + ".tmp.npz"
        np.savez(temporary, key=np.array(key), **arrays)
        os.replace(temporary, path)
    return model
