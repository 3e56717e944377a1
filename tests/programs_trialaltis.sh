#!/bin/sh
# programs_trialaltis.sh: the programs of tests/programs/trialaltis, from a
# trial of the Altis benchmark suite. coop_beyond_device.cu makes a
# cooperative launch of 91 blocks of 256 threads, which any sm_90 GPU holds
# but the default emulated device (8 SMs) does not: the launch is refused
# with cudaErrorCooperativeLaunchTooLarge, and, not quiet, cuemu says once
# on stderr how many blocks fit and which setting gives more SMs (the
# program's own message, CUDA's, does not name it); with 16 SMs it runs.
# Then assert() without <assert.h> or <cassert>, in a kernel or in host code,
# is refused as nvcc 13 refuses it ("identifier "assert" is undefined"; two
# of the suite's sources did so), and is accepted once <cassert> is included.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cuemu=$builddir_abs/cuemu-nvcc
src=$srcdir/tests/programs/trialaltis/coop_beyond_device.cu
work=$(mktemp -d)
failed=0

if step build "$cuemu" -arch=sm_90 -std=c++17 -o coop_beyond_device "$src"; then
  refused="refused: cudaErrorCooperativeLaunchTooLarge
refused: cudaErrorCooperativeLaunchTooLarge"
  out=$(CUEMU_QUIET=0 "$work/coop_beyond_device" 2>"$work/told.err")
  told=$(grep -c "^cuemu: kernel stencil_step.*: a cooperative launch of 91 blocks of 256 threads; at most 64 can be resident at once (CUEMU_DEVICE=sms=N sets the emulated SM count)$" "$work/told.err")
  if [ "$out" = "$refused" ] && [ "$told" = 1 ]; then
    echo "PASS: 8 SMs, not quiet: refused twice, told once"
  else
    fail "8 SMs, not quiet: '$out', told $told times, expected once; stderr:"
    sed 's/^/  | /' "$work/told.err" | head -10
  fi
  out=$(CUEMU_QUIET=1 "$work/coop_beyond_device" 2>"$work/quiet.err")
  if [ "$out" = "$refused" ] && [ ! -s "$work/quiet.err" ]; then
    echo "PASS: 8 SMs, quiet: refused, nothing printed"
  else
    fail "8 SMs, quiet: '$out', stderr:"
    sed 's/^/  | /' "$work/quiet.err" | head -10
  fi
  passes sms16 env CUEMU_DEVICE=sms=16 "$work/coop_beyond_device"
fi

# assert_use INCLUDE WHERE: a program that calls assert() in WHERE (kernel
# or host), after INCLUDE (a line, or nothing).
assert_use() {
  {
    echo "$1"
    echo "__global__ void k(int *p) {"
    [ "$2" = kernel ] && echo "  assert(p != 0);"
    echo "  *p = 1;"
    echo "}"
    echo "int main() {"
    [ "$2" = host ] && echo "  assert(1 + 1 == 2);"
    echo "  return 0;"
    echo "}"
  } >"$work/assert_$2.cu"
}
for where in kernel host; do
  assert_use "" $where
  if (cd "$work" && "$cuemu" -arch=sm_90 -c -o assert_$where.o assert_$where.cu) >"$work/assert_$where.log" 2>&1; then
    fail "assert() in $where code without <cassert>: accepted; nvcc refuses it"
  elif grep -q "'assert' was not declared\|‘assert’ was not declared" "$work/assert_$where.log"; then
    echo "PASS: assert() in $where code without <cassert>: refused, as by nvcc"
  else
    fail "assert() in $where code without <cassert>: refused for another reason:"
    sed 's/^/  | /' "$work/assert_$where.log" | head -10
  fi
  assert_use "#include <cassert>" $where
  step "assert_$where" "$cuemu" -arch=sm_90 -c -o assert_$where.o assert_$where.cu &&
    echo "PASS: assert() in $where code with <cassert>: accepted"
done

rm -rf "$work"
exit $failed
