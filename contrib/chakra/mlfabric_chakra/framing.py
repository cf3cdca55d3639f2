# SPDX-License-Identifier: GPL-2.0-only
"""Length-prefixed messages: the framing of a Chakra trace file."""

import gzip

from .schema import ChakraError, bindings

_GZIP_MAGIC = b"\x1f\x8b"


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


def _read_varint(data, at, path):
    value, shift = 0, 0
    while True:
        if at >= len(data):
            raise ChakraError(f"{path}: truncated length prefix at byte {at}")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, at
        shift += 7
        if shift > 28:
            raise ChakraError(f"{path}: length prefix at byte {at} exceeds 32 bits")


def read_messages(path):
    """The messages of a trace file as bytes, gzip or not."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as error:
        raise ChakraError(f"{path}: cannot read ({error.strerror})") from None
    if data[:2] == _GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise ChakraError(f"{path}: bad gzip stream ({error})") from None
    messages, at = [], 0
    while at < len(data):
        length, at = _read_varint(data, at, path)
        if at + length > len(data):
            raise ChakraError(f"{path}: message {len(messages)} is truncated")
        messages.append(data[at:at + length])
        at += length
    return messages


def read_trace(path):
    """(GlobalMetadata, [Node]) of one rank's trace."""
    pb = bindings()
    messages = read_messages(path)
    if not messages:
        raise ChakraError(f"{path}: empty trace (no GlobalMetadata message)")
    metadata = pb.GlobalMetadata()
    try:
        metadata.ParseFromString(messages[0])
    except Exception:
        raise ChakraError(f"{path}: the first message is not a Chakra GlobalMetadata") from None
    nodes = []
    for i, blob in enumerate(messages[1:], start=1):
        node = pb.Node()
        try:
            node.ParseFromString(blob)
        except Exception:
            raise ChakraError(f"{path}: message {i} is not a Chakra Node") from None
        nodes.append(node)
    return metadata, nodes
