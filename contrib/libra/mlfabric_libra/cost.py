# SPDX-License-Identifier: GPL-2.0-only
"""LIBRA's network cost model: per dimension, #blocks x (unit price x link bandwidth x
#links), switch dimensions adding NIC and switch prices per link bandwidth.

  topology   link bandwidth   links per block   blocks
  Ring       bw/2             2n                N/n
  FC         bw/(n-1)         n(n-1)            N/n
  Switch     bw               prod(n_i, i<=d)   prod(n_i, i>d)   (one big switch up to d)

Every term is linear in the per-NPU bandwidth bw, so the cost is a . bw."""

import math
from dataclasses import dataclass
from typing import Dict, List

from .network import InputError, Network, load_yaml

ELEMENTS = ("Link", "Switch", "Nic")


@dataclass
class DimensionCost:
    blocks: int
    links_per_block: int
    link_share: float  # link bandwidth / per-NPU bandwidth
    unit_price: float  # $ per GB/s of link bandwidth (link, plus NIC and switch)

    @property
    def per_GBps(self) -> float:
        """$ per GB/s of per-NPU bandwidth."""
        return self.blocks * self.links_per_block * self.link_share * self.unit_price


def read_cost_model(path: str) -> Dict[str, Dict[str, float]]:
    data = load_yaml(path, "cost-model")
    if not isinstance(data, dict) or not data:
        raise InputError(f"{path}: a cost model is a YAML map of dimensions to unit prices")
    out = {}
    for dim, costs in data.items():
        if not isinstance(costs, dict):
            raise InputError(f"{path}: {dim}: must map Link/Switch/Nic to $ per GB/s")
        out[str(dim)] = {}
        for element, price in costs.items():
            if element not in ELEMENTS:
                raise InputError(f"{path}: {dim}.{element}: unknown cost element "
                                 f"(Link, Switch, Nic)")
            if isinstance(price, bool) or not isinstance(price, (int, float)) or price <= 0:
                raise InputError(f"{path}: {dim}.{element}: {price!r} is not a positive price")
            out[str(dim)][element] = float(price)
    return out


def dimension_costs(network: Network, model: Dict[str, Dict[str, float]],
                    path: str) -> List[DimensionCost]:
    sizes = [d.npus for d in network.dims]
    total = math.prod(sizes)
    out = []
    for i, d in enumerate(network.dims):
        prices = model.get(d.cost_key)
        if prices is None:
            raise InputError(f"{path}: no entry {d.cost_key!r} for dimension {i} of "
                             f"{network.path} (entries: {', '.join(model)})")
        needed = ("Link", "Switch", "Nic") if d.topology == "Switch" else ("Link",)
        for element in needed:
            if element not in prices:
                raise InputError(f"{path}: {d.cost_key}: no {element} price, which "
                                 f"dimension {i} ({d.topology}) needs")
        n = d.npus
        if d.topology == "Ring":
            cost = DimensionCost(total // n, 2 * n, 0.5, prices["Link"])
        elif d.topology == "FullyConnected":
            cost = DimensionCost(total // n, n * (n - 1), 1.0 / (n - 1), prices["Link"])
        else:
            cost = DimensionCost(math.prod(sizes[i + 1:]), math.prod(sizes[: i + 1]), 1.0,
                                 prices["Link"] + prices["Nic"] + prices["Switch"])
        out.append(cost)
    return out
