# SPDX-License-Identifier: GPL-2.0-only
"""The fidelity term of one layer and its l0-limited minimisation.

A restructured layer must reproduce the original layer's pre-activations Y (samples x
outputs) from the inputs X that the restructured network before it delivers. An output
neuron sees only the inputs available on its worker: its own worker's neurons, the
bias, and the remote neurons the worker keeps. For an available set A the best weights
and the remaining error are a least-squares problem,

    min_w ||Y_o - [X 1]_A w||^2 + ridge ||w||^2.

All such problems share the Gram matrix G = D^T D + ridge·I of D = [X 1]. With its
Cholesky factor G = L L^T, Phi = L^T and Psi = L^{-1} D^T Y reproduce every one of them
in p = inputs + 1 rows (Phi_A^T Phi_A = G_AA, Phi_A^T Psi = D_A^T Y), so the error of
any set is ||Y_o||^2 - ||proj_{Phi_A} Psi_o||^2 and greedy selection runs on p rows
instead of one per sample.
"""

import numpy as np
from scipy.linalg import cho_factor, solve_triangular

#: Ridge, relative to the mean diagonal of the Gram matrix: only keeps the factor
#: defined when inputs are constant (dead ReLU units) or collinear.
RELATIVE_RIDGE = 1e-8


class LayerFidelity:
    """The fidelity term of one layer for inputs x and original pre-activations y."""

    def __init__(self, x, y):
        design = np.hstack([x, np.ones((len(x), 1))])
        gram = design.T @ design
        gram += RELATIVE_RIDGE * np.trace(gram) / len(gram) * np.eye(len(gram))
        lower, _ = cho_factor(gram, lower=True)
        lower = np.tril(lower)
        self.phi = lower.T
        self.psi = solve_triangular(lower, design.T @ y, lower=True)
        self.target_energy = np.sum(y * y, axis=0)
        self.bias = x.shape[1]
        self.inputs = x.shape[1]

    def errors(self, available, outputs=None):
        """Squared error of each output (all, or those listed) given the input columns
        available (the bias is always available)."""
        outputs = np.arange(self.psi.shape[1]) if outputs is None else outputs
        columns = np.append(np.asarray(available, dtype=np.int64), self.bias)
        basis, _ = np.linalg.qr(self.phi[:, columns])
        explained = np.sum((basis.T @ self.psi[:, outputs]) ** 2, axis=0)
        return np.maximum(self.target_energy[outputs] - explained, 0.0)

    def select(self, own, candidates, outputs, budget):
        """Greedily choose up to budget of the candidate inputs for these outputs.

        Starting from the own inputs and the bias, each step adds the candidate that
        lowers the outputs' summed squared error most (orthogonal matching pursuit on
        the whole group of outputs: an input is kept or dropped for all outputs of the
        worker at once, because one activation sent serves all of them). Stops early
        when no candidate lowers the error. Returns the chosen inputs in order.
        """
        candidates = np.asarray(candidates, dtype=np.int64)
        if budget <= 0 or len(candidates) == 0 or len(outputs) == 0:
            return []
        columns = np.append(np.asarray(own, dtype=np.int64), self.bias)
        basis, _ = np.linalg.qr(self.phi[:, columns])
        residual = self.psi[:, outputs] - basis @ (basis.T @ self.psi[:, outputs])
        free = self.phi[:, candidates] - basis @ (basis.T @ self.phi[:, candidates])
        scale = np.sum(self.phi[:, candidates] ** 2, axis=0)
        floor = 1e-10 * max(float(np.sum(self.target_energy[outputs])), 1e-300)
        chosen = []
        usable = np.ones(len(candidates), dtype=bool)
        for _ in range(min(budget, len(candidates))):
            norms = np.sum(free * free, axis=0)
            # A candidate (nearly) inside the span already adds nothing.
            usable &= norms > 1e-12 * scale
            if not usable.any():
                break
            gains = np.where(usable,
                             np.sum((free.T @ residual) ** 2, axis=1) / np.where(usable, norms, 1.0),
                             -1.0)
            best = int(np.argmax(gains))
            if gains[best] <= floor:
                break
            direction = free[:, best] / np.sqrt(norms[best])
            residual -= np.outer(direction, direction @ residual)
            free -= np.outer(direction, direction @ free)
            usable[best] = False
            chosen.append(int(candidates[best]))
        return chosen

    def refit(self, available, outputs):
        """Least-squares weights of these outputs on the available inputs: an array
        (len(available) + 1) x len(outputs), the last row the bias."""
        columns = np.append(np.asarray(available, dtype=np.int64), self.bias)
        weights, *_ = np.linalg.lstsq(self.phi[:, columns], self.psi[:, outputs], rcond=None)
        return weights
