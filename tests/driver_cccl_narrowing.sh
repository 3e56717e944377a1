#!/bin/sh
# driver_cccl_narrowing.sh: a narrowing conversion in braces in the host
# code of a unit that cuemu-nvcc compiles with clang++ in g++'s place (one
# that includes CUB or Thrust, docs/cccl.md): of a variable's value, g++
# (nvcc's host compiler) and nvcc warn and build the program, where
# clang++ refused it; of a constant, g++ and nvcc refuse it, and so must
# cuemu-nvcc (tests/driver/cccl_narrowing/). With nvcc present, it is
# checked to agree. Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_cccl_narrowing.sh "$nvcc is not built"
command -v clang++ >/dev/null 2>&1 ||
  tool_missing driver_cccl_narrowing.sh "clang++ is missing"

work=$builddir_abs/tests/tmp/driver_cccl_narrowing.$$
mkdir -p "$work" || exit 1
failed=0
d=$srcdir/tests/driver/cccl_narrowing

# A variable's value: built with a warning at its line, and run.
if step variable "$nvcc" -o prog "$d/variable_narrowing_thrust.cu"; then
  if grep -q "variable_narrowing_thrust.cu:15:.*warning: .*narrow" "$work/variable.log"; then
    echo "PASS: variable narrowing builds with a warning"
  else
    fail "variable narrowing: no warning at line 15:"
    sed 's/^/  | /' "$work/variable.log" | head -20
  fi
  passes "variable narrowing runs" ./prog
fi

# A constant: refused, with an error at its line.
if (cd "$work" && "$nvcc" -c -o c.o "$d/constant_narrowing_thrust.cu") \
  >"$work/constant.log" 2>&1; then
  fail "constant narrowing compiles"
elif grep -q "constant_narrowing_thrust.cu:9:.*error: .*narrow" "$work/constant.log"; then
  echo "PASS: constant narrowing refused at its line"
else
  fail "constant narrowing: no error at line 9:"
  sed 's/^/  | /' "$work/constant.log" | head -20
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  step nvcc-variable nvcc_build driver_cccl_narrowing.sh:variable "$real" \
    -c -o nv.o "$d/variable_narrowing_thrust.cu" &&
    echo "PASS: nvcc builds variable_narrowing_thrust.cu"
  (cd "$work" && "$real" -c -o nv.o "$d/constant_narrowing_thrust.cu") \
    >/dev/null 2>&1 && fail "nvcc takes constant_narrowing_thrust.cu: the test is wrong"
fi

rm -rf "$work"
[ "$failed" = 0 ]
