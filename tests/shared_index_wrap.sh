#!/bin/sh
# shared_index_wrap.sh: a __shared__ array indexed with an unsigned 32-bit
# index below zero (tests/driver/faults/shared_index_wrap.cu, the form of
# HeCBench merge-cuda's merge-path search), which a GPU's 32-bit shared
# addresses wrap back into the block's window. cuemu's shared memory cannot
# wrap: the launch fails with cudaErrorIllegalAddress, and the report must
# say that the address is k x 2^32 bytes past the block's shared memory and
# why, with the kernel's line. Should the read ever wrap as on a GPU, the
# program prints PASS, and so does this test. With nvcc present, the
# program is checked to build with it. About 2 s of CPU.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing shared_index_wrap.sh "$nvcc is not built"
work=$builddir_abs/tests/tmp/shared_index_wrap.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
src=$srcdir/tests/driver/faults/shared_index_wrap.cu
line=$(grep -n '// wrap$' "$src" | cut -d: -f1)

if step build "$nvcc" -O3 -o wrap "$src"; then
  (cd "$work" && env CUEMU_QUIET=0 timeout 60 ./wrap) >"$work/run.out" 2>&1
  if grep -qx PASS "$work/run.out"; then
    echo "PASS: the index wraps into the block's shared memory, as on a GPU"
  elif grep -q "launch: cudaErrorIllegalAddress" "$work/run.out" &&
    grep -qF "shared_index_wrap.cu:$line (the address is 4 x 2^32 bytes past" "$work/run.out" &&
    grep -qF "an address in the block's shared memory: on a GPU a shared-memory address has 32 bits" "$work/run.out"; then
    echo "PASS: the fault names the line and the 32-bit wrap of shared addresses"
  else
    fail "the fault does not explain the wrap; its output:"
    sed 's/^/  | /' "$work/run.out" | head -20
  fi
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  step nvcc_build "$real" -arch=sm_90 -o wrap.nv "$src" &&
    echo "PASS: nvcc builds it"
fi
exit $failed
