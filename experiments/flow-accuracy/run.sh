#!/usr/bin/env bash
# The flow-level backend against the packet level: every case is replayed on both, and
# the table gives the last rank's finish time, the flow level's error, and each
# backend's events and wall time. Uncongested cases first (the ASTRA-sim
# microbenchmarks and the bundled workloads), then congested ones on a Clos and a switch.
# Usage: experiments/flow-accuracy/run.sh [scratch folder, default /tmp/flow-accuracy]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:-/tmp/flow-accuracy}"
mkdir -p "$OUT"
GEN="$ROOT/build/tools/et-gen"
REPLAY="$ROOT/build/examples/chakra-replay"
ASTRA="$ROOT/examples/inputs/astra-sim"

printf 'topology: [ Ring ]\nnpus_count: [ 16 ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n' >"$OUT/ring16.yml"
printf '{"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1, "preferred-dataset-splits": 1, "all-reduce-implementation": ["halvingDoubling"], "all-to-all-implementation": ["direct"], "collective-optimization": "baseline"}\n' >"$OUT/hd-direct.json"
for c in all_gather reduce_scatter all_to_all; do
  "$GEN" microbench --npus=16 --collective=$c --size=1MiB --out="$OUT/$c-16" >/dev/null
done
"$GEN" microbench --npus=32 --collective=all_reduce --size=16MiB --out="$OUT/ar-32" >/dev/null
"$GEN" microbench --npus=32 --collective=all_to_all --size=16MiB --out="$OUT/a2a-32" >/dev/null
"$GEN" microbench --npus=17 --collective=gather --size=16MiB --out="$OUT/gather-17" >/dev/null

# name | workload | fabric | system ("" for the default)
CASES=(
  "all_reduce 8 NPUs 1 MB, ring|$ASTRA/all_reduce_8npus_1MB/all_reduce|$ASTRA/Ring_8npus.yml|$ASTRA/Ring_4chunks.json"
  "all_gather 16 NPUs 1 MiB, ring|$OUT/all_gather-16|$OUT/ring16.yml|$ASTRA/Ring_4chunks.json"
  "reduce_scatter 16 NPUs 1 MiB, ring|$OUT/reduce_scatter-16|$OUT/ring16.yml|$ASTRA/Ring_4chunks.json"
  "all_to_all 16 NPUs 1 MiB, ring|$OUT/all_to_all-16|$OUT/ring16.yml|$ASTRA/Ring_4chunks.json"
  "traces/allreduce-8npu, ring-8|$ROOT/traces/allreduce-8npu/allreduce|$ROOT/fabrics/ring-8.yaml|"
  "traces/gpt-16npu, torus-4x4|$ROOT/traces/gpt-16npu/gpt|$ROOT/fabrics/torus-4x4.yaml|"
  "traces/gpt-16npu, two-dim-4x4|$ROOT/traces/gpt-16npu/gpt|$ROOT/fabrics/two-dim-4x4.yaml|"
  "traces/gpt-1.7b-16npu, two-dim-4x4|$ROOT/traces/gpt-1.7b-16npu/gpt|$ROOT/fabrics/two-dim-4x4.yaml|"
  "all-reduce 32 x 16 MiB, halving-doubling, clos-2tier-32|$OUT/ar-32|$ROOT/fabrics/clos-2tier-32.yaml|$OUT/hd-direct.json"
  "all-to-all 32 x 16 MiB, direct, clos-2tier-32|$OUT/a2a-32|$ROOT/fabrics/clos-2tier-32.yaml|$OUT/hd-direct.json"
  "gather 16-to-1 x 16 MiB (incast), incast-16|$OUT/gather-17|$ROOT/fabrics/incast-16.yaml|$OUT/hd-direct.json"
)

field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

echo "| case | packet (µs) | flow (µs) | error | packet events | flow events | packet wall (s) | flow wall (s) |"
echo "|---|---|---|---|---|---|---|---|"
i=0
for c in "${CASES[@]}"; do
  IFS='|' read -r name workload fabric system <<<"$c"
  for b in packet flow; do
    args=(--workload="$workload" --fabric="$fabric" --backend=$b --progress=0 --collectives=0
          --summary="$OUT/case$i-$b.json")
    [[ -n "$system" ]] && args+=(--system="$system")
    "$REPLAY" "${args[@]}" >"$OUT/case$i-$b.txt"
  done
  last='max(r["finish_ns"] for r in d["ranks"])/1e3'
  p=$(field "$OUT/case$i-packet.json" "$last")
  f=$(field "$OUT/case$i-flow.json" "$last")
  err=$(python3 -c "print('%+.2f %%' % (100*($f-$p)/$p))")
  printf '| %s | %.3f | %.3f | %s | %s | %s | %s | %s |\n' "$name" "$p" "$f" "$err" \
    "$(field "$OUT/case$i-packet.json" '"{:,}".format(d["events"])')" \
    "$(field "$OUT/case$i-flow.json" '"{:,}".format(d["events"])')" \
    "$(field "$OUT/case$i-packet.json" 'round(d["wall_seconds"],3)')" \
    "$(field "$OUT/case$i-flow.json" 'round(d["wall_seconds"],3)')"
  i=$((i + 1))
done
