# SPDX-License-Identifier: GPL-2.0-only
"""LIBRA's per-dimension bandwidth optimisation, solved with NLopt and checked by replay."""
