# SPDX-License-Identifier: GPL-2.0-only
"""RePurpose: a trained network's layers split across workers, and its Chakra traffic.

Abdi, Rashidi, Fekri, Krishna, "Efficient Distributed Inference of Deep Neural Networks
via Restructuring and Pruning" (AAAI 2023): each layer's neurons are assigned to K
workers (Munkres) and the cross-worker weights are pruned under an l0 limit while the
layer's output is kept close to the original one (the fidelity term).
"""

import os

# One BLAS thread: these matrices are small, so threads only contend for the cores, and a
# fixed thread count keeps every run's floating-point sums in the same order.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
