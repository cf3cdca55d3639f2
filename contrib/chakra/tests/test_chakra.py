# SPDX-License-Identifier: GPL-2.0-only
"""mlfabric_chakra: the framing round-trips, and the C++ reader reads what it writes."""

import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import mlfabric_chakra as et  # noqa: E402

ET_INFO = os.environ.get("MLFABRIC_ET_INFO", "")


def _compute(node_id, micros, deps=()):
    node = et.bindings().Node(id=node_id, name=f"c{node_id}", type=et.COMP_NODE,
                              duration_micros=micros)
    node.data_deps.extend(deps)
    node.attr.add(name="is_cpu_op", bool_val=False)
    return node


class Framing(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="mlfabric-chakra-test-")
        self.prefix = os.path.join(self.folder, "w")

    def test_varint_of_known_values(self):
        self.assertEqual(et.varint(0), b"\x00")
        self.assertEqual(et.varint(127), b"\x7f")
        self.assertEqual(et.varint(300), b"\xac\x02")
        with self.assertRaises(ValueError):
            et.varint(-1)

    def test_write_then_read_keeps_every_field(self):
        path = et.rank_path(self.prefix, 0)
        et.write_trace(path, [_compute(0, 5), _compute(1, 7, [0])], "test", "p=1")
        metadata, nodes = et.read_trace(path)
        self.assertEqual(metadata.version, et.SCHEMA_VERSION)
        self.assertEqual(et.attributes(metadata), {"generator": "test", "parameters": "p=1"})
        self.assertEqual([(n.id, n.duration_micros, list(n.data_deps)) for n in nodes],
                         [(0, 5, []), (1, 7, [0])])
        self.assertEqual(et.attributes(nodes[1]), {"is_cpu_op": False})

    def test_gzip_files_read_the_same(self):
        path = et.rank_path(self.prefix, 0)
        et.write_trace(path, [_compute(0, 3)])
        with open(path, "rb") as f:
            plain = f.read()
        with open(path, "wb") as f:
            f.write(gzip.compress(plain))
        self.assertEqual(et.read_trace(path)[1][0].duration_micros, 3)

    def test_truncated_and_empty_files_name_the_file(self):
        path = et.rank_path(self.prefix, 0)
        et.write_trace(path, [_compute(0, 3)])
        with open(path, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data[:-2])
        with self.assertRaisesRegex(et.ChakraError, f"{path}: message 1 is truncated"):
            et.read_trace(path)
        open(path, "wb").close()
        with self.assertRaisesRegex(et.ChakraError, "empty trace"):
            et.read_trace(path)
        with self.assertRaisesRegex(et.ChakraError, "cannot read"):
            et.read_trace(self.folder)

    def test_rank_files_stop_at_the_first_gap_and_stale_ranks_go(self):
        for rank in (0, 1, 3):
            et.write_trace(et.rank_path(self.prefix, rank), [_compute(0, 1)])
        self.assertEqual(et.rank_files(self.prefix),
                         [et.rank_path(self.prefix, 0), et.rank_path(self.prefix, 1)])
        self.assertEqual(et.remove_stale_ranks(self.prefix, 1), 1)
        self.assertFalse(os.path.exists(et.rank_path(self.prefix, 1)))

    @unittest.skipUnless(os.path.isfile(ET_INFO), "MLFABRIC_ET_INFO names no et-info program")
    def test_the_cxx_reader_reads_what_python_writes(self):
        for rank in range(2):
            et.write_trace(et.rank_path(self.prefix, rank),
                           [_compute(0, 4), _compute(1, 6, [0])], "test", "p=1")
        summary = os.path.join(self.folder, "summary.json")
        out = subprocess.run([ET_INFO, self.prefix, f"--summary={summary}"],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(summary) as f:
            data = json.load(f)
        self.assertEqual(data["generator"], "test")
        self.assertTrue(data["dry_run_completed"])
        self.assertEqual([(r["nodes"], r["compute_us"], r["critical_path_us"])
                          for r in data["per_rank"]], [(2, 10, 10)] * 2)

if __name__ == "__main__":
    unittest.main()
