#!/usr/bin/env bash
# Build the libFuzzer targets of fuzz/ with clang and run each for a bounded time from its
# seed corpus (test/fuzz-corpus/<target>/). Exits non-zero if any target finds an input
# that crashes, trips a sanitizer, throws something other than InputError, runs past the
# time limit or exhausts memory; the input is kept in <build>/findings/.
#
# usage: fuzz/run.sh [target...]        (default: every target)
#
# Environment:
#   MLFABRIC_FUZZ_SECONDS    time per target (default 60)
#   MLFABRIC_FUZZ_BUILD_DIR  build folder (default build-fuzz/ at the top of the tree)
#   MLFABRIC_JOBS            targets run at the same time, and build jobs (default nproc)
#   MLFABRIC_FUZZ_RSS_MB     memory limit per target process (default 2048)
#   MLFABRIC_FUZZ_TIMEOUT    seconds one input may take (default 10)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MLFABRIC_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
SECONDS_EACH="${MLFABRIC_FUZZ_SECONDS:-60}"
JOBS="${MLFABRIC_JOBS:-$(nproc)}"
RSS_MB="${MLFABRIC_FUZZ_RSS_MB:-2048}"
TIMEOUT="${MLFABRIC_FUZZ_TIMEOUT:-10}"

build() {
  if [[ ! -f "$BUILD/CMakeCache.txt" ]]; then
    cmake -S "$ROOT/fuzz" -B "$BUILD" -DCMAKE_CXX_COMPILER=clang++ >/dev/null
  fi
  if ! cmake --build "$BUILD" -j "$JOBS" >"$BUILD/build.log" 2>&1; then
    grep -E 'error|Error' "$BUILD/build.log" >&2 || true
    echo "fuzz: build failed (log: $BUILD/build.log)" >&2
    exit 1
  fi
}

# Run one target; its log is $BUILD/logs/<target>.log.
run_target() {
  local name="$1"
  local seeds="$ROOT/test/fuzz-corpus/$name"
  local work="$BUILD/corpus/$name"
  mkdir -p "$work" "$BUILD/findings" "$BUILD/logs"
  local options=(
    -max_total_time="$SECONDS_EACH"
    -rss_limit_mb="$RSS_MB"
    -timeout="$TIMEOUT"
    -print_final_stats=1
    -artifact_prefix="$BUILD/findings/$name-"
  )
  [[ -f "$ROOT/fuzz/$name.dict" ]] && options+=(-dict="$ROOT/fuzz/$name.dict")
  # New inputs go to the work folder; the seeds in the tree are only read. The input
  # files the target writes live under tmp/, which a crash would leave behind.
  local tmp="$BUILD/tmp/$name"
  mkdir -p "$tmp"
  local status=0
  (cd "$BUILD" && TMPDIR="$tmp" "./$name-fuzzer" "${options[@]}" "$work" "$seeds") \
    >"$BUILD/logs/$name.log" 2>&1 || status=$?
  rm -rf "$tmp"
  return $status
}

# One line per target: executions, coverage and the outcome.
report() {
  local name="$1" status="$2"
  local log="$BUILD/logs/$name.log"
  local runs cov
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  cov="$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)"
  if [[ "$status" -eq 0 ]]; then
    printf 'fuzz: %-16s ok      %10s executions, %s edges\n' "$name" "${runs:-?}" "${cov:-?}"
  else
    printf 'fuzz: %-16s FAILED  (status %s) log: %s\n' "$name" "$status" "$log" >&2
    grep -E '^==[0-9]+==|DEFECT|SUMMARY|Test unit written' "$log" | head -8 >&2 || true
  fi
}

main() {
  command -v clang++ >/dev/null || { echo "fuzz: clang++ is not installed" >&2; exit 1; }
  mkdir -p "$BUILD"
  build
  local targets=("$@")
  if [[ ${#targets[@]} -eq 0 ]]; then
    for bin in "$BUILD"/*-fuzzer; do
      targets+=("$(basename "$bin" -fuzzer)")
    done
  fi
  local failed=0 running=0
  declare -A pids=()
  for name in "${targets[@]}"; do
    if [[ ! -x "$BUILD/$name-fuzzer" ]]; then
      echo "fuzz: no target named '$name'" >&2
      exit 2
    fi
    run_target "$name" &
    pids[$name]=$!
    running=$((running + 1))
    if [[ $running -ge $JOBS ]]; then
      wait -n || true
      running=$((running - 1))
    fi
  done
  for name in "${targets[@]}"; do
    local status=0
    wait "${pids[$name]}" || status=$?
    report "$name" "$status"
    [[ $status -eq 0 ]] || failed=1
  done
  if [[ $failed -ne 0 ]]; then
    echo "fuzz: findings are in $BUILD/findings/; replay one with $BUILD/<target>-fuzzer <file>" >&2
  fi
  return $failed
}

main "$@"
