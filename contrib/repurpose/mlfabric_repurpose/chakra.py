# SPDX-License-Identifier: GPL-2.0-only
"""RePurpose's trace nodes, written through mlfabric_chakra (contrib/chakra)."""

from mlfabric_chakra import (COMM_RECV_NODE, COMM_SEND_NODE, COMP_NODE, bindings, rank_path,
                             read_messages, remove_stale_ranks)
from mlfabric_chakra import write_trace as _write_nodes

__all__ = ["COMM_RECV_NODE", "COMM_SEND_NODE", "COMP_NODE", "TraceNode", "bindings",
           "rank_path", "read_frames", "remove_stale_ranks", "write_trace"]

#: The messages of a trace file as bytes (for tests and checks).
read_frames = read_messages


def _attribute(node, name):
    attr = node.attr.add()
    attr.name = name
    return attr


class TraceNode:
    """One node of a rank's trace, in the form mlfabric's generators write
    (model/chakra/et-node-codec.cc): integers as int64_val unless noted."""

    def __init__(self, node_id, name, node_type, deps):
        self.id = node_id
        self.name = name
        self.type = node_type
        self.deps = list(deps)
        self.duration_micros = 0
        self.attrs = {}

    def to_proto(self):
        pb = bindings()
        node = pb.Node()
        node.id = self.id
        node.name = self.name
        node.type = self.type
        node.data_deps.extend(self.deps)
        node.duration_micros = self.duration_micros
        _attribute(node, "is_cpu_op").bool_val = False
        if "num_ops" in self.attrs:
            _attribute(node, "num_ops").int64_val = self.attrs["num_ops"]
        if "tensor_size" in self.attrs:
            _attribute(node, "tensor_size").uint64_val = self.attrs["tensor_size"]
        if "comm_size" in self.attrs:
            _attribute(node, "comm_size").int64_val = self.attrs["comm_size"]
        for name in ("comm_src", "comm_dst", "comm_tag"):
            if name in self.attrs:
                _attribute(node, name).int32_val = self.attrs[name]
        return node


def write_trace(path, nodes, generator, parameters):
    """Write one rank's trace: the GlobalMetadata (version, generator, parameters), then
    its nodes in id order."""
    _write_nodes(path, [node.to_proto() for node in nodes], generator, parameters)
