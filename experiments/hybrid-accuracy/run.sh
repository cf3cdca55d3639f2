#!/usr/bin/env bash
# The hybrid backend against the packet and flow levels on the main job's fabric cut to
# two servers (fabrics/two-dim-4x2.yaml) under DCQCN (the flow level has none): generated
# GPTs whose TP stays in the scale-up switches, one whose pipeline messages cross from a
# scale-up switch into RoCE, and the bundled 16-NPU GPT on two-dim-4x4. Per case: the last
# rank's finish on each backend, the hybrid's and flow level's errors, events, the
# scale-out's ECN marks and PFC pauses (packet / hybrid), and the hybrid's share of bytes
# at flow level and in crossing messages.
# Usage: experiments/hybrid-accuracy/run.sh [scratch folder, default /tmp/hybrid-accuracy]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:-/tmp/hybrid-accuracy}"
mkdir -p "$OUT"
GEN="$ROOT/build/tools/et-gen"
REPLAY="$ROOT/build/examples/chakra-replay"
GPT="--layers=2 --seq=512 --micro-batch=1"
"$GEN" transformer --npus=8 --tp=4 --pp=1 --dp=2 $GPT --hidden=512 --heads=8 --global-batch=2 \
  --out="$OUT/tp4-dp2-small" >/dev/null
"$GEN" transformer --npus=8 --tp=4 --pp=1 --dp=2 $GPT --hidden=1024 --global-batch=4 \
  --out="$OUT/tp4-dp2" >/dev/null
"$GEN" transformer --npus=8 --tp=2 --pp=4 --dp=1 --layers=4 --seq=512 --micro-batch=1 \
  --hidden=1024 --global-batch=8 --out="$OUT/tp2-pp4" >/dev/null

# name | workload | fabric
CASES=(
  "gpt tp4 dp2, h512, two-dim-4x2|$OUT/tp4-dp2-small|$ROOT/fabrics/two-dim-4x2.yaml"
  "gpt tp4 dp2, h1024, two-dim-4x2|$OUT/tp4-dp2|$ROOT/fabrics/two-dim-4x2.yaml"
  "gpt tp2 pp4 (PP crosses), two-dim-4x2|$OUT/tp2-pp4|$ROOT/fabrics/two-dim-4x2.yaml"
  "traces/gpt-16npu, two-dim-4x4|$ROOT/traces/gpt-16npu/gpt|$ROOT/fabrics/two-dim-4x4.yaml"
)

echo "| case | packet (µs) | hybrid (µs) | hybrid error | flow error | events packet / hybrid / flow | ECN marks packet / hybrid | PFC pauses packet / hybrid | bytes at flow level | bytes crossing |"
echo "|---|---|---|---|---|---|---|---|---|---|"
i=0
for c in "${CASES[@]}"; do
  IFS='|' read -r name workload fabric <<<"$c"
  for b in packet hybrid flow; do
    cc=(--cc=dcqcn)
    [[ $b == flow ]] && cc=()
    "$REPLAY" --workload="$workload" --comm-group="$workload.comm-groups.json" \
      --fabric="$fabric" --backend=$b "${cc[@]}" --progress=0 --collectives=0 \
      --summary="$OUT/case$i-$b.json" >"$OUT/case$i-$b.txt" 2>&1
  done
  python3 - "$OUT" "$i" "$name" <<'PY'
import json, sys
out, i, name = sys.argv[1], sys.argv[2], sys.argv[3]
d = {b: json.load(open(f"{out}/case{i}-{b}.json")) for b in ("packet", "hybrid", "flow")}
f = {b: max(r["finish_ns"] for r in d[b]["ranks"]) / 1e3 for b in d}
err = lambda b: f"{100 * (f[b] - f['packet']) / f['packet']:+.4f} %"
ns = {b: d[b]["network_stats"] for b in ("packet", "hybrid")}
c = d["hybrid"]["network_counters"]
total = sum(c[k + " bytes"] for k in ("hybrid flow level", "hybrid packet level", "hybrid packet, crossing"))
share = lambda k: f"{100 * c[k + ' bytes'] / total:.1f} %"
print(f"| {name} | {f['packet']:.3f} | {f['hybrid']:.3f} | {err('hybrid')} | {err('flow')} | "
      f"{d['packet']['events']:,} / {d['hybrid']['events']:,} / {d['flow']['events']:,} | "
      f"{ns['packet']['ecn_marks']:,} / {ns['hybrid']['ecn_marks']:,} | "
      f"{ns['packet']['pfc_pause_frames']:,} / {ns['hybrid']['pfc_pause_frames']:,} | "
      f"{share('hybrid flow level')} | {share('hybrid packet, crossing')} |")
PY
  i=$((i + 1))
done
