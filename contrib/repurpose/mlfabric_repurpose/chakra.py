# SPDX-License-Identifier: GPL-2.0-only
"""Chakra execution traces from Python, framed as model/chakra/et-frame-reader.cc reads them.

The message classes come from contrib/chakra/et_def.proto, compiled by protoc into a
private temporary folder the first time they are needed (nothing generated is kept in
the repository). A trace file is a sequence of messages, each preceded by its length
as a varint (at most 32 bits): one GlobalMetadata, then the Nodes.
"""

import atexit
import importlib.util
import os
import shutil
import subprocess
import tempfile

#: The schema version mlfabric writes (model/chakra/et-writer.h, kEtSchemaVersion).
SCHEMA_VERSION = "0.0.4"
PROTO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "chakra",
                     "et_def.proto")

#: NodeType numbers of the schema.
COMP_NODE = 4
COMM_SEND_NODE = 5
COMM_RECV_NODE = 6

_bindings = None


class ChakraError(Exception):
    """The schema could not be compiled."""


def bindings():
    """The et_def_pb2 module, compiled from the schema on first use."""
    global _bindings
    if _bindings is None:
        folder = tempfile.mkdtemp(prefix="mlfabric-chakra-")
        atexit.register(shutil.rmtree, folder, True)
        proto = os.path.realpath(PROTO)
        try:
            subprocess.run(["protoc", f"--proto_path={os.path.dirname(proto)}",
                            f"--python_out={folder}", proto],
                           check=True, capture_output=True, text=True)
        except FileNotFoundError as error:
            raise ChakraError("protoc not found (Debian package protobuf-compiler)") from error
        except subprocess.CalledProcessError as error:
            raise ChakraError(f"{proto}: protoc failed: {error.stderr.strip()}") from error
        spec = importlib.util.spec_from_file_location(
            "et_def_pb2", os.path.join(folder, "et_def_pb2.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _bindings = module
    return _bindings


def varint(value):
    """The base-128 varint of a non-negative integer, as protobuf writes lengths."""
    if value < 0:
        raise ValueError("a varint length is non-negative")
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def frame(message):
    """One length-prefixed message."""
    payload = message.SerializeToString()
    if len(payload) >= 1 << 31:
        raise ValueError("a Chakra message must stay below protobuf's 2 GiB limit")
    return varint(len(payload)) + payload


def read_frames(path):
    """The messages of a trace file as bytes (for tests and checks)."""
    with open(path, "rb") as f:
        data = f.read()
    messages, at = [], 0
    while at < len(data):
        length, shift = 0, 0
        while True:
            byte = data[at]
            at += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        messages.append(data[at:at + length])
        at += length
    return messages


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
    pb = bindings()
    metadata = pb.GlobalMetadata()
    metadata.version = SCHEMA_VERSION
    _attribute(metadata, "generator").string_val = generator
    _attribute(metadata, "parameters").string_val = parameters
    temporary = path + ".tmp"
    with open(temporary, "wb") as f:
        f.write(frame(metadata))
        for node in nodes:
            f.write(frame(node.to_proto()))
    os.replace(temporary, path)


def rank_path(prefix, rank):
    """PREFIX.<rank>.et, as model/chakra/et-rank-files.cc names rank files."""
    return f"{prefix}.{rank}.et"


def remove_stale_ranks(prefix, ranks):
    """Delete PREFIX.r.et for r >= ranks, left by an earlier, larger workload: the
    replay takes every rank file present. Returns how many were deleted."""
    deleted = 0
    while os.path.exists(rank_path(prefix, ranks + deleted)):
        os.remove(rank_path(prefix, ranks + deleted))
        deleted += 1
    return deleted
