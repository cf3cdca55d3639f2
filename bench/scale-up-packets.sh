#!/usr/bin/env bash
# What scale-up packets cost at packet level: the first millisecond of the main job's
# workload under DCQCN on fabrics/two-dim-4x4.yaml with a credit return per frame and
# an ACK per packet, then with both coalesced (the defaults), then on the RoCE variant.
# The three runs follow each other, so their CPU times compare. Extra arguments go to all.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
[[ -x "$ROOT/build/examples/chakra-replay" ]] || "$ROOT/mlfabric" build
BIN="$ROOT/build/examples/chakra-replay"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
sed 's/scale_up: true}/scale_up: {credit_batch: 1B}}/' "$ROOT/fabrics/two-dim-4x4.yaml" \
  >"$OUT/per-frame.yaml"
ARGS=(--workload="$ROOT/traces/gpt-1.7b-16npu/gpt"
      --comm-group="$ROOT/traces/gpt-1.7b-16npu/gpt.comm-groups.json"
      --cc=dcqcn --stop=1ms --progress=0 --collectives=0 "$@")

run() {
  local name="$1"
  shift
  # The replay stops at 1 ms before the ranks finish, which it reports with status 1.
  /usr/bin/time -f "%U" -o "$OUT/time" "$@" >"$OUT/log" 2>&1 || true
  printf '%-34s %12s events %8s s CPU\n' "$name" \
    "$(awk '$1 == "events" && NF == 2 {print $2}' "$OUT/log")" "$(tail -1 "$OUT/time")"
}
NS_ATTRIBUTE_DEFAULT=ns3::RdmaNic::ScaleUpAckInterval=1 \
  run "scale-up, per-frame credits/ACKs" "$BIN" "${ARGS[@]}" --fabric="$OUT/per-frame.yaml"
run "scale-up, coalesced" "$BIN" "${ARGS[@]}" --fabric="$ROOT/fabrics/two-dim-4x4.yaml"
run "RoCE variant" "$BIN" "${ARGS[@]}" --fabric="$ROOT/fabrics/two-dim-4x4-roce.yaml"
