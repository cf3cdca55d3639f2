#!/usr/bin/env bash
# One Chakra replay in one process (its queue pairs opened before the run, as a run
# across processes opens them), then the same on 2 MPI processes under each of ns-3's
# engines, one after the other: wall time, events per process and their rate, the
# speedup against the sequential run of this sitting, and how far the summary's figures
# moved. Without arguments it replays a GPT (TP8 x PP2 x DP2, 8 layers, hidden 4096,
# sequence 2048) on fabrics/two-dim-8x4.yaml under DCQCN; arguments replace that, e.g.
#   bench/mpi-replay.sh --workload=traces/gpt-16npu/gpt \
#       --fabric=fabrics/two-dim-4x4-roce.yaml --cc=dcqcn
# Needs the mpi module: ./mlfabric mpi, then ./mlfabric build.
set -euo pipefail
source "$(dirname "$0")/mpi-setup.sh"
BIN="$ROOT/build/examples/chakra-replay"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
if [[ $# -eq 0 ]]; then
  "$ROOT/build/tools/et-gen" transformer --npus=32 --tp=8 --pp=2 --dp=2 --layers=8 \
    --hidden=4096 --seq=2048 --out="$OUT/gpt" >/dev/null
  set -- --workload="$OUT/gpt" --fabric="$ROOT/fabrics/two-dim-8x4.yaml" --cc=dcqcn
fi
echo "replay: $*"
"$BIN" "$@" --progress=0 --qp-upfront=1 --summary="$OUT/sequential.json" >/dev/null
for engine in granted-time-window null-message; do
  # The null-message engine ends a run only at a stop time.
  stop=()
  [[ "$engine" != null-message ]] || stop=(--stop=100s)
  mpiexec -n 2 --oversubscribe "$BIN" "$@" --progress=0 --mpi-engine="$engine" "${stop[@]}" \
    --summary="$OUT/$engine.json" >"$OUT/$engine.txt"
  grep 'across 2 processes' "$OUT/$engine.txt" | sed "s/^/$engine /"
done
/usr/bin/python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
HOST = ("wall_seconds", "events", "network", "partition", "processes")

def figures(summary):
    """The run's figures; collectives by (group, sequence), as first issues at the same
    picosecond on two processes are listed in process order."""
    s = {k: v for k, v in summary.items() if k not in HOST}
    s["network_stats"] = {k: v for k, v in s["network_stats"].items()
                          if k not in ("busiest_links", "link_window_ns")}
    s["collectives"] = sorted(({k: v for k, v in c.items() if k != "id"}
                               for c in s["collectives"]),
                              key=lambda c: (c["group"], c["sequence"]))
    return s

def links(summary):
    return summary["network_stats"].get("busiest_links", [])

def largest_move(a, b):
    """The largest relative change of a number between two figures of the same shape."""
    if isinstance(a, dict):
        return max([largest_move(a[k], b.get(k)) for k in a] or [0])
    if isinstance(a, list):
        return max([largest_move(x, y) for x, y in zip(a, b)] or [0])
    if isinstance(a, (int, float)) and not isinstance(a, bool) and isinstance(b, (int, float)):
        return abs(b - a) / abs(a) if a else float(b != 0)
    return 0.0 if a == b else float("inf")

one = json.load(open(f"{out}/sequential.json"))
print(f"{'run':<20} {'wall(s)':>8} {'events':>11} {'Mev/s':>7} {'speedup':>8}  per process")
print(f"{'sequential':<20} {one['wall_seconds']:8.2f} {one['events']:11d} "
      f"{one['events'] / one['wall_seconds'] / 1e6:7.2f} {1:8.2f}")
for engine in ("granted-time-window", "null-message"):
    two = json.load(open(f"{out}/{engine}.json"))
    wall = max(p["wall_seconds"] for p in two["processes"])
    events = sum(p["events"] for p in two["processes"])
    parts = ", ".join(f"{p['events']} ev in {p['wall_seconds']:.2f} s "
                      f"({p['events'] / max(p['wall_seconds'], 1e-9) / 1e6:.2f} Mev/s)"
                      for p in two["processes"])
    same = figures(one) == figures(two)
    moved = "every figure identical" if same else \
        f"largest move {largest_move(figures(one), figures(two)):.2e}"
    if links(two):
        moved += f"; busiest links' largest move {largest_move(links(one), links(two)):.2e}"
    print(f"{engine:<20} {wall:8.2f} {events:11d} {events / wall / 1e6:7.2f} "
          f"{one['wall_seconds'] / wall:8.2f}  {parts}; iteration "
          f"{two['simulated_ns'] / 1e3:.3f} us against {one['simulated_ns'] / 1e3:.3f}; {moved}")
PY
