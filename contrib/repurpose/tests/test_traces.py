# SPDX-License-Identifier: GPL-2.0-only
"""The command's traces and summary: send sizes against the surviving weights, framing,
et-info's checks, and errors."""

import io
import json
import os
import subprocess
import unittest
from contextlib import redirect_stderr, redirect_stdout

import numpy as np

import shared
from mlfabric_repurpose import chakra, cli

TOOLS = os.environ.get("MLFABRIC_TOOLS_DIR", os.path.join(shared.ROOT, "build", "tools"))


def run_main(*args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = cli.main(list(args))
    return status, out.getvalue(), err.getvalue()


def read_trace(path):
    """(metadata, nodes) decoded with the schema's own classes."""
    pb = chakra.bindings()
    messages = chakra.read_frames(path)
    metadata = pb.GlobalMetadata.FromString(messages[0])
    return metadata, [pb.Node.FromString(m) for m in messages[1:]]


def attributes(node):
    return {a.name: getattr(a, a.WhichOneof("value")) for a in node.attr}


class TracesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        shared.trained()
        cls.prefix = os.path.join(shared.folder(), "traces", "w")
        os.makedirs(os.path.dirname(cls.prefix), exist_ok=True)
        cls.summary_path = cls.prefix + ".json"
        cls.args = ["--workers=4", f"--out={cls.prefix}", f"--summary={cls.summary_path}",
                    "--prune=0.9", "--batch=16", "--precision=2",
                    f"--weights={shared.weights_file()}"]
        status, out, err = run_main(*cls.args)
        assert status == 0, err
        with open(cls.summary_path, encoding="utf-8") as f:
            cls.summary = json.load(f)

    def test_send_sizes_are_the_surviving_cross_worker_activations(self):
        """Rebuild the partition and count, from its weight matrices alone, the inputs
        of worker i that a nonzero weight of worker j's neurons multiplies: each send
        of layer l from i to j carries batch x that count x precision bytes, and the
        summary's cross_worker_bytes is their sum."""
        options = cli.parse(self.args)
        _, _, partitions = cli.build(options)
        part = partitions["repurpose"]
        expected = {}
        for l, w in enumerate(part.model.weights, start=1):
            for i in range(4):
                for j in range(4):
                    if i == j:
                        continue
                    rows = w[part.owners[l] == j]
                    columns = part.owners[l - 1] == i
                    count = int(np.sum(np.any(rows[:, columns] != 0.0, axis=0)))
                    if count:
                        expected[(i, j, l)] = 16 * count * 2
        sends, receives = {}, {}
        for rank in range(4):
            metadata, nodes = read_trace(chakra.rank_path(self.prefix, rank))
            self.assertEqual(metadata.version, "0.0.4")
            for node in nodes:
                a = attributes(node)
                key = (a.get("comm_src"), a.get("comm_dst"), a.get("comm_tag"))
                if node.type == chakra.COMM_SEND_NODE:
                    self.assertEqual(a["comm_src"], rank)
                    sends[key] = a["comm_size"]
                elif node.type == chakra.COMM_RECV_NODE:
                    self.assertEqual(a["comm_dst"], rank)
                    receives[key] = a["comm_size"]
        self.assertEqual(sends, expected)
        self.assertEqual(receives, expected)
        self.assertEqual(self.summary["cross_worker_bytes"], sum(expected.values()))
        dense = sum(16 * 2 * int(np.sum(part.owners[l - 1] != j)) * int(np.sum(part.owners[l] == j) > 0)
                    for l in range(1, part.layers + 1) for j in range(4))
        self.assertEqual(self.summary["baselines"]["contiguous"]["cross_worker_bytes"], dense)
        self.assertLess(self.summary["cross_worker_bytes"], 0.15 * dense)

    def test_compute_nodes_follow_the_device_rate(self):
        options = cli.parse(self.args)
        _, _, partitions = cli.build(options)
        part = partitions["repurpose"]
        for rank in range(4):
            _, nodes = read_trace(chakra.rank_path(self.prefix, rank))
            for node in nodes:
                if node.type != chakra.COMP_NODE:
                    continue
                layer = int(node.name[1:node.name.index(".")])
                weights = part.model.weights[layer - 1][part.owners[layer] == rank]
                used = np.any(weights != 0.0, axis=0)
                own = part.owners[layer - 1] == rank
                inputs = int(np.sum(used & own)) if node.name.endswith("local") \
                    else int(np.sum(used & ~own))
                neurons = len(weights)
                flops = 2 * 16 * neurons * inputs
                if node.name.endswith("remote"):
                    flops += 16 * neurons * (1 if layer == part.layers else 2)
                self.assertEqual(attributes(node)["num_ops"], flops)
                self.assertEqual(node.duration_micros, max(1, round(flops / 10e3)))

    def test_et_info_reads_and_matches_every_message(self):
        binary = os.path.join(TOOLS, "et-info")
        self.assertTrue(os.access(binary, os.X_OK), f"{binary}: not built")
        run = subprocess.run([binary, self.prefix], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        sends = 0
        for rank in range(4):
            _, nodes = read_trace(chakra.rank_path(self.prefix, rank))
            sends += sum(1 for n in nodes if n.type == chakra.COMM_SEND_NODE)
        self.assertIn(f"{sends} sends matched by receives", run.stdout)
        self.assertIn("nodes complete", run.stdout)
        self.assertIn("made by mlfabric gen repurpose", run.stdout)

    def test_a_smaller_workload_removes_the_extra_rank_files(self):
        prefix = os.path.join(shared.folder(), "traces", "shrink")
        for workers in (4, 2):
            status, _, err = run_main(f"--workers={workers}", f"--out={prefix}",
                                      "--partition=contiguous",
                                      f"--weights={shared.weights_file()}")
            self.assertEqual(status, 0, err)
        self.assertTrue(os.path.exists(chakra.rank_path(prefix, 1)))
        self.assertFalse(os.path.exists(chakra.rank_path(prefix, 2)))
        self.assertFalse(os.path.exists(chakra.rank_path(prefix, 3)))

    def test_bad_options_are_one_line_naming_the_option(self):
        out = os.path.join(shared.folder(), "bad")
        for args, option in ((["--out=" + out], "--workers"),
                             (["--workers=4"], "--out"),
                             (["--workers=1", "--out=" + out], "--workers"),
                             (["--workers=4", "--out=" + out, "--prune=1.5"], "--prune"),
                             (["--workers=4", "--out=" + out, "--prune=x"], "--prune"),
                             (["--workers=4", "--out=" + out, "--batch=0"], "--batch"),
                             (["--workers=4", "--out=" + out, "--device-gflops=0"],
                              "--device-gflops"),
                             (["--workers=4", "--out=" + out, "--partition=best"], "--partition"),
                             (["--workers=4", "--out=" + out, "--hidden=2,0"], "--hidden"),
                             (["--workers=11", "--out=" + out], "--workers"),
                             (["--workers=4", "--out=/no/such/folder/w"], "--out"),
                             (["--workers=4", "--out=" + out, "--speed=2"], "--speed"),
                             (["--workers=4", "--out=" + out, "extra"], "extra")):
            status, stdout, err = run_main(*args)
            self.assertEqual(status, 2, args)
            self.assertEqual(stdout, "")
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertTrue(err.startswith("error: ") and option in err, err)
        self.assertFalse(os.path.exists(out + ".0.et"))

    def test_mlfabric_routes_gen_repurpose(self):
        """./mlfabric gen repurpose reaches this command (errors exit 2, one line)."""
        script = os.path.join(shared.ROOT, "mlfabric")
        env = dict(os.environ, MLFABRIC_BUILD_DIR=os.path.dirname(TOOLS))
        run = subprocess.run([script, "gen", "repurpose", "--workers=1", "--out=x"],
                             capture_output=True, text=True, env=env)
        self.assertEqual(run.returncode, 2)
        self.assertEqual(run.stderr.strip(), "error: --workers: must be from 2 to 1048576 (got 1)")


if __name__ == "__main__":
    unittest.main()
