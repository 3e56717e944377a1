#!/bin/sh
# progress_not_resident.sh: a kernel whose blocks spin at a software grid
# barrier for one block more than the device holds at once
# (tests/programs/progress/not_resident/not_resident_barrier.cu) hangs on a
# GPU; cuemu ends it within seconds with an error that names the kernel,
# the spinning block and thread, the source line of the spin and the
# residency limit (SM count x blocks per SM), with one worker and with
# several, and with the smallest thread stacks. CUEMU_TIMEOUT is only a
# safety net here: the watchdog's exit status 124 fails the test.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing progress_not_resident.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/progress_not_resident.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/programs/progress/not_resident/not_resident_barrier.cu
spin_line=$(grep -n 'while (\*count < gridDim.x)' "$src" | cut -d: -f1)

if ! "$nvcc" -o "$work/not_resident" "$src" >"$work/build.log" 2>&1; then
  fail "not_resident_barrier.cu does not build: $(head -n 20 "$work/build.log")"
  rm -rf "$work"
  exit 1
fi

# The last case gives the kernel threads the smallest stacks allowed: the
# report (its source line from the debugging information) is built on the
# worker's own stack.
for workers in 1 2 4 2/16k; do
  stack=64k
  case $workers in */*) stack=${workers#*/} workers=${workers%/*} ;; esac
  start=$(date +%s)
  CUEMU_WORKERS=$workers CUEMU_TIMEOUT=60 CUEMU_QUIET=0 \
    CUEMU_STACK_SIZE=$stack \
    "$work/not_resident" >"$work/run$workers.log" 2>&1
  status=$?
  took=$(($(date +%s) - start))
  log=$work/run$workers.log
  if [ "$status" -eq 0 ] || [ "$status" -eq 124 ]; then
    fail "workers=$workers: exit status $status, expected a launch error: $(cat "$log")"
  elif ! grep -q 'kernel too_many_blocks.*block (.*thread (0,0,0).*cannot be resident' "$log"; then
    fail "workers=$workers: no clear report of a block that cannot be resident: $(cat "$log")"
  elif ! grep -q "not_resident_barrier.cu:$spin_line" "$log"; then
    fail "workers=$workers: the report does not name the spin at line $spin_line: $(cat "$log")"
  elif ! grep -q '8 SMs x 8 blocks' "$log"; then
    fail "workers=$workers: the report does not give the residency limit: $(cat "$log")"
  elif [ "$took" -gt 10 ]; then
    fail "workers=$workers: the report took $took s"
  else
    echo "PASS: workers=$workers, stacks of $stack: reported in $took s"
  fi
done
rm -rf "$work"
exit "$failed"
