#!/bin/sh
# checkers_cub.sh: the checkers understand what CUB does. The CUB program
# tests/programs/cub/cub_pipeline.cu (read-only ld.global.nc loads, block
# and warp collectives whose temporary storage shares one union, an inline
# `bar.sync 0` between two of them) is built with every checker: run as it
# is, it passes with no checker report (a bar.sync orders accesses as
# __syncthreads does; ld.global.nc reads are reads); run with `race`, which
# leaves out the __syncthreads before the storage is reused, racecheck
# reports the race. tests/programs/cub/cub_scan_initcheck.cu, built with
# `--check=init` alone and run with CUEMU_CHECK_SHARED_INIT=1: CUB's reads
# of its own shared storage that nothing wrote (lane 0 of the warp scan of a 30-thread raking scan) are not
# reported, its read of an input that nothing wrote is, at the user's line
# (the program's link dropped a 9 KB copy of main() whose line-number
# sequence, which GNU ld starts at 0, covered the kernel's code: addr2line
# named main()'s line 68 until cuemu_debug_line.c marked it; no sequence
# of the program starts at 0). Skipped (77) when cuemu-cc finds no CCCL
# (docs/cccl.md).
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
init_source=$srcdir/tests/programs/cub/cub_scan_initcheck.cu
if ! "$cc" --check=init "$init_source" -o "$work/init" >"$work/init_build" 2>&1; then
  echo "FAIL: cuemu-nvcc --check=init cub_scan_initcheck.cu:"
  cat "$work/init_build"
  exit 1
fi
# With initcheck's check of shared memory on (CUEMU_CHECK_SHARED_INIT=1; it
# is off by default), so that CUB's own reads are checked and left alone.
(cd "$work" && env CUEMU_QUIET=0 CUEMU_WORKERS=1 CUEMU_CHECK_SHARED_INIT=1 \
  timeout 300 ./init) >"$work/init_clean" 2>&1
status=$?
if grep -q 'initcheck: ' "$work/init_clean" || [ $status -ne 0 ] ||
   ! grep -qx PASS "$work/init_clean"; then
  echo "FAIL: cub_scan_initcheck under --check=init (exit $status):"
  cat "$work/init_clean"
  failed=1
else
  echo "PASS: CUB's reads of its own unwritten shared storage are not reported"
fi
(cd "$work" && env CUEMU_QUIET=0 CUEMU_WORKERS=1 timeout 300 ./init unwritten) >"$work/init_unwritten" 2>&1
if grep -q 'initcheck: read of uninitialised global memory.* at .*cub_scan_initcheck.cu:30$' \
     "$work/init_unwritten"; then
  echo "PASS: CUB's read of an unwritten input is reported at the user's line:"
  grep 'initcheck: ' "$work/init_unwritten" | head -n 1
else
  echo "FAIL: no initcheck report at cub_scan_initcheck.cu:30 for the unwritten input:"
  head -n 5 "$work/init_unwritten"
  failed=1
fi
if command -v objdump >/dev/null 2>&1; then
  zero=$(objdump --dwarf=rawline "$work/init" | grep 'set Address to 0$' | head -n 3)
  if [ -n "$zero" ]; then
    echo "FAIL: line-number sequences of dropped functions start at 0:"
    echo "$zero"
    failed=1
  fi
fi
exit $failed
