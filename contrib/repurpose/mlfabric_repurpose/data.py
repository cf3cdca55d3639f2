# SPDX-License-Identifier: GPL-2.0-only
"""The data: scikit-learn's bundled handwritten digits (8x8 images, 10 classes)."""

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

#: Share of the 1797 images held out for testing; never seen by training or RePurpose.
TEST_FRACTION = 0.2
#: The digits' pixels are counts 0..16; dividing puts them in [0, 1].
PIXEL_SCALE = 16.0


class Digits:
    """The train/test split of one seed: x_* are float64 (samples x 64), y_* ints."""

    def __init__(self, seed):
        images = load_digits()
        x = images.data.astype(np.float64) / PIXEL_SCALE
        y = images.target.astype(np.int64)
        self.x_train, self.x_test, self.y_train, self.y_test = train_test_split(
            x, y, test_size=TEST_FRACTION, random_state=seed, stratify=y)
        self.classes = int(y.max()) + 1
