#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the hand-made seeds of the et-trace fuzzer: small Chakra traces, valid and
near-valid, encoded by hand (no protobuf module needed).

usage: fuzz/et-seeds.py <corpus folder>
"""
import gzip
import os
import struct
import sys


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(number, wire, payload):
    return varint(number << 3 | wire) + payload


def vint(number, value):
    return field(number, 0, varint(value))


def text(number, value):
    data = value.encode() if isinstance(value, str) else value
    return field(number, 2, varint(len(data)) + data)


def attr(name, kind, value):
    """An AttributeProto; kind is the oneof field number (see et_def.proto)."""
    body = text(1, name)
    if kind in (7, 9, 11, 13, 27):  # int32, int64, uint32, uint64, bool
        body += vint(kind, value)
    elif kind in (15, 17):  # sint32, sint64 (zigzag)
        body += vint(kind, (value << 1) ^ (value >> 63))
    elif kind in (19, 23):  # fixed32, sfixed32
        body += field(kind, 5, struct.pack("<i" if kind == 23 else "<I", value))
    elif kind in (21, 25):  # fixed64, sfixed64
        body += field(kind, 1, struct.pack("<q" if kind == 25 else "<Q", value))
    elif kind == 3:  # double
        body += field(kind, 1, struct.pack("<d", value))
    elif kind == 29:  # string
        body += text(kind, value)
    elif kind == 28:  # bool_list, packed
        body += text(kind, text(1, bytes(value)))
    return text(10, body)


def node(id, name, type, data=(), ctrl=(), attrs=(), inputs=None, duration=0):
    body = vint(1, id) + text(2, name) + vint(3, type)
    for d in ctrl:
        body += vint(4, d)
    for d in data:
        body += vint(5, d)
    if duration:
        body += vint(7, duration)
    if inputs is not None:
        body += text(8, text(1, inputs))
    return body + b"".join(attrs)


def frame(*messages):
    return b"".join(varint(len(m)) + m for m in messages)


META = text(1, "0.0.4")
COMP, SEND, RECV, COLL, METADATA = 4, 5, 6, 7, 1

GROUPS = "['[{\"pg_name\": \"1\", \"ranks\": [0, 1]}, {\"pg_name\": \"0\", \"ranks\": []}]']"

SEEDS = {
    "hand-valid.et": frame(
        META,
        node(1, "pg", METADATA, inputs=GROUPS),
        node(2, "gemm", COMP, attrs=[attr("num_ops", 9, 1 << 30), attr("tensor_size", 13, 4096),
                                     attr("is_cpu_op", 27, 0)], duration=5),
        node(3, "allreduce", COLL, data=[2], ctrl=[1],
             attrs=[attr("comm_type", 9, 0), attr("comm_size", 21, 1 << 20),
                    attr("pg_name", 29, "1"), attr("comm_priority", 7, 2),
                    attr("involved_dim", 28, [1, 0, 1])]),
        node(4, "send", SEND, data=[3],
             attrs=[attr("comm_src", 15, 0), attr("comm_dst", 11, 1),
                    attr("comm_tag", 25, -7), attr("comm_size", 17, 64)]),
        node(5, "recv", RECV, data=[3],
             attrs=[attr("comm_src", 23, 1), attr("comm_dst", 19, 0),
                    attr("comm_tag", 7, 7), attr("comm_size", 9, 64)]),
    ),
    "metadata-only.et": frame(META),
    "cycle.et": frame(META, node(1, "a", COMP, data=[2]), node(2, "b", COMP, data=[1])),
    "ctrl-cycle.et": frame(META, node(1, "a", COMP, ctrl=[2]), node(2, "b", COMP, ctrl=[1])),
    "duplicate-id.et": frame(META, node(7, "a", COMP), node(7, "b", COMP)),
    "dangling-dep.et": frame(META, node(1, "a", COMP, data=[99], ctrl=[98])),
    "legacy-node-first.et": frame(node(1, "a", COMP)),
    "bad-comm-type.et": frame(META, node(1, "c", COLL, attrs=[attr("comm_type", 29, "ring")])),
    "wide-comm-src.et": frame(META, node(1, "s", SEND, attrs=[attr("comm_src", 9, 1 << 40)])),
    "negative-size.et": frame(META, node(1, "s", SEND, attrs=[attr("comm_size", 9, -1)])),
    "double-attr.et": frame(META, node(1, "c", COMP, attrs=[attr("num_ops", 3, 1.5)])),
    "truncated.et": frame(META, node(1, "a", COMP))[:-3],
    "huge-length.et": frame(META) + varint(0x7FFFFFFF) + b"\x08\x01",
    "long-varint.et": frame(META) + b"\xff\xff\xff\xff\xff\x01",
}


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(folder, name), "wb") as out:
            out.write(data)
    with open(os.path.join(folder, "hand-valid.et.gz"), "wb") as out:
        out.write(gzip.compress(SEEDS["hand-valid.et"], mtime=0))
    with open(os.path.join(folder, "truncated-gzip.et"), "wb") as out:
        out.write(gzip.compress(SEEDS["hand-valid.et"], mtime=0)[:40])


if __name__ == "__main__":
    main()
