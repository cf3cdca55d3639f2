#!/usr/bin/env bash
# One run of the HPCC simulator's inputs in one process, then the same on 2 MPI
# processes under each of ns-3's engines, one after the other: wall time, events per
# process and their rate, the speedup against the sequential run of this sitting, and
# whether fct.txt, pfc.txt and qlen.txt came out the same. Arguments go to every run, e.g.
#   bench/mpi-hpcc.sh --config=examples/inputs/hpcc/config_fat_websearch_2ms_hpcc.txt \
#       --topology=examples/inputs/hpcc/fat.txt \
#       --flows=examples/inputs/hpcc/flows_websearch_320h_30pct_2ms.txt
# Needs the mpi module: ./mlfabric mpi, then ./mlfabric build.
set -euo pipefail
source "$(dirname "$0")/mpi-setup.sh"
BIN="$ROOT/build/examples/hpcc-compat"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
mkdir "$OUT/sequential"
"$BIN" "$@" --progress=0 --out-dir="$OUT/sequential" --summary="$OUT/sequential.json" >/dev/null
for engine in granted-time-window null-message; do
  mkdir "$OUT/$engine"
  mpiexec -n 2 --oversubscribe "$BIN" "$@" --progress=0 --mpi-engine="$engine" \
    --out-dir="$OUT/$engine" --summary="$OUT/$engine.json" >"$OUT/$engine.txt"
  grep 'partition:' "$OUT/$engine.txt" | sed "s/^ */$engine /" | head -1
done
/usr/bin/python3 - "$OUT" <<'PY'
import filecmp, json, os, sys
out = sys.argv[1]
one = json.load(open(f"{out}/sequential.json"))
files = [os.path.basename(one[k]) for k in ("fct_file", "pfc_file", "qlen_file")]
print(f"{'run':<20} {'wall(s)':>8} {'events':>10} {'Mev/s':>7} {'speedup':>8}  per process")
print(f"{'sequential':<20} {one['wall_seconds']:8.3f} {one['events']:10d} "
      f"{one['events'] / one['wall_seconds'] / 1e6:7.2f} {1:8.2f}")
for engine in ("granted-time-window", "null-message"):
    two = json.load(open(f"{out}/{engine}.json"))
    differ = [f for f in files
              if not filecmp.cmp(f"{out}/sequential/{f}", f"{out}/{engine}/{f}", shallow=False)]
    parts = ", ".join(f"{p['events']} ev in {p['wall_seconds']:.3f} s "
                      f"({p['events'] / max(p['wall_seconds'], 1e-9) / 1e6:.2f} Mev/s)"
                      for p in two["processes"])
    print(f"{engine:<20} {two['wall_seconds']:8.3f} {two['events']:10d} "
          f"{two['events'] / two['wall_seconds'] / 1e6:7.2f} "
          f"{one['wall_seconds'] / two['wall_seconds']:8.2f}  {parts}"
          f"{'  DIFFER: ' + ', '.join(differ) if differ else '  files identical'}")
PY
