#!/usr/bin/env bash
# The load-balancing study of doc/studies/load-balancing.md end to end: synthetic
# permutation and all-to-all traffic on fat-tree-k4 and a 2:1 Clos under each
# load-balancing scheme and transport, then a MoE and a dense data-parallel training
# step (generated traces) on the 2:1 Clos under each scheme and congestion control;
# prints the tables and draws the figures.
#
# usage: experiments/load-balancing/run.sh [RESULTS_DIR]   (default results/load-balancing)
# Finished runs are kept: run it again to resume. MLFABRIC_JOBS runs at once (default 2).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:-$ROOT/results/load-balancing}"
JOBS="${MLFABRIC_JOBS:-2}"
MLF="$ROOT/mlfabric"
mkdir -p "$OUT/traffic" "$OUT/replay" "$OUT/traces"
"$MLF" build >/dev/null

LBS=(ecmp flowlet spray adaptive)
CCS=(none dcqcn hpcc timely dctcp swift)
TRAFFIC="$ROOT/build/examples/traffic"
REPLAY="$ROOT/build/examples/chakra-replay"

# One line per run: the output file, then the command.
jobs_file="$OUT/jobs.txt"
: >"$jobs_file"
for fabric in fat-tree-k4 clos-2to1-16; do
  for pattern in permutation all-to-all; do
    size=1MiB
    [[ $pattern == all-to-all ]] && size=128KiB
    for lb in "${LBS[@]}"; do
      for transport in gbn sr; do
        out="$OUT/traffic/$fabric-$pattern-$lb-$transport.json"
        echo "$out $TRAFFIC --fabric=$ROOT/fabrics/$fabric.yaml --pattern=$pattern" \
          "--size=$size --seed=1 --lb=$lb --transport=$transport --stop=200ms" \
          "--summary=$out" >>"$jobs_file"
      done
    done
  done
done

# Training steps: a MoE layer (expert all-to-all, EP 16) and a dense model whose step
# is a gradient all-reduce over DP 16, small enough for seconds per run. All-to-all runs
# direct (every rank to every other at once) and all-reduce halving-doubling, so that
# both cross the leaves; a ring keeps most of its steps inside a leaf.
SYSTEM="$ROOT/experiments/hoti22/system-hd.json"
if [[ ! -f "$OUT/traces/moe.0.et" ]]; then
  "$MLF" gen transformer --npus=16 --tp=1 --pp=1 --dp=16 --ep=16 --experts=16 --top-k=2 \
    --layers=1 --hidden=512 --heads=8 --seq=512 --micro-batch=1 --global-batch=16 \
    --vocab=1024 --out="$OUT/traces/moe" >/dev/null
fi
if [[ ! -f "$OUT/traces/dp.0.et" ]]; then
  "$MLF" gen transformer --npus=16 --tp=1 --pp=1 --dp=16 --layers=2 --hidden=512 \
    --heads=8 --seq=512 --micro-batch=1 --global-batch=16 --vocab=1024 \
    --out="$OUT/traces/dp" >/dev/null
fi
for workload in moe dp; do
  for lb in "${LBS[@]}"; do
    for cc in "${CCS[@]}"; do
      out="$OUT/replay/$workload-$lb-$cc.json"
      echo "$out $REPLAY --workload=$OUT/traces/$workload --system=$SYSTEM" \
        "--fabric=$ROOT/fabrics/clos-2to1-16.yaml" \
        "--backend=packet --lb=$lb --transport=sr --cc=$cc --progress=0 --summary=$out" \
        >>"$jobs_file"
    done
  done
done

# Run what is not done yet, JOBS at a time; a run's log sits next to its summary.
while read -r out cmd; do
  [[ -f "$out" ]] && continue
  echo "${out%.json}.log $cmd"
done <"$jobs_file" | xargs -P "$JOBS" -L 1 bash -c 'log="$0"; "$@" >"$log" 2>&1 || true'

/usr/bin/python3 "$HERE/tables.py" "$OUT" --figures="$OUT"
