# SPDX-License-Identifier: GPL-2.0-only
"""The closed-form latency of a workload on an uncongested fabric.

Each message is timed alone, as doc/rdma.md describes the packet level: packets of up
to MTU (4096) payload bytes, each with 82 bytes of RoCEv2 framing on the wire, sent
back to back at the link rate and forwarded store-and-forward (a hop starts a packet
once all of it has arrived and the previous one has left), every hop adding its
propagation delay; serialization rounded up to the picosecond. The receiver has the
message when its last byte arrives; the sender's send completes when the 86-byte ACK of
the last packet has come back the same way. The nodes of each rank then follow the
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


class Hop:
    """One link of a path: rate in bit/s, delay in ps."""

    def __init__(self, rate_bps, delay_ps):
        self.rate_bps = rate_bps
        self.delay_ps = delay_ps


def message_ps(size, hops, mtu=MTU):
    """(arrival, acknowledged): ps after the send starts until the last byte arrives,
    and until the ACK of the last packet is back."""
    payloads = [mtu] * (size // mtu) + ([size % mtu] if size % mtu else [])
    if not payloads:
        payloads = [0]
    # departure time of each packet on the current hop
    departures, clock = [], 0
    for p in payloads:
        departures.append(clock)
        clock += serialization_ps(p + DATA_OVERHEAD, hops[0].rate_bps)
    for index, hop in enumerate(hops):
        arrivals = [d + serialization_ps(p + DATA_OVERHEAD, hop.rate_bps) + hop.delay_ps
                    for d, p in zip(departures, payloads)]
        if index == len(hops) - 1:
            break
        following = hops[index + 1]
        departures, free = [], 0
        for a, p in zip(arrivals, payloads):
            start = max(a, free)
            departures.append(start)
            free = start + serialization_ps(p + DATA_OVERHEAD, following.rate_bps)
    arrival = arrivals[-1]
    ack = sum(serialization_ps(ACK_BYTES, h.rate_bps) + h.delay_ps for h in reversed(hops))
    return arrival, arrival + ack


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
    two NPUs) or a Ring (shortest way round; a tie goes the way of increasing rank)."""

    def __init__(self, path):
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
        self.hop = Hop(_rate(dim["rate"]), _delay_ps(dim["latency"]))

    def hops(self, src, dst):
        if self.topology == "Switch":
            return [self.hop, self.hop]
        forward = (dst - src) % self.npus
        return [self.hop] * min(forward, self.npus - forward)


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
                arrival, acked = message_ps(a["comm_size"], fabric.hops(rank, a["comm_dst"]), mtu)
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
