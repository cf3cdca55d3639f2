#!/usr/bin/env bash
# Benchmark of the flow-level backend against the packet level on the largest bundled
# workload: traces/gpt-1.7b-16npu on fabrics/two-dim-4x4.yaml (scale-up switch of 4 GPUs
# per server, 2:1 RoCE Clos over 4 servers). Prints, per backend, the last rank's finish,
# the simulator's events, the wall and CPU time and the peak memory, then the flow
# level's error and speed-up. Extra arguments go to both runs.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
[[ -x "$ROOT/build/examples/chakra-replay" ]] || "$ROOT/mlfabric" build
BIN="$ROOT/build/examples/chakra-replay"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
ARGS=(--workload="$ROOT/traces/gpt-1.7b-16npu/gpt" --fabric="$ROOT/fabrics/two-dim-4x4.yaml"
      --progress=0 --collectives=0 "$@")

for b in packet flow; do
  /usr/bin/time -f "%e %U %M" -o "$OUT/$b.time" "$BIN" "${ARGS[@]}" --backend=$b \
    --summary="$OUT/$b.json" >/dev/null
done
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
rows = {}
print("| backend | last finish (us) | events | wall (s) | CPU (s) | peak memory (MB) |")
print("|---|---|---|---|---|---|")
for b in ("packet", "flow"):
    d = json.load(open(f"{out}/{b}.json"))
    wall, cpu, rss = open(f"{out}/{b}.time").read().split()
    finish = max(r["finish_ns"] for r in d["ranks"]) / 1e3
    rows[b] = (finish, d["events"], float(cpu))
    print(f"| {b} | {finish:.3f} | {d['events']:,} | {float(wall):.2f} | {float(cpu):.2f} | {int(rss) / 1024:.0f} |")
p, f = rows["packet"], rows["flow"]
print(f"\nflow level: error {100 * (f[0] - p[0]) / p[0]:+.3f} %, "
      f"{p[1] / f[1]:.0f}x fewer events, {p[2] / max(f[2], 0.01):.0f}x less CPU time")
PY
