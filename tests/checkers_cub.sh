#!/bin/sh
# checkers_cub.sh: the checkers understand what CUB does. The CUB program
# tests/programs/cub/cub_pipeline.cu (read-only ld.global.nc loads, block
# and warp collectives whose temporary storage shares one union, an inline
# `bar.sync 0` between two of them) is built with every checker: run as it
# is, it passes with no checker report (a bar.sync orders accesses as
# __syncthreads does; ld.global.nc reads are reads); run with `race`, which
# leaves out the __syncthreads before the storage is reused, racecheck
# reports the race. Skipped (77) when cuemu-cc finds no CCCL (docs/cccl.md).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-nvcc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing checkers_cub.sh "$cc is not built"

work=$builddir/tests/tmp/checkers_cub.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT

source=$srcdir/tests/programs/cub/cub_pipeline.cu
if ! "$cc" --check=all "$source" -o "$work/prog" >"$work/build" 2>&1; then
  if grep -q 'cub/block/block_load.cuh.*No such file' "$work/build"; then
    echo "SKIP: checkers_cub.sh: no CCCL headers (see docs/cccl.md)"
    exit 77
  fi
  echo "FAIL: cuemu-nvcc --check=all cub_pipeline.cu:"
  cat "$work/build"
  exit 1
fi
failed=0

# Reports go to stderr; CUEMU_QUIET from make would hide them.
(cd "$work" && env CUEMU_QUIET=0 CUEMU_WORKERS=1 timeout 300 ./prog) >"$work/clean" 2>&1
status=$?
if grep -qE '(racecheck|memcheck|initcheck|synccheck): ' "$work/clean" ||
   [ $status -ne 0 ] || ! grep -qx PASS "$work/clean"; then
  echo "FAIL: cub_pipeline under --check=all (exit $status):"
  cat "$work/clean"
  failed=1
else
  echo "PASS: cub_pipeline has no checker report"
fi

(cd "$work" && env CUEMU_QUIET=0 CUEMU_WORKERS=1 timeout 300 ./prog race) >"$work/race" 2>&1
if grep -q 'racecheck: ' "$work/race" && grep -q 'cub_pipeline.cu' "$work/race"; then
  echo "PASS: the storage reused without a barrier is a race:"
  grep 'racecheck: ' "$work/race" | head -n 3
else
  echo "FAIL: no racecheck report for the storage reused without a barrier:"
  cat "$work/race"
  failed=1
fi
exit $failed
