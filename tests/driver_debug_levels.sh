#!/bin/sh
# driver_debug_levels.sh: cuemu-nvcc's -g is nvcc's, debug information for
# the host code only: the device passes stay optimised, as nvcc's device
# code does without -G. Before, -g compiled the device passes at -O0 too,
# and the Makefiles of "Learn CUDA Programming" (all built with -g) ran
# their cooperative-groups reductions ten times slower than without it
# (trial book3). -G still compiles the device code at -O0. The program says
# whether its device pass was optimised (__OPTIMIZE__, which the unit's
# preprocessing fixes with the user's -O, before the compile's own last -O
# comes: so the cases here name no -O).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
nvcc=$(cd "$builddir" && pwd)/cuemu-nvcc
file=$srcdir/tests/driver/debug_levels/debug_levels.cu
work=$(mktemp -d)
failed=0

# expect "OPTIONS" "OUTPUT": the program built with OPTIONS prints OUTPUT.
expect() {
  # shellcheck disable=SC2086 # OPTIONS is a list of words
  if ! (cd "$work" && "$nvcc" $1 -o prog "$file") >"$work/build.log" 2>&1; then
    echo "FAIL: cuemu-nvcc $1 did not build debug_levels.cu"
    cat "$work/build.log"
    failed=1
    return
  fi
  got=$("$work/prog" 2>&1)
  if [ "$got" != "$2" ]; then
    echo "FAIL: cuemu-nvcc $1: '$got', expected '$2'"
    failed=1
  fi
}

expect "" "device 1"
expect "-g" "device 1"
expect "-g -rdc=true" "device 1"
expect "-G" "device 0"
expect "-G -g" "device 0"

# cuemu-cc's -g is cuemu's debug build: every pass at -O0 (docs/debugging.md).
nvcc=$(cd "$builddir" && pwd)/cuemu-cc
expect "-g" "device 0"
expect "" "device 1"

# Real nvcc builds the program with each of the options above.
real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step nvcc-g nvcc_build driver_debug_levels.sh:g "$real" -std=c++17 -g -c \
    "$file" -o nvcc_g.o &&
    step nvcc-G nvcc_build driver_debug_levels.sh:G "$real" -std=c++17 -G -g \
      -c "$file" -o nvcc_G.o &&
    echo "PASS: nvcc builds debug_levels.cu with -g and with -G -g"
fi

rm -rf "$work"
exit $failed
