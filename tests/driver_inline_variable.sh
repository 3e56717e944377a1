#!/bin/sh
# driver_inline_variable.sh: a C++17 `inline __device__` variable with
# external linkage is refused without -rdc, at its line, as nvcc refuses it
# (tests/driver/inline_variable/whole_program.cu, line 8); one with
# internal linkage (static, an unnamed namespace) builds and runs, and with
# -rdc=true the first one does too (one object of the program: see
# tests/programs/trialcxx/rdc_linked_entities.cu). With nvcc present, it
# is checked to refuse and accept the same.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_inline_variable.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/driver_inline_variable.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/driver/inline_variable/whole_program.cu
message="inline __device__/__constant__/__managed__ variable must have internal linkage"

if (cd "$work" && "$nvcc" -std=c++17 -o refused "$src") >"$work/refused.log" 2>&1; then
  fail "an inline __device__ variable with external linkage compiles without -rdc"
elif grep -q "whole_program.cu:8: .*$message" "$work/refused.log"; then
  echo "PASS: refused without -rdc at line 8"
else
  fail "not refused at line 8 as nvcc says: $(head -5 "$work/refused.log")"
fi
step internal "$nvcc" -std=c++17 -DINTERNAL -o internal "$src" &&
  passes internal-linkage-runs ./internal
step rdc "$nvcc" -std=c++17 -rdc=true -o rdc "$src" &&
  passes rdc-runs ./rdc

real=$(find_nvcc)
if [ -n "$real" ]; then
  if "$real" -std=c++17 -arch=sm_90 -c -o "$work/nv.o" "$src" >"$work/nv.log" 2>&1; then
    fail "nvcc accepts the external inline variable: the test is wrong"
  elif grep -q "whole_program.cu(8): error: An $message" "$work/nv.log"; then
    echo "PASS: nvcc refuses line 8 too"
  else
    fail "nvcc's message differs: $(head -3 "$work/nv.log")"
  fi
  step nv-internal "$real" -std=c++17 -arch=sm_90 -DINTERNAL -c -o "$work/nv.o" "$src"
  step nv-rdc "$real" -std=c++17 -arch=sm_90 -rdc=true -c -o "$work/nv.o" "$src"
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
exit "$failed"
