#!/bin/sh
# checkers_shared_init.sh: initcheck checks global memory only by default,
# as compute-sanitizer's does, and shared memory too with
# CUEMU_CHECK_SHARED_INIT=1. tests/programs/checkers_shared_init/
# dropped_lanes.cu is a correct program that reads unwritten shared bytes
# and drops their values (a block scan's 32-entry carry array that 16 warps
# filled, a funnel shift's masked-off bytes): no report by default, both
# reads reported with the opt-in. Built twice: with initcheck alone (shared
# memory keeps no cells then, and kernel code decides its accesses inline)
# and with every checker (racecheck's cells are there, initcheck must
# still leave shared memory alone).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-cc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing checkers_shared_init.sh "$cc is not built"

work=$builddir/tests/tmp/checkers_shared_init.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
fail() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}

source=$srcdir/tests/programs/checkers_shared_init/dropped_lanes.cu
for checks in init all; do
  program=$work/dropped_lanes_$checks
  if ! "$cc" --check=$checks "$source" -o "$program" >"$work/build" 2>&1; then
    cat "$work/build"
    fail "cuemu-cc --check=$checks dropped_lanes.cu"
    continue
  fi
  # CUEMU_CHECK_SHARED_INIT is unset by default, whatever make's
  # environment says.
  env -u CUEMU_CHECK_SHARED_INIT CUEMU_QUIET=0 CUEMU_WORKERS=1 timeout 60 \
    "$program" >"$work/default.out" 2>&1
  status=$?
  if [ $status -ne 0 ] || ! grep -qx PASS "$work/default.out" ||
      grep -qE "(racecheck|memcheck|initcheck|synccheck): " \
        "$work/default.out"; then
    fail "--check=$checks, by default: exit status $status, wanted 0, PASS and no checker's report; its output:"
    cat "$work/default.out"
  else
    echo "PASS: --check=$checks: no initcheck report by default"
  fi
  env CUEMU_CHECK_SHARED_INIT=1 CUEMU_QUIET=0 CUEMU_WORKERS=1 timeout 60 \
    "$program" >"$work/shared.out" 2>&1
  status=$?
  problems=
  [ $status -eq 1 ] || problems="$problems; exit status $status, wanted 1"
  grep -qx PASS "$work/shared.out" || problems="$problems; no PASS"
  grep -q "kernel block_scan: initcheck: read of uninitialised shared memory carry+.* at .*dropped_lanes.cu:33" \
    "$work/shared.out" || problems="$problems; no report of carry at line 33"
  grep -q "kernel byte_pairs: initcheck: read of uninitialised shared memory words+.* at .*dropped_lanes.cu:58" \
    "$work/shared.out" || problems="$problems; no report of words at line 58"
  if grep -qE "(racecheck|memcheck|synccheck): " "$work/shared.out"; then
    problems="$problems; a report of another checker"
  fi
  if [ -n "$problems" ]; then
    fail "--check=$checks, CUEMU_CHECK_SHARED_INIT=1:${problems#;}; its output:"
    cat "$work/shared.out"
  else
    echo "PASS: --check=$checks: CUEMU_CHECK_SHARED_INIT=1 reports both reads"
  fi
done
exit $((failed != 0))
