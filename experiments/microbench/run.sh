#!/usr/bin/env bash
# ASTRA-sim's collective microbenchmarks (all_reduce, all_gather, reduce_scatter,
# all_to_all of 1 MiB on rings of 4, 8 and 16 NPUs at 50 GB/s and 500 ns, 4 chunks),
# written by `et-gen microbench` (the same traces as ASTRA-sim's), replayed on both
# analytical networks and at packet level, beside the ring's closed form at packet level.
# Usage: experiments/microbench/run.sh [scratch folder, default /tmp/microbench]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:-/tmp/microbench}"
mkdir -p "$OUT"
GEN="$ROOT/build/tools/et-gen"
REPLAY="$ROOT/build/examples/chakra-replay"
SYSTEM="$ROOT/examples/inputs/astra-sim/Ring_4chunks.json"
for n in 4 8 16; do
  printf 'topology: [ Ring ]\nnpus_count: [ %d ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n' \
    "$n" >"$OUT/ring$n.yml"
  for c in all_reduce all_gather reduce_scatter all_to_all; do
    "$GEN" microbench --npus=$n --collective=$c --size=1MiB --out="$OUT/$c-$n" >/dev/null
    for b in analytical analytical-aware packet; do
      "$REPLAY" --workload="$OUT/$c-$n" --fabric="$OUT/ring$n.yml" --system="$SYSTEM" \
        --backend=$b --progress=0 --collectives=0 --summary="$OUT/$c-$n-$b.json" \
        >"$OUT/$c-$n-$b.txt"
    done
  done
done
/usr/bin/python3 "$(dirname "$0")/table.py" "$OUT" "$SYSTEM"
