#!/bin/sh
# write_past_end.sh: a kernel whose off-by-one bound test writes a row past
# the end of its output (tests/driver/faults/write_past_end.cu, the form of
# HeCBench bezier-surface's kernel). A GPU usually lets the row land in the
# rest of the allocation's 2 MiB page; cuemu's guard after the allocation
# makes it fault: the launch fails with cudaErrorIllegalAddress, and the
# report must name the line and say how many bytes past the end of which
# allocation the address is, and why a GPU may not notice. Should the write
# ever land as on a GPU, the program prints PASS, and so does this test.
# With nvcc present, the program is checked to build with it. About 2 s of
# CPU.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing write_past_end.sh "$nvcc is not built"
work=$builddir_abs/tests/tmp/write_past_end.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
src=$srcdir/tests/driver/faults/write_past_end.cu
line=$(grep -n '// row$' "$src" | cut -d: -f1)

if step build "$nvcc" -O3 -o past "$src"; then
  (cd "$work" && env CUEMU_QUIET=0 timeout 60 ./past) >"$work/run.out" 2>&1
  if grep -qx PASS "$work/run.out"; then
    echo "PASS: the row past the end lands unnoticed, as on a GPU"
  elif grep -q "launch: cudaErrorIllegalAddress" "$work/run.out" &&
    grep -qF "write_past_end.cu:$line (the address is 0 bytes past the end of the 16384-byte device allocation at" "$work/run.out" &&
    grep -qF "a GPU, whose allocations are carved out of 2 MiB pages, may let it land unnoticed" "$work/run.out"; then
    echo "PASS: the fault names the line and how far past the end of the allocation"
  else
    fail "the fault does not say it is past the end of the allocation; its output:"
    sed 's/^/  | /' "$work/run.out" | head -20
  fi
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  step nvcc_build "$real" -arch=sm_90 -o past.nv "$src" &&
    echo "PASS: nvcc builds it"
fi
exit $failed
