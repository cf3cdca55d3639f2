#!/usr/bin/env bash
# One incast in one process, then the same incast on 2 MPI processes under each of
# ns-3's engines, one after the other: wall time, events per process and their rate,
# and the speedup against the sequential run of this sitting. Arguments go to every run,
# e.g.
#   bench/mpi-incast.sh --fabric=fabrics/clos-2tier-32.yaml --size=4MiB
# Needs the mpi module: ./mlfabric mpi, then ./mlfabric build.
set -euo pipefail
source "$(dirname "$0")/mpi-setup.sh"
BIN="$ROOT/build/examples/incast"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
"$BIN" "$@" --summary="$OUT/sequential.json" >/dev/null
for engine in granted-time-window null-message; do
  mpiexec -n 2 --oversubscribe "$BIN" "$@" --mpi-engine="$engine" \
    --summary="$OUT/$engine.json" >"$OUT/$engine.txt"
  grep '^partition:' "$OUT/$engine.txt" | sed "s/^/$engine /" | head -1
done
/usr/bin/python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
one = json.load(open(f"{out}/sequential.json"))
print(f"{'run':<20} {'wall(s)':>8} {'events':>10} {'Mev/s':>7} {'speedup':>8}  per process")
print(f"{'sequential':<20} {one['wall_seconds']:8.3f} {one['events']:10d} "
      f"{one['events'] / one['wall_seconds'] / 1e6:7.2f} {1:8.2f}")
for engine in ("granted-time-window", "null-message"):
    two = json.load(open(f"{out}/{engine}.json"))
    same = all(two[k] == one[k] for k in ("completion_time_ns", "bytes_delivered",
                                          "pfc_pause_frames", "ecn_marks", "flows"))
    parts = ", ".join(f"{p['events']} ev in {p['wall_seconds']:.3f} s "
                      f"({p['events'] / max(p['wall_seconds'], 1e-9) / 1e6:.2f} Mev/s)"
                      for p in two["processes"])
    print(f"{engine:<20} {two['wall_seconds']:8.3f} {two['events']:10d} "
          f"{two['events'] / two['wall_seconds'] / 1e6:7.2f} "
          f"{one['wall_seconds'] / two['wall_seconds']:8.2f}  {parts}"
          f"{'' if same else '  FIGURES DIFFER'}")
PY
