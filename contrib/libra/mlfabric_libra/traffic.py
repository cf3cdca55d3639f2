# SPDX-License-Identifier: GPL-2.0-only
"""Per-dimension traffic of a collective (LIBRA's hierarchical decomposition).

A communicator gives, per dimension, how many NPUs of it take part (-1: none). The
collective runs dimension after dimension; what an NPU sends on dimension d:

  all-reduce      2 S_d (c_d-1)/c_d, then S_{d+1} = S_d / c_d
  reduce-scatter    S_d (c_d-1)/c_d, then S_{d+1} = S_d / c_d
  all-gather        S_d (c_d-1) from the last dimension down, then S <- S c_d
  all-to-all        S (c_d-1)/c_d on every dimension, no resize
  point-to-point    S on every dimension where the two NPUs differ
"""

from typing import List, Sequence

COLLECTIVES = ("ALLREDUCE", "REDUCESCATTER", "ALLGATHER", "ALLTOALL", "SENDRECV")


def dimension_traffic(kind: str, size: float, comm: Sequence[int]) -> List[float]:
    """Bytes each NPU sends on every dimension for one collective of `size` bytes."""
    out = [0.0] * len(comm)
    if kind == "ALLREDUCE" or kind == "REDUCESCATTER":
        factor = 2.0 if kind == "ALLREDUCE" else 1.0
        chunk = float(size)
        for d, c in enumerate(comm):
            if c <= 0:
                continue
            out[d] = factor * chunk * (c - 1) / c
            chunk /= c
    elif kind == "ALLGATHER":
        chunk = float(size)
        for d in range(len(comm) - 1, -1, -1):
            c = comm[d]
            if c <= 0:
                continue
            out[d] = chunk * (c - 1)
            chunk *= c
    elif kind == "ALLTOALL":
        for d, c in enumerate(comm):
            if c > 0:
                out[d] = float(size) * (c - 1) / c
    elif kind == "SENDRECV":
        for d, c in enumerate(comm):
            if c > 0:
                out[d] = float(size)
    else:
        raise ValueError(f"unknown collective {kind}")
    return out
