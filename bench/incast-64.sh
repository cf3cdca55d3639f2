#!/usr/bin/env bash
# Benchmark of the data plane: a 64-to-1 incast of 16 MiB messages through one switch
# (100 Gb/s, 1 us links, PFC on). Prints the simulator's own figures and the peak
# memory; with --callgrind also the instruction count, which is stable on a busy machine.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
"$ROOT/mlfabric" build
BIN="$ROOT/build/examples/incast"
ARGS=(--senders=64 --size=16MiB)

/usr/bin/time -f "peak memory (kB)             %M" "$BIN" "${ARGS[@]}" | tail -6
if [[ "${1:-}" == "--callgrind" ]]; then
  out="$(mktemp)"
  valgrind --tool=callgrind --callgrind-out-file="$out" "$BIN" "${ARGS[@]}" >/dev/null 2>"$out.log"
  grep -E "Collected" "$out.log" | sed 's/.*Collected : /instructions                 /'
  rm -f "$out" "$out.log"
fi
