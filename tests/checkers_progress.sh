#!/bin/sh
# checkers_progress.sh: racecheck of a persistent kernel whose blocks wait
# for each other (tests/programs/progress/grid_barrier_persistent.cu). With
# CUEMU_WORKERS=1 the launch's one worker updates racecheck's cells without
# their locks until its blocks spin and cuemu_progress starts more workers,
# each of which takes that right back before it runs a block
# (docs/checkers.md, "Cost"); with the default workers the second worker
# does so at once. Either way the program must pass, end (no hang: timeout),
# and get no report. Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-cc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing checkers_progress.sh "$cc is not built"

work=$builddir/tests/tmp/checkers_progress.$$
mkdir -p "$work" || exit 1
name=grid_barrier_persistent
if ! "$cc" --check=race "$srcdir/tests/programs/progress/$name.cu" \
    -o "$work/$name" >"$work/build" 2>&1; then
  echo "FAIL: cuemu-cc --check=race $name.cu:"
  cat "$work/build"
  exit 1
fi
failed=0
for workers in 1 default; do
  if [ "$workers" = default ]; then
    env CUEMU_QUIET=0 timeout 120 "$work/$name" >"$work/out" 2>&1
  else
    env CUEMU_QUIET=0 CUEMU_WORKERS=$workers timeout 120 "$work/$name" \
      >"$work/out" 2>&1
  fi
  status=$?
  if [ $status -ne 0 ] || ! grep -qx PASS "$work/out" ||
      grep -q 'racecheck:' "$work/out"; then
    echo "FAIL: $name (workers: $workers, exit $status):"
    cat "$work/out"
    failed=$((failed + 1))
  else
    echo "PASS: $name (workers: $workers)"
  fi
done
rm -rf "$work"
[ $failed -eq 0 ]
