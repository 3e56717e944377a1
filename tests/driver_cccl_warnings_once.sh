#!/bin/sh
# driver_cccl_warnings_once.sh: a unit that includes CUB or Thrust is
# preprocessed by g++ and then again by clang++ (docs/cccl.md, "clang++ for
# CUB and Thrust"); the second run's warnings repeated the first's in
# clang++'s words: `#pragma once in main file` was printed by g++, then as
# clang++'s "[-Wpragma-once-outside-header]" with "1 warning generated.",
# and a #warning twice. nvcc 13 gives g++'s words alone. Checked
# (tests/driver/cccl_warnings/pragma_once_thrust.cu): each warning in g++'s
# words, once; none of clang++'s; again so from the compile cache; the
# program builds and runs. The compile by clang++ gave, besides, its own
# default warnings about conversions that g++ mentions only under
# -Wconversion, quoting cuemu's rewritten line: `2.0f * rand() / RAND_MAX`
# and `int per_cell = 2.5;` (conversions_thrust.cu) now build silently, as
# with nvcc, and -Xcompiler -Wconversion still shows them. With nvcc present
# its builds of both files are recorded (nvcc_build). Run by `make check`
# with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_cccl_warnings_once.sh "$nvcc is not built"
command -v clang++ >/dev/null 2>&1 ||
  tool_missing driver_cccl_warnings_once.sh "clang++ is missing"

work=$builddir_abs/tests/tmp/driver_cccl_warnings_once.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/driver/cccl_warnings/pragma_once_thrust.cu

# check NAME LOG: one line of each warning, g++'s, and nothing of clang++'s.
check() {
  once=$(grep -c 'warning: #pragma once in main file$' "$2")
  hash=$(grep -c 'warning: #warning "this unit warns once" \[-Wcpp\]$' "$2")
  clang=$(grep -c 'Wpragma-once-outside-header\|W#warnings\|warnings\? generated' "$2")
  if [ "$once" = 1 ] && [ "$hash" = 1 ] && [ "$clang" = 0 ]; then
    echo "PASS: $1: each warning once, in g++'s words"
  else
    fail "$1: #pragma once $once times, #warning $hash times, clang++'s lines $clang times:"
    sed 's/^/  | /' "$2" | head -20
  fi
}

for hit in first again; do
  step "build_$hit" "$nvcc" -o prog "$src" && check "build ($hit)" "$work/build_$hit.log"
done
passes "the program runs" ./prog

# Conversions that only clang++ warns about by default (-Wliteral-conversion,
# -Wimplicit-const-int-float-conversion): none printed, as g++ prints none.
conv=$srcdir/tests/driver/cccl_warnings/conversions_thrust.cu
if step build_conversions "$nvcc" -o conv "$conv"; then
  if grep -q 'conversion\|warnings\? generated' "$work/build_conversions.log"; then
    fail "clang++'s conversion warnings were printed for a unit g++ builds silently:"
    sed 's/^/  | /' "$work/build_conversions.log" | head -10
  else
    echo "PASS: RAND_MAX made a float and 2.5 stored in an int build silently"
  fi
fi
passes "the conversions program runs" ./conv
# The user's -Wconversion asks for them, as g++ then gives them.
if step build_wconversion "$nvcc" -Xcompiler -Wconversion -o conv2 "$conv"; then
  if grep -q 'changes value from 2147483647' "$work/build_wconversion.log"; then
    echo "PASS: -Xcompiler -Wconversion still warns about RAND_MAX made a float"
  else
    fail "-Xcompiler -Wconversion no longer warns about RAND_MAX made a float"
  fi
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  step nvcc-build nvcc_build driver_cccl_warnings_once.sh:pragma_once "$real" \
    -c -o nv.o "$src" && echo "PASS: nvcc builds pragma_once_thrust.cu"
  step nvcc-conversions nvcc_build driver_cccl_warnings_once.sh:conversions \
    "$real" -c -o nvconv.o "$conv" &&
    echo "PASS: nvcc builds conversions_thrust.cu"
fi

rm -rf "$work"
exit "$failed"
