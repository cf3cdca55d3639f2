# SPDX-License-Identifier: GPL-2.0-only
"""`./mlfabric dse`: a design-space sweep of parallelization, memory and network."""
