# SPDX-License-Identifier: GPL-2.0-only
"""What the RePurpose tests share: the package on the path, one trained network per run."""

import atexit
import functools
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "chakra"))

from mlfabric_repurpose import mlp  # noqa: E402
from mlfabric_repurpose.data import Digits  # noqa: E402

SEED = 0
_folder = tempfile.mkdtemp(prefix="repurpose-tests-")
atexit.register(shutil.rmtree, _folder, True)


@functools.lru_cache(maxsize=None)
def trained():
    """(data, model) of the default widths and seed, trained once per test run; its
    weights are also in weights_file() for the command-line tests."""
    data = Digits(SEED)
    return data, mlp.load_or_train(weights_file(), mlp.DEFAULT_WIDTHS, SEED, data)


def weights_file():
    return os.path.join(_folder, "weights.npz")


def folder():
    return _folder
