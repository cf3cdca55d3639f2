# SPDX-License-Identifier: GPL-2.0-only
"""Experiments that compare congestion control and fabrics on training workloads."""
