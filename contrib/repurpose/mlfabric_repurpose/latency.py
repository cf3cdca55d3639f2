# SPDX-License-Identifier: GPL-2.0-only
"""The closed-form latency of a workload on an uncongested fabric.

Each message is timed alone, as doc/rdma.md and doc/latency.md describe the packet
level: packets of up to MTU (4096) payload bytes, each with 82 bytes of RoCEv2 framing
on the wire, sent back to back at the link rate. A frame crossing a link takes the
sending port's transmit latency, the propagation delay and the receiving port's arrival
latency: its whole serialization (store-and-forward: NIC and relay ports) or that of its
first cut-through bytes (switch ports whose switch has no faster port), plus the port's
pipeline latency (the switch's, or the NIC's receive latency). A port starts a frame
once it has arrived and the previous one has left; serialization is rounded up to the
picosecond. The receiver has the message when the transport sees its last packet; the
sender's send completes when the 86-byte ACK of the last packet, sent after the ACK
turnaround, has come back the same way. The nodes of each rank then follow the
replay's issue rules (doc/replay.md): a node is ready when its data_deps are done, the
lowest ready id goes first, one compute node and one send at a time, a receive takes
no slot and is done when its message has arrived (or at once, if it already had).
What this leaves out is exactly contention: two messages on one link at once, and
ACKs queued behind data.
"""

import heapq
import math
import re

import yaml

from . import chakra

MTU = 4096
DATA_OVERHEAD = 82
ACK_BYTES = 86
PS_PER_S = 10 ** 12


def serialization_ps(wire_bytes, rate_bps):
    return -(-wire_bytes * 8 * PS_PER_S // rate_bps)


class Pipelines:
    """The switch and NIC latencies of the packet level, ps (doc/latency.md): its
    defaults, or none at all (as `--ns3::SwitchPipeline::Latency=0ns` and the rest)."""

    def __init__(self, switch_ps=300_000, cut_through_bytes=64, nic_transmit_ps=400_000,
                 nic_receive_ps=400_000, ack_turnaround_ps=0):
        self.switch_ps = switch_ps
        self.cut_through_bytes = cut_through_bytes
        self.nic_transmit_ps = nic_transmit_ps
        self.nic_receive_ps = nic_receive_ps
        self.ack_turnaround_ps = ack_turnaround_ps

    @classmethod
    def none(cls):
        return cls(0, 0, 0, 0, 0)


class Hop:
    """One link of a path: rate in bit/s, delay in ps, the sending port's transmit
    latency, and the receiving port's cut-through bytes (0: store-and-forward) and
    pipeline latency."""

    def __init__(self, rate_bps, delay_ps, transmit_ps=0, cut_through_bytes=0, pipeline_ps=0):
        self.rate_bps = rate_bps
        self.delay_ps = delay_ps
        self.transmit_ps = transmit_ps
        self.cut_through_bytes = cut_through_bytes
        self.pipeline_ps = pipeline_ps

    def arrival_ps(self, departure, wire_bytes):
        """When the receiving port's owner has a frame whose first bit left at
        `departure`: the packet level's RocePort::GetArrivalLatency, integer ps."""
        serialization = serialization_ps(wire_bytes, self.rate_bps)
        if 0 < self.cut_through_bytes < wire_bytes:
            serialization = serialization * self.cut_through_bytes // wire_bytes
        return departure + self.transmit_ps + self.delay_ps + serialization + self.pipeline_ps


def message_ps(size, hops, ack_hops=None, mtu=MTU, ack_turnaround_ps=0):
    """(arrival, acknowledged): ps after the send starts until the receiver's transport
    has the last packet, and until the sender's has the ACK of it. `ack_hops` is the
    way back (default: `hops` reversed)."""
    payloads = [mtu] * (size // mtu) + ([size % mtu] if size % mtu else [])
    if not payloads:
        payloads = [0]
    # departure time of each packet on the current hop
    departures, clock = [], 0
    for p in payloads:
        departures.append(clock)
        clock += serialization_ps(p + DATA_OVERHEAD, hops[0].rate_bps)
    for index, hop in enumerate(hops):
        arrivals = [hop.arrival_ps(d, p + DATA_OVERHEAD) for d, p in zip(departures, payloads)]
        if index == len(hops) - 1:
            break
        following = hops[index + 1]
        departures, free = [], 0
        for a, p in zip(arrivals, payloads):
            start = max(a, free)
            departures.append(start)
            free = start + serialization_ps(p + DATA_OVERHEAD, following.rate_bps)
    arrival = arrivals[-1]
    ack = arrival + ack_turnaround_ps
    for hop in ack_hops if ack_hops is not None else list(reversed(hops)):
        ack = hop.arrival_ps(ack, ACK_BYTES)
    return arrival, ack


_RATE = re.compile(r"^([0-9.]+)\s*([kKMGT]?)(bps)?$")
_TIME = re.compile(r"^([0-9.]+)\s*(ps|ns|us|ms|s)$")


def _rate(text):
    match = _RATE.match(str(text).strip())
    if not match:
        raise ValueError(f"rate '{text}' is not a number with an optional k/M/G/T and bps")
    scale = {"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[match.group(2)]
    return int(round(float(match.group(1)) * scale))


def _delay_ps(text):
    match = _TIME.match(str(text).strip())
    if not match:
        raise ValueError(f"latency '{text}' is not a number with ps, ns, us, ms or s")
    scale = {"ps": 1, "ns": 1e3, "us": 1e6, "ms": 1e9, "s": 1e12}[match.group(2)]
    return int(round(float(match.group(1)) * scale))


class Fabric:
    """The paths of a one-dimension mlfabric fabric YAML: a Switch (two hops between any
    two NPUs: cut-through into the switch, whose ports are all of one rate) or a Ring
    (shortest way round, a tie the way of increasing rank; the NPUs between relay
    through their NIC ports, store-and-forward), with the latencies of `pipelines`."""

    def __init__(self, path, pipelines=None):
        with open(path, encoding="utf-8") as f:
            description = yaml.safe_load(f)
        dims = description.get("dimensions") if isinstance(description, dict) else None
        if not dims or len(dims) != 1 or set(description) - {"name", "description",
                                                             "dimensions", "defaults"}:
            raise ValueError(f"{path}: the closed form takes one Switch or Ring dimension")
        dim = dims[0]
        self.topology = dim.get("topology")
        if self.topology not in ("Switch", "Ring"):
            raise ValueError(f"{path}: topology {self.topology}: not Switch or Ring")
        self.npus = int(dim["npus"])
        pipes = pipelines or Pipelines()
        self.ack_turnaround_ps = pipes.ack_turnaround_ps
        rate, delay = _rate(dim["rate"]), _delay_ps(dim["latency"])
        # NIC (or relay) port -> NIC port, and the two halves of a way through a switch.
        self.nic_to_nic = Hop(rate, delay, pipes.nic_transmit_ps, 0, pipes.nic_receive_ps)
        self.nic_to_switch = Hop(rate, delay, pipes.nic_transmit_ps, pipes.cut_through_bytes,
                                 pipes.switch_ps)
        self.switch_to_nic = Hop(rate, delay, 0, 0, pipes.nic_receive_ps)

    def hops(self, src, dst):
        if self.topology == "Switch":
            return [self.nic_to_switch, self.switch_to_nic]
        forward = (dst - src) % self.npus
        return [self.nic_to_nic] * min(forward, self.npus - forward)

    def message_ps(self, size, src, dst, mtu=MTU):
        """(arrival, acknowledged) of one message from `src` to `dst` alone."""
        return message_ps(size, self.hops(src, dst), self.hops(dst, src), mtu,
                          self.ack_turnaround_ps)


def latency_ps(ranks, fabric, mtu=MTU):
    """Closed-form finish time of every rank (ps) for traces given as lists of
    chakra.TraceNode per rank."""
    done = [dict() for _ in ranks]
    waiting = [{n.id: len(n.deps) for n in nodes} for nodes in ranks]
    children = [dict() for _ in ranks]
    for r, nodes in enumerate(ranks):
        for n in nodes:
            for d in n.deps:
                children[r].setdefault(d, []).append(n.id)
    ready = [[n.id for n in nodes if not n.deps] for nodes in ranks]
    for queue in ready:
        heapq.heapify(queue)
    busy = [{"compute": False, "send": False} for _ in ranks]
    arrived, posted = {}, {}  # (src, dst, tag) -> FIFO of arrival times / receive nodes
    events = []  # (time, sequence, kind, rank, node id)
    sequence = 0

    def push(time, kind, rank, node_id):
        nonlocal sequence
        heapq.heappush(events, (time, sequence, kind, rank, node_id))
        sequence += 1

    def issue(rank, now):
        kept = []
        while ready[rank]:
            node_id = heapq.heappop(ready[rank])
            node = ranks[rank][node_id]
            if node.type == chakra.COMP_NODE:
                if busy[rank]["compute"]:
                    kept.append(node_id)
                    continue
                busy[rank]["compute"] = True
                push(now + max(node.duration_micros * 10 ** 6, 1000), "done", rank, node_id)
            elif node.type == chakra.COMM_SEND_NODE:
                if busy[rank]["send"]:
                    kept.append(node_id)
                    continue
                busy[rank]["send"] = True
                a = node.attrs
                arrival, acked = fabric.message_ps(a["comm_size"], rank, a["comm_dst"], mtu)
                push(now + arrival, "arrive", a["comm_dst"], (rank, a["comm_tag"]))
                push(now + acked, "done", rank, node_id)
            elif node.type == chakra.COMM_RECV_NODE:
                key = (node.attrs["comm_src"], rank, node.attrs["comm_tag"])
                if arrived.get(key):
                    arrived[key].pop(0)
                    push(now, "done", rank, node_id)
                else:
                    posted.setdefault(key, []).append(node_id)
            else:
                push(now, "done", rank, node_id)
        for node_id in kept:
            heapq.heappush(ready[rank], node_id)

    for r in range(len(ranks)):
        issue(r, 0)
    finish = [0] * len(ranks)
    while events:
        now, _, kind, rank, payload = heapq.heappop(events)
        if kind == "arrive":
            key = (payload[0], rank, payload[1])
            if posted.get(key):
                push(now, "done", rank, posted[key].pop(0))
            else:
                arrived.setdefault(key, []).append(now)
            continue
        node = ranks[rank][payload]
        done[rank][payload] = now
        finish[rank] = max(finish[rank], now)
        if node.type == chakra.COMP_NODE:
            busy[rank]["compute"] = False
        elif node.type == chakra.COMM_SEND_NODE:
            busy[rank]["send"] = False
        for child in children[rank].get(payload, []):
            waiting[rank][child] -= 1
            if waiting[rank][child] == 0:
                heapq.heappush(ready[rank], child)
        issue(rank, now)
    for r, nodes in enumerate(ranks):
        if len(done[r]) != len(nodes):
            raise ValueError(f"rank {r}: {len(nodes) - len(done[r])} nodes never finish")
    return finish


def latency_us(ranks, fabric, mtu=MTU):
    """The closed-form end-to-end latency, microseconds: the last rank's finish."""
    return max(latency_ps(ranks, fabric, mtu)) / 1e6
