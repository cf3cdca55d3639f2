#!/usr/bin/env bash
# Benchmark against the HPCC ns-3 simulator on its own inputs: the 320-host fat tree
# (fat.txt) with 2 ms of WebSearch arrivals at 30 % load (1,090 flows, 1.85 GB), its
# HPCC and DCQCN configurations, each in peer and in faithful fidelity.
#
#   bench/hpcc-fat-tree.sh                 # the four runs, one after the other
#   bench/hpcc-fat-tree.sh hpcc peer       # one run
#   bench/hpcc-fat-tree.sh --callgrind N   # instruction counts of the first N flows
#
# Prints the FCT slowdown p50/p95/p99 beside the simulator's (reference/hpcc-ns3-peer.md:
# HPCC 1.11/2.31/3.26, DCQCN 1.04/3.03/4.97), and user CPU time, events, events per CPU
# second and peak RSS beside its 70.9 s CPU (71.8 s wall) / 335 MB for HPCC and
# 46.9 s CPU (47.7 s wall) / 340 MB for DCQCN. Outputs stay in $OUT (default: a new
# temporary folder).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${MLFABRIC_BUILD_DIR:-$ROOT/build}"
DATA="${MLFABRIC_SHARED_DIR:-$ROOT/../shared}/data/hpcc"
OUT="${OUT:-$(mktemp -d)}"
mkdir -p "$OUT"

if [[ -f "$BUILD/CMakeCache.txt" ]]; then
  cmake --build "$BUILD" --target examples-hpcc-compat >/dev/null
else
  "$ROOT/mlfabric" build
fi
BIN="$BUILD/examples/hpcc-compat"
FLOWS="$DATA/flows_websearch_320h_30pct_2ms.txt"

# The simulator's figures: p50 p95 p99 cpu_s wall_s rss_MB
declare -A PEER=([hpcc]="1.11 2.31 3.26 70.9 71.8 335" [dcqcn]="1.04 3.03 4.97 46.9 47.7 340")

if [[ "${1:-}" == "--callgrind" ]]; then
  n="${2:?number of flows}"
  head -n $((n + 1)) "$FLOWS" | sed "1s/.*/$n/" >"$OUT/flows-$n.txt"
  for cc in hpcc dcqcn; do
    for fidelity in peer faithful; do
      dir="$OUT/callgrind-$cc-$fidelity"
      mkdir -p "$dir"
      valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.out" "$BIN" \
        --config="$DATA/config_fat_websearch_2ms_$cc.txt" --flows="$OUT/flows-$n.txt" \
        --out-dir="$dir" --fidelity="$fidelity" --progress=0 --summary="$dir/summary.json" \
        >/dev/null 2>"$dir/valgrind.log"
      instructions=$(sed -n 's/.*Collected : //p' "$dir/valgrind.log")
      events=$(jq -r .events "$dir/summary.json")
      printf "%-6s %-9s %d flows: %s instructions, %s events, %d per event (%s)\n" \
        "$cc" "$fidelity" "$n" "$instructions" "$events" $((instructions / events)) \
        "$dir/callgrind.out"
    done
  done
  exit 0
fi

ccs=(hpcc dcqcn)
fidelities=(peer faithful)
if [[ $# -ge 2 ]]; then
  ccs=("$1")
  fidelities=("$2")
fi

printf "%-6s %-9s | %-20s %-20s | %8s %8s %6s | %10s %9s | %7s %7s\n" \
  cc fidelity "p50/p95/p99" "simulator's" "CPU (s)" "sim. (s)" "ratio" events "M ev/CPU s" "RSS MB" "sim. MB"
for cc in "${ccs[@]}"; do
  for fidelity in "${fidelities[@]}"; do
    dir="$OUT/$cc-$fidelity"
    mkdir -p "$dir"
    /usr/bin/time -f "%U %e %M" -o "$dir/time" "$BIN" \
      --config="$DATA/config_fat_websearch_2ms_$cc.txt" --flows="$FLOWS" --out-dir="$dir" \
      --fidelity="$fidelity" --progress=0 --summary="$dir/summary.json" \
      >"$dir/stdout" 2>"$dir/stderr"
    read -r cpu wall rss <"$dir/time"
    read -r p50 p95 p99 events < <(jq -r '"\(.slowdown.p50) \(.slowdown.p95) \(.slowdown.p99) \(.events)"' "$dir/summary.json")
    read -r q50 q95 q99 qcpu qwall qrss <<<"${PEER[$cc]}"
    printf "%-6s %-9s | %-20s %-20s | %8.1f %8.1f %6.2f | %10d %9.2f | %7.0f %7d\n" \
      "$cc" "$fidelity" \
      "$(printf "%.2f/%.2f/%.2f" "$p50" "$p95" "$p99")" "$q50/$q95/$q99" \
      "$cpu" "$qcpu" "$(echo "$qcpu / $cpu" | bc -l)" \
      "$events" "$(echo "$events / $cpu / 1000000" | bc -l)" \
      "$(echo "$rss / 1024" | bc -l)" "$qrss"
  done
done
echo "outputs and summaries: $OUT (wall time of each run in <run>/time)"
