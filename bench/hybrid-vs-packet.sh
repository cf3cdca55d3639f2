#!/usr/bin/env bash
# Benchmark of the hybrid backend against the packet and flow levels on the main job:
# traces/gpt-1.7b-16npu on fabrics/two-dim-4x4.yaml (scale-up switch of 4 GPUs per server,
# 2:1 RoCE Clos over 4 servers) under DCQCN (the flow level has no congestion control).
# Prints, per backend, the iteration (last rank's finish), its error against the packet
# level, the simulator's events, wall and CPU time, peak memory, and the scale-out's PFC
# pauses and ECN marks; then how many messages and bytes the hybrid ran at each level.
# Extra arguments go to every run (e.g. --qp-per-message); every run must finish.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
[[ -x "$ROOT/build/examples/chakra-replay" ]] || "$ROOT/mlfabric" build
BIN="$ROOT/build/examples/chakra-replay"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
ARGS=(--workload="$ROOT/traces/gpt-1.7b-16npu/gpt"
      --comm-group="$ROOT/traces/gpt-1.7b-16npu/gpt.comm-groups.json"
      --fabric="$ROOT/fabrics/two-dim-4x4.yaml" --progress=0 --collectives=0 "$@")

for b in packet hybrid flow; do
  cc=(--cc=dcqcn)
  [[ $b == flow ]] && cc=()
  /usr/bin/time -f "%e %U %M" -o "$OUT/$b.time" "$BIN" "${ARGS[@]}" "${cc[@]}" --backend=$b \
    --summary="$OUT/$b.json" >/dev/null
done
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
rows = {}
print("| backend | iteration (us) | error | events | wall (s) | CPU (s) | peak memory (MB) | PFC pauses | ECN marks |")
print("|---|---|---|---|---|---|---|---|---|")
for b in ("packet", "hybrid", "flow"):
    d = json.load(open(f"{out}/{b}.json"))
    wall, cpu, rss = open(f"{out}/{b}.time").read().split()
    rows[b] = d
    finish = max(r["finish_ns"] for r in d["ranks"]) / 1e3
    if b == "packet":
        base = finish
    ns = d.get("network_stats") or {}
    pfc = f"{ns['pfc_pause_frames']:,}" if ns else "-"
    ecn = f"{ns['ecn_marks']:,}" if ns else "-"
    print(f"| {b} | {finish:.3f} | {100 * (finish - base) / base:+.3f} % | {d['events']:,} | "
          f"{float(wall):.2f} | {float(cpu):.2f} | {int(rss) / 1024:.0f} | {pfc} | {ecn} |")
c = rows["hybrid"]["network_counters"]
total = sum(c[f"{k} bytes"] for k in ("hybrid flow level", "hybrid packet level", "hybrid packet, crossing"))
print()
for k in ("hybrid flow level", "hybrid packet level", "hybrid packet, crossing"):
    print(f"{k}: {c[k + ' messages']:,} messages, {c[k + ' bytes']:,} B ({100 * c[k + ' bytes'] / total:.1f} %)")
PY
