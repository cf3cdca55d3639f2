# SPDX-License-Identifier: GPL-2.0-only
"""Chakra execution traces from Python, in the framing model/chakra/et-frame-reader.cc reads
and model/chakra/et-frame-writer.cc writes: per rank a file PREFIX.<rank>.et holding one
GlobalMetadata message and then the Nodes, each message preceded by its length as a varint
(at most 32 bits), the whole file optionally gzip-compressed.

The message classes are compiled by protoc from contrib/chakra/et_def.proto into a private
temporary folder on first use; nothing generated is kept in the repository."""

from .files import rank_files, rank_path, remove_stale_ranks, write_trace
from .framing import frame, read_messages, read_trace, varint
from .schema import (COLL_NODE, COMM_RECV_NODE, COMM_SEND_NODE, COMP_NODE, SCHEMA_VERSION,
                     ChakraError, attributes, bindings)

__all__ = ["COLL_NODE", "COMM_RECV_NODE", "COMM_SEND_NODE", "COMP_NODE", "SCHEMA_VERSION",
           "ChakraError", "attributes", "bindings", "frame", "rank_files", "rank_path",
           "read_messages", "read_trace", "remove_stale_ranks", "varint", "write_trace"]
