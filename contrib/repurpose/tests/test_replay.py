# SPDX-License-Identifier: GPL-2.0-only
"""Replays of every partition on the K-worker switch against the closed form."""

import json
import os
import subprocess
import unittest

import shared
from mlfabric_repurpose import latency, restructure, workload
from mlfabric_repurpose.latency import Hop

REPLAY = os.environ.get("MLFABRIC_REPLAY_BINARY",
                        os.path.join(shared.ROOT, "build", "examples", "chakra-replay"))
SWITCH = os.path.join(shared.ROOT, "fabrics", "repurpose-switch-4.yaml")


# Store-and-forward switches and NICs that add no time (doc/latency.md), for the
# closed form with latency.Pipelines.none().
NO_PIPELINES = ("--ns3::SwitchPipeline::Latency=0ns", "--ns3::SwitchPipeline::Mode=StoreAndForward",
                "--ns3::RdmaNic::TransmitLatency=0ns", "--ns3::RdmaNic::ReceiveLatency=0ns")


def replay(ranks, name, extra=()):
    prefix = os.path.join(shared.folder(), "replay", name)
    os.makedirs(os.path.dirname(prefix), exist_ok=True)
    trace = workload.Workload.__new__(workload.Workload)
    trace.ranks = ranks
    workload.Workload.write(trace, prefix, "test")
    summary = prefix + ".json"
    run = subprocess.run([REPLAY, f"--workload={prefix}", f"--fabric={SWITCH}", "--progress=0",
                          f"--summary={summary}", *extra],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(run.stderr)
    with open(summary, encoding="utf-8") as f:
        return json.load(f)


class ClosedFormTest(unittest.TestCase):
    def test_message_by_hand(self):
        """10000 B through one 10 Gb/s switch, 1 us cables: packets of 4096, 4096 and
        1808 B carry 82 B each on the wire (3342.4, 3342.4, 1512 ns); the last byte
        arrives after all three leave the sender, the longest packet's store-and-forward
        and two delays: 8196.8 + 3342.4 + 2000 = 13539.2 ns; the 86 B ACK returns in
        2 x (68.8 + 1000) ns."""
        hops = [Hop(10 * 10 ** 9, 10 ** 6)] * 2
        self.assertEqual(latency.message_ps(10000, hops), (13539200, 15676800))
        # Three hops (a ring's transit node) add one more store-and-forward and delay.
        self.assertEqual(latency.message_ps(10000, [hops[0]] * 3)[0], 13539200 + 3342400 + 10 ** 6)

    def test_message_by_hand_with_the_default_latencies(self):
        """The same message with the packet level's defaults: each packet reaches the
        switch 400 ns (NIC transmit) + 1 us + 51.2 ns (its first 64 B) + 300 ns
        (pipeline) after leaving the NIC, so the switch sends the three back to back from
        1751.2 ns; the last (1512 ns) leaves at 1751.2 + 2 x 3342.4 = 8436 ns and its
        transport has it 1 us + 1512 ns + 400 ns (receive) later, at 11348 ns. The ACK
        (86 B, cut through after 64 B too) returns in 1751.2 + 1000 + 68.8 + 400 ns."""
        fabric = latency.Fabric(SWITCH)
        self.assertEqual(fabric.message_ps(10000, 0, 1), (11348000, 14568000))


class ReplayTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data, cls.model = shared.trained()
        cls.device = workload.Device(10.0)
        if not os.access(REPLAY, os.X_OK):
            raise AssertionError(f"{REPLAY}: not built")

    def check(self, partition, pipelines=None):
        """Replay `partition` with the default latencies, or none (`Pipelines.none()`)."""
        trace = workload.Workload(partition, 32, 4, self.device)
        extra = NO_PIPELINES if pipelines is not None else ()
        result = replay(trace.ranks, partition.name, extra)
        self.assertTrue(result["completed"])
        self.assertEqual(result["bytes_sent"], partition.cross_worker_bytes(32, 4))
        self.assertEqual(result["network_delivered_bytes"], result["bytes_sent"])
        closed = latency.latency_ps(trace.ranks, latency.Fabric(SWITCH, pipelines))
        return [round(r["finish_ns"] * 1000) for r in result["ranks"]], closed, trace

    def test_baselines_match_the_closed_form_exactly(self):
        """The unpruned splits send equal messages in every step of the shift schedule:
        each step is a permutation of the workers and all of them finish together, so
        no link carries two messages at once and each rank's finish is the closed form
        to the picosecond."""
        for name in ("contiguous", "random"):
            part = restructure.baseline(name, self.model, 4, shared.SEED)
            for pipelines in (None, latency.Pipelines.none()):
                finish, closed, _ = self.check(part, pipelines)
                self.assertEqual(finish, closed, name)

    def test_repurpose_matches_the_closed_form_up_to_contention(self):
        """Pruned splits send unequal messages, so steps drift apart and a message can
        meet another on a link, or its ACK a data frame. Contention only delays: the
        replay is never faster than the closed form, and is slower by at most the wire
        time of all other traffic (every link is work-conserving)."""
        for prune in (0.5, 0.9):
            part = restructure.restructure(self.model, self.data.x_train,
                                           restructure.Limits(4, prune))
            finish, closed, trace = self.check(part)
            wire = 0
            for _, dst, _, size in trace.sends():
                full, rest = divmod(size, latency.MTU)
                wire += latency.serialization_ps(
                    size + latency.DATA_OVERHEAD * (full + (rest > 0)) +
                    latency.ACK_BYTES, 10 * 10 ** 9)
            for r in range(4):
                self.assertGreaterEqual(finish[r], closed[r])
                self.assertLessEqual(finish[r] - closed[r], wire)
            # And close: contention here is well under 5 % of the latency.
            self.assertLess(max(finish) - max(closed), 0.05 * max(closed))

    def test_full_pruning_is_compute_only(self):
        part = restructure.restructure(self.model, self.data.x_train, restructure.Limits(4, 1.0))
        finish, closed, trace = self.check(part)
        self.assertEqual(trace.sends(), [])
        self.assertEqual(finish, closed)
        compute = [sum(n.duration_micros for n in nodes) * 10 ** 6 for nodes in trace.ranks]
        self.assertEqual(closed, compute)


if __name__ == "__main__":
    unittest.main()
