#!/usr/bin/env bash
# Benchmark of the wrapper: how long `./mlfabric run <example>` takes to start a built
# program, against starting the program directly. Both run `fabric-info --help`, which
# exits at once; the wrapper's share is the difference. Prints the median of N runs
# (default 20) of each, in seconds.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
N="${1:-20}"
"$ROOT/mlfabric" build

median() {
  sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

measure() {
  for _ in $(seq "$N"); do
    local start end
    start="$(date +%s.%N)"
    "$@" >/dev/null 2>&1
    end="$(date +%s.%N)"
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'
  done | median
}

printf 'program directly          %.3f s\n' "$(measure "$ROOT/build/examples/fabric-info" --help)"
printf './mlfabric run, built     %.3f s\n' "$(measure "$ROOT/mlfabric" run fabric-info --help)"
