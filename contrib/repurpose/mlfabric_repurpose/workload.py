# SPDX-License-Identifier: GPL-2.0-only
"""Distributed inference of a partition as Chakra traces, one rank per worker.

Per layer l, worker j:

* ``L<l>.send.to<d>``: its activations of layer l-1 that worker d uses, batch x count x
  precision bytes (COMM_SEND, tag l), after it has computed them; destinations in the
  order j+1, j+2, ... (mod K), so that with one message at a time per worker every
  step is a permutation and no receiver gets two messages at once;
* ``L<l>.recv.from<s>``: the same messages from the others (COMM_RECV);
* ``L<l>.local``: the product of its neurons' weights with its own inputs (COMP), which
  overlaps the transfers;
* ``L<l>.remote``: the received inputs' share, bias and ReLU, once the receives are in.

The logits stay where they are computed: a sink that needs them all adds the same
batch x 10 x precision bytes, less its own, to every partition.
A compute node lasts FLOPs / device rate (at least 1 us, the schema's unit) and carries
its FLOPs as num_ops and the bytes it touches as tensor_size.
"""

import math

from . import chakra

#: One multiply-add counts as two operations.
FLOPS_PER_MAC = 2


class Device:
    """A worker's compute: sustained GFLOP/s (10^9 operations per second)."""

    def __init__(self, gflops):
        self.gflops = gflops

    def duration_micros(self, flops):
        if flops == 0:
            return 0
        return max(1, int(math.floor(flops / (self.gflops * 1e3) + 0.5)))


class Workload:
    """The nodes of every rank, and the sizes of what they send."""

    def __init__(self, partition, batch, precision, device):
        self.partition = partition
        self.batch = batch
        self.precision = precision
        self.device = device
        self.ranks = [[] for _ in range(partition.workers)]
        self._build()

    def _add(self, rank, name, node_type, deps):
        node = chakra.TraceNode(len(self.ranks[rank]), name, node_type,
                                [d for d in deps if d is not None])
        self.ranks[rank].append(node)
        return node

    def _compute(self, rank, name, macs, extra_ops, touched, deps):
        flops = FLOPS_PER_MAC * macs + extra_ops
        node = self._add(rank, name, chakra.COMP_NODE, deps)
        node.duration_micros = self.device.duration_micros(flops)
        node.attrs["num_ops"] = flops
        node.attrs["tensor_size"] = touched * self.precision
        return node

    def _message(self, rank, name, node_type, src, dst, tag, count, deps):
        node = self._add(rank, name, node_type, deps)
        node.attrs.update(comm_src=src, comm_dst=dst, comm_tag=tag,
                          comm_size=self.batch * count * self.precision)
        return node

    def _build(self):
        p, workers, batch = self.partition, self.partition.workers, self.batch
        produced = [None] * workers  # each worker's node that made its current activations
        for l in range(1, p.layers + 1):
            counts = p.activation_counts(l)
            last = l == p.layers
            for j in range(workers):
                before = produced[j].id if produced[j] else None
                receives = []
                for step in range(1, workers):
                    d = (j + step) % workers
                    if counts[j][d]:
                        self._message(j, f"L{l}.send.to{d}", chakra.COMM_SEND_NODE,
                                      j, d, l, int(counts[j][d]), [before])
                for step in range(1, workers):
                    s = (j - step) % workers
                    if counts[s][j]:
                        receives.append(self._message(j, f"L{l}.recv.from{s}",
                                                      chakra.COMM_RECV_NODE, s, j, l,
                                                      int(counts[s][j]), [before]).id)
                neurons = len(p.neurons(l, j))
                if neurons == 0:
                    produced[j] = None
                    continue
                own, remote = p.used_inputs(l, j)
                local = self._compute(j, f"L{l}.local", batch * neurons * own, 0,
                                      neurons * own + batch * own, [before])
                # bias, and ReLU on hidden layers
                finish_ops = batch * neurons * (1 if last else 2)
                produced[j] = self._compute(j, f"L{l}.remote", batch * neurons * remote,
                                            finish_ops,
                                            neurons * remote + batch * (remote + neurons),
                                            [local.id] + receives)

    def sends(self):
        """(src, dst, tag, bytes) of every COMM_SEND node."""
        return [(n.attrs["comm_src"], n.attrs["comm_dst"], n.attrs["comm_tag"],
                 n.attrs["comm_size"])
                for nodes in self.ranks for n in nodes if n.type == chakra.COMM_SEND_NODE]

    def write(self, prefix, parameters):
        """PREFIX.<rank>.et for every worker; returns the paths."""
        paths = []
        for rank, nodes in enumerate(self.ranks):
            path = chakra.rank_path(prefix, rank)
            chakra.write_trace(path, nodes, "mlfabric gen repurpose", parameters)
            paths.append(path)
        chakra.remove_stale_ranks(prefix, len(self.ranks))
        return paths
