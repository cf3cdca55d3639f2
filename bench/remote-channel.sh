#!/usr/bin/env bash
# ns-3's distributed simulator on mlfabric's cables: the same cables and frames run alone
# (ns-3's default simulator) and on 2 MPI processes under each of ns-3's engines
# (granted time window, null messages). Arguments go to every run, e.g.
#   bench/remote-channel.sh --cables=8                  every frame crosses processes
#   bench/remote-channel.sh --cables=1 --local-cables=8 --delay=10us
# Needs the mpi module: ./mlfabric mpi, then ./mlfabric build.
set -euo pipefail
source "$(dirname "$0")/mpi-setup.sh"
BIN="$ROOT/build/bench/remote-channel-bench"
[[ -x "$BIN" ]] || { echo "remote-channel.sh: $BIN was not built (no mpi module?)" >&2; exit 1; }
"$BIN" --engine=sequential "$@" | tail -1 | sed 's/^total/sequential/'
for engine in granted-time-window null-message; do
  mpiexec -n 2 --oversubscribe "$BIN" --engine="$engine" "$@" | grep -E '^(rank|total)' |
    sed "s/^total/$engine/"
done
