#!/usr/bin/env bash
# The HOTI'22 study end to end: write the workloads, pre-screen the single-switch cases
# with the congestion-aware analytical model, run every case at packet level under each
# scheme, then print the tables of doc/studies/hoti22.md and draw its figure.
#
# usage: experiments/hoti22/run.sh [RESULTS_DIR]   (default results/hoti22)
# Packet level is most of the time: about an hour of CPU in all, -j 2 by default
# (MLFABRIC_JOBS). Finished runs are kept: run it again to resume.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:-$ROOT/results/hoti22}"
JOBS="${MLFABRIC_JOBS:-$(nproc)}"
"$HERE/generate.sh"
STUDIES=(hoti22-64 hoti22-switch-128 hoti22-clos-128)
# The analytical models know single switches, not the Clos.
for s in hoti22-64 hoti22-switch-128; do
  "$ROOT/mlfabric" compare "$HERE/$s.yaml" --backend=analytical-aware \
    --results="$OUT/analytical/$s" -j "$JOBS"
done
for s in "${STUDIES[@]}"; do
  "$ROOT/mlfabric" compare "$HERE/$s.yaml" --results="$OUT/packet/$s" -j "$JOBS"
done
echo "## Analytical (congestion-aware) pre-screen"
/usr/bin/python3 "$HERE/tables.py" "$OUT/analytical/hoti22-64" "$OUT/analytical/hoti22-switch-128"
echo "## Packet level"
/usr/bin/python3 "$HERE/tables.py" "${STUDIES[@]/#/$OUT/packet/}" \
  --figure="$OUT/iteration-vs-pfc.png"
echo "figure: $OUT/iteration-vs-pfc.png"
