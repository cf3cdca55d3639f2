#!/usr/bin/env bash
# Memory over a long packet-level replay: 8 NPUs on fabrics/two-dim-4x2.yaml under DCQCN
# run REPEAT ring all-reduces of 4 MiB back to back (compute of 10 us between them). The
# resident set size of the replay is sampled every second; the script prints it at each
# tenth of the run, then the peak RSS of shorter runs of the same workload, so that
# growth with the length of the run shows as a difference between the rows.
#
# usage: bench/long-run-memory.sh [REPEAT]      (default 2000, about 3 minutes)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MLFABRIC_BUILD_DIR:-$ROOT/build}"
REPEAT="${1:-2000}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

"$ROOT/mlfabric" build

# Run one replay of REPEAT collectives; print "<peak RSS KiB> <events> <simulated us>".
# With a second argument, sample the RSS every second into that file.
replay() {
  local repeat="$1" samples="${2:-}"
  "$BUILD/tools/et-gen" microbench --npus=8 --size=4MiB --repeat="$repeat" --compute-us=10 \
    --out="$WORK/ar$repeat" >/dev/null
  /usr/bin/time -f "%M" -o "$WORK/rss$repeat" "$BUILD/examples/chakra-replay" \
    --workload="$WORK/ar$repeat" --fabric="$ROOT/fabrics/two-dim-4x2.yaml" --cc=dcqcn \
    --progress=0 --collectives=0 --summary="$WORK/summary$repeat.json" >/dev/null &
  local timer=$!
  if [[ -n "$samples" ]]; then
    local start=$SECONDS pid
    sleep 0.2
    pid="$(pgrep -P "$timer" chakra-replay || true)"
    while [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; do
      awk -v t=$((SECONDS - start)) '/^VmRSS/ {print t, $2}' "/proc/$pid/status" >>"$samples" || true
      sleep 1
    done
  fi
  wait "$timer"
  python3 - "$WORK/summary$repeat.json" "$(cat "$WORK/rss$repeat")" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(sys.argv[2], s["events"], round(s["simulated_ns"] / 1e3))
PY
}

mib() { awk -v k="$1" 'BEGIN {print k / 1024}'; }

echo "RSS during a replay of $REPEAT all-reduces (wall s, RSS MiB):"
read -r peak events simulated < <(replay "$REPEAT" "$WORK/samples")
awk '{t[NR] = $1; r[NR] = $2} END {
  for (i = 1; i <= 10; ++i) { k = int(NR * i / 10); if (k < 1) k = 1;
    printf "  %3d%%  %5d s  %7.1f MiB\n", i * 10, t[k], r[k] / 1024 } }' "$WORK/samples"
printf '  peak %.1f MiB, %s events, %s us simulated\n' "$(mib "$peak")" "$events" "$simulated"

echo "peak RSS against the length of the run:"
printf '  %8s %12s %14s %10s\n' collectives events simulated_us peak_MiB
for n in $((REPEAT / 20)) $((REPEAT / 4)) "$REPEAT"; do
  if [[ "$n" -eq "$REPEAT" ]]; then
    read -r p e s <<<"$peak $events $simulated"
  else
    read -r p e s < <(replay "$n")
  fi
  printf '  %8d %12d %14d %10.1f\n' "$n" "$e" "$s" "$(mib "$p")"
done
