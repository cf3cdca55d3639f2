# SPDX-License-Identifier: GPL-2.0-only
"""python3 -m mlfabric_libra --network=... --workload=... (see cli.py)."""

import sys

from .cli import main

sys.exit(main())
