# SPDX-License-Identifier: GPL-2.0-only
"""RePurpose: a trained network's layers split across workers, and its Chakra traffic.

Abdi, Rashidi, Fekri, Krishna, "Efficient Distributed Inference of Deep Neural Networks
via Restructuring and Pruning" (AAAI 2023): each layer's neurons are assigned to K
workers (Munkres) and the cross-worker weights are pruned under an l0 limit while the
layer's output is kept close to the original one (the fidelity term).
"""

import os
import platform
import sys

# One BLAS thread: these matrices are small, so threads only contend for the cores, and a
# fixed thread count keeps every run's floating-point sums in the same order.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

# numpy picks its kernels for exp, log and the like by the CPU it runs on, and its AVX-512
# ones round a few results differently from its AVX2 ones: training would give another
# network, bit for bit, on an AVX-512 machine. Capping the kernels at AVX2 gives the
# published network (doc/studies/repurpose.json) on every x86-64 machine with AVX2.
AVX512_KERNELS = "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL"
if platform.machine() in ("x86_64", "AMD64"):
    os.environ.setdefault("NPY_DISABLE_CPU_FEATURES", AVX512_KERNELS)
    if "numpy" in sys.modules:
        from numpy.core._multiarray_umath import __cpu_features__ as _features

        if any(_features.get(_name) for _name in AVX512_KERNELS.split()):
            sys.stderr.write(
                "mlfabric_repurpose: numpy was imported first with its AVX-512 kernels on; "
                "training will not give the published network bit for bit (set "
                f"NPY_DISABLE_CPU_FEATURES=\"{AVX512_KERNELS}\" before starting Python)\n")
