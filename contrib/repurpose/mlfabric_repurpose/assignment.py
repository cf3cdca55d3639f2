# SPDX-License-Identifier: GPL-2.0-only
"""Neurons to workers: the Munkres step of RePurpose and the two baseline splits."""

import math

import numpy as np
from scipy.optimize import linear_sum_assignment


def capacities(neurons, workers, slack):
    """Most neurons a worker may hold: the per-worker compute limit.

    slack 0 is an even split (ceil(n / K)); slack s lets a worker take (1 + s) times its
    even share, so that the assignment can trade balance for less traffic.
    """
    cap = math.ceil(neurons / workers * (1.0 + slack) - 1e-9)
    return [max(cap, math.ceil(neurons / workers))] * workers


def assign(cost, capacity):
    """The assignment of least total cost.

    cost[n, j] is what neuron n costs on worker j; worker j takes at most capacity[j]
    neurons. Each worker's capacity becomes that many identical columns, so the
    capacitated problem is a rectangular linear assignment, which Munkres' algorithm
    (scipy's linear_sum_assignment) solves exactly. Returns the worker of each neuron.
    """
    cost = np.asarray(cost, dtype=np.float64)
    neurons, workers = cost.shape
    if len(capacity) != workers or sum(capacity) < neurons:
        raise ValueError("the workers' capacities do not hold every neuron")
    slot_worker = np.repeat(np.arange(workers), capacity)
    rows, slots = linear_sum_assignment(cost[:, slot_worker])
    owner = np.empty(neurons, dtype=np.int64)
    owner[rows] = slot_worker[slots]
    return owner


def contiguous(neurons, workers):
    """Equal contiguous blocks: neuron n goes to worker floor(n·K / N) (np.array_split)."""
    owner = np.empty(neurons, dtype=np.int64)
    for j, block in enumerate(np.array_split(np.arange(neurons), workers)):
        owner[block] = j
    return owner


def random_split(neurons, workers, rng):
    """Equal blocks of a random permutation of the neurons."""
    owner = np.empty(neurons, dtype=np.int64)
    owner[rng.permutation(neurons)] = contiguous(neurons, workers)
    return owner
