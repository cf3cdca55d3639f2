#!/usr/bin/env bash
# Build doc/programming's program against an installed mlfabric, with find_package(mlfabric)
# and with pkg-config, run both and check the arrival time against its closed form.
# usage: test/out-of-tree-program.sh <mlfabric build folder>
set -euo pipefail
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$1"
WORK="$BUILD/out-of-tree"
rm -rf "$WORK"
cmake --install "$BUILD" --prefix "$WORK/prefix" >"$WORK.install.log" 2>&1 ||
  { cat "$WORK.install.log"; exit 1; }
libdir="$(dirname "$(find "$WORK/prefix" -name 'libns3-mlfabric.so' | head -1)")"

# 256 frames of 4096 + 82 bytes at 100 Gb/s leave rank 0 back to back (85,565.44 ns); the
# last one crosses two 1 us cables and is serialized once more at the switch (334.24 ns).
expected="last byte after 88670.6 ns"

cmake -S "$SOURCE/doc/programming" -B "$WORK/cmake" -DCMAKE_PREFIX_PATH="$WORK/prefix" >/dev/null
cmake --build "$WORK/cmake" >"$WORK/cmake.log" 2>&1 || { cat "$WORK/cmake.log"; exit 1; }
out="$(LD_LIBRARY_PATH="$libdir" "$WORK/cmake/first-message")"
echo "find_package: $out"
grep -qF "$expected" <<<"$out" || { echo "expected '$expected'"; exit 1; }

export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046
g++ -O1 -o "$WORK/first-message-pc" "$SOURCE/doc/programming/first-message.cc" \
  $(pkg-config --cflags --libs mlfabric)
out="$(LD_LIBRARY_PATH="$libdir" "$WORK/first-message-pc")"
echo "pkg-config: $out"
grep -qF "$expected" <<<"$out" || { echo "expected '$expected'"; exit 1; }
echo "1 passed, 0 failed"
