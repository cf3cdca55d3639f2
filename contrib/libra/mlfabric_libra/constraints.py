# SPDX-License-Identifier: GPL-2.0-only
"""Linear constraints over the per-NPU bandwidths, GB/s: `bw0`, `bw1`, ... and `sum`.

  sum=500   bw0>=bw1   bw2+bw3=200   2*bw0<=bw1+100   bw0>=bw1>=bw2 (a chain)

Each relation becomes a . bw (op) b with op one of '=', '<=', '>='. LIBRA's constraint files
(gurobipy: `model.addLConstr(gp.quicksum(bw) == 1000)`, `bw[0] >= bw[1]`) are read by the
same rules, statement by statement, without running them."""

import os
import re
from dataclasses import dataclass
from typing import List

from .network import InputError

_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
                    r"|(bw\d+|sum)|(==|<=|>=|=|<|>)|([-+*])|(\S))")


@dataclass
class Constraint:
    coeffs: List[float]
    op: str  # "=", "<=", ">="
    rhs: float
    text: str

    def residual(self, bw) -> float:
        """How far bw is from satisfying it (0 when it holds)."""
        lhs = sum(a * b for a, b in zip(self.coeffs, bw))
        if self.op == "=":
            return abs(lhs - self.rhs)
        if self.op == "<=":
            return max(0.0, lhs - self.rhs)
        return max(0.0, self.rhs - lhs)


def _linear(tokens, text, where, dims):
    """Parse a sum of terms; returns (coefficients, constant)."""
    coeffs = [0.0] * dims
    const = 0.0
    expect_term = True
    sign = 1.0
    i = 0
    while i < len(tokens):
        kind, value = tokens[i]
        if kind == "sign" and value in "+-":
            if not expect_term and value in "+-":
                expect_term = True
                sign = 1.0
            sign *= -1.0 if value == "-" else 1.0
            i += 1
            continue
        if not expect_term:
            raise InputError(f"{where}: {text!r}: expected + or - before {value!r}")
        factor = 1.0
        var = None
        if kind == "num":
            factor = float(value)
            i += 1
            if i < len(tokens) and tokens[i] == ("sign", "*"):
                i += 1
                if i >= len(tokens) or tokens[i][0] != "var":
                    raise InputError(f"{where}: {text!r}: '*' must be followed by bw<i> or sum")
            if i < len(tokens) and tokens[i][0] == "var":
                var = tokens[i][1]
                i += 1
        elif kind == "var":
            var = value
            i += 1
            if i + 1 < len(tokens) and tokens[i] == ("sign", "*") and tokens[i + 1][0] == "num":
                factor = float(tokens[i + 1][1])
                i += 2
        else:
            raise InputError(f"{where}: {text!r}: unexpected {value!r}")
        if var is None:
            const += sign * factor
        elif var == "sum":
            for d in range(dims):
                coeffs[d] += sign * factor
        else:
            d = int(var[2:])
            if d >= dims:
                raise InputError(f"{where}: {text!r}: {var} names no dimension (the network "
                                 f"has {dims}: bw0..bw{dims - 1})")
            coeffs[d] += sign * factor
        expect_term = False
        sign = 1.0
    if expect_term:
        raise InputError(f"{where}: {text!r}: a side of a relation is empty or ends in + or -")
    return coeffs, const


def parse_constraint(text: str, dims: int, where: str = "--constraint") -> List[Constraint]:
    tokens = []
    for m in _TOKEN.finditer(text):
        num, var, rel, sign, bad = m.groups()
        if bad is not None:
            raise InputError(f"{where}: {text!r}: unexpected {bad!r} (use bw0..bw{dims - 1}, "
                             f"sum, numbers, + - *, and = <= >=)")
        if num is not None:
            tokens.append(("num", num))
        elif var is not None:
            tokens.append(("var", var))
        elif rel is not None:
            if rel in ("<", ">"):
                raise InputError(f"{where}: {text!r}: strict {rel!r}: use <= or >=")
            tokens.append(("rel", "=" if rel == "==" else rel))
        else:
            tokens.append(("sign", sign))
    sides, ops, current = [], [], []
    for t in tokens:
        if t[0] == "rel":
            sides.append(current)
            ops.append(t[1])
            current = []
        else:
            current.append(t)
    sides.append(current)
    if not ops:
        raise InputError(f"{where}: {text!r}: no relation (=, <= or >=)")
    parsed = [_linear(side, text, where, dims) for side in sides]
    out = []
    for k, op in enumerate(ops):
        (a, ca), (b, cb) = parsed[k], parsed[k + 1]
        coeffs = [x - y for x, y in zip(a, b)]
        if all(abs(c) < 1e-15 for c in coeffs):
            raise InputError(f"{where}: {text!r}: the relation has no bandwidth in it")
        out.append(Constraint(coeffs, op, cb - ca, text))
    return out


_STATEMENT = re.compile(r"\.add(?:L)?Constr\s*\((.*)\)\s*$")


def read_libra_constraints(path: str, dims: int) -> List[Constraint]:
    """LIBRA's constraint file: every `model.addLConstr(...)` line, with `gp.quicksum(bw)`
    read as `sum` and `bw[i]` as `bwi`. Any other statement that mentions `bw` is refused
    rather than guessed at."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such constraint file")
    out = []
    with open(path) as f:
        lines = f.readlines()
    for n, line in enumerate(lines, 1):
        code = line.split("#", 1)[0].strip()
        m = _STATEMENT.search(code)
        if not m:
            if re.search(r"\bbw\s*\[", code):
                raise InputError(f"{path}:{n}: {code!r}: only model.addLConstr(...) lines "
                                 f"are read")
            continue
        expr = m.group(1)
        expr = re.sub(r"(?:gp\.)?quicksum\s*\(\s*bw\s*\)", "sum", expr)
        expr = re.sub(r"\bbw\s*\[\s*(\d+)\s*\]", r"bw\1", expr)
        out.extend(parse_constraint(expr, dims, f"{path}:{n}"))
    if not out:
        raise InputError(f"{path}: no model.addLConstr(...) statement")
    return out


def load_constraints(values: List[str], dims: int) -> List[Constraint]:
    """--constraint values: an expression, or a LIBRA constraint file (*.py)."""
    out = []
    for v in values:
        if v.endswith(".py"):
            out.extend(read_libra_constraints(v, dims))
        else:
            out.extend(parse_constraint(v, dims))
    return out
