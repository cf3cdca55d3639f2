# SPDX-License-Identifier: GPL-2.0-only
"""The Chakra schema: protoc-generated message classes and the numbers mlfabric uses."""

import atexit
import importlib.util
import os
import shutil
import subprocess
import tempfile

#: The schema version mlfabric writes (model/chakra/et-writer.h, kEtSchemaVersion).
SCHEMA_VERSION = "0.0.4"
PROTO = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                      "et_def.proto"))

#: NodeType numbers of the schema.
COMP_NODE = 4
COMM_SEND_NODE = 5
COMM_RECV_NODE = 6
COLL_NODE = 7

_module = None


class ChakraError(Exception):
    """A trace that cannot be read or a schema that cannot be compiled; the message names
    the file and what is wrong."""


def bindings():
    """The et_def_pb2 module, compiled from the schema on first use."""
    global _module
    if _module is None:
        folder = tempfile.mkdtemp(prefix="mlfabric-chakra-")
        atexit.register(shutil.rmtree, folder, True)
        try:
            subprocess.run(["protoc", f"--proto_path={os.path.dirname(PROTO)}",
                            f"--python_out={folder}", PROTO],
                           check=True, capture_output=True, text=True)
        except FileNotFoundError as error:
            raise ChakraError("protoc not found (Debian package protobuf-compiler)") from error
        except subprocess.CalledProcessError as error:
            raise ChakraError(f"{PROTO}: protoc failed: {error.stderr.strip()}") from error
        spec = importlib.util.spec_from_file_location(
            "et_def_pb2", os.path.join(folder, "et_def_pb2.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _module = module
    return _module


def attributes(node):
    """A node's attributes as a name -> value dict (the set member of each AttributeProto)."""
    out = {}
    for attr in node.attr:
        which = attr.WhichOneof("value")
        if which:
            out[attr.name] = getattr(attr, which)
    return out
