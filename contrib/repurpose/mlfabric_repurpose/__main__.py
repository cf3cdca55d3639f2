# SPDX-License-Identifier: GPL-2.0-only
"""python3 -m mlfabric_repurpose --workers=K --out=PREFIX ..."""

import sys

from .cli import main

sys.exit(main())
