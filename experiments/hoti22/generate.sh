#!/usr/bin/env bash
# Write the workloads of the HOTI'22 study into experiments/hoti22/traces/ (deterministic:
# the same files every time). Sizes follow the study: 256 MiB and 1 GiB all-reduce, a
# DLRM-like iteration (all-to-all of embeddings plus all-reduce of the MLPs) and a
# ResNet-50 data-parallel iteration, for 64 and 128 NPUs.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$HERE/traces"
mkdir -p "$OUT"
"$ROOT/mlfabric" build
gen() { "$ROOT/build/tools/et-gen" "$@" >/dev/null; }
for n in 64 128; do
  gen microbench --npus=$n --collective=all_reduce --size=256MiB --out="$OUT/allreduce-256MiB-$n"
  gen microbench --npus=$n --collective=all_reduce --size=1GiB --out="$OUT/allreduce-1GiB-$n"
  gen dlrm --npus=$n --tables=$((2 * n)) --batch=512 --out="$OUT/dlrm-$n"
  gen resnet50 --npus=$n --out="$OUT/resnet50-$n"
done
echo "workloads in $OUT"
