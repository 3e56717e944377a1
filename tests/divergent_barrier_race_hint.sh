#!/bin/sh
# divergent_barrier_race_hint.sh: thread 0 takes work items through a
# global atomicAdd and publishes each in a __shared__ variable that the
# other threads test with no barrier between their reads and its next store
# (tests/programs/trialhec6/published_item_race.cu, the form of HeCBench
# asta-cuda's in-place transposition). A GPU's timing usually lets every
# thread read first; cuemu runs thread 0 first, the threads disagree on a
# branch that holds a barrier, and the launch fails as a divergent barrier.
# The report must name both barriers' lines and say how to find the race
# (a build with --check=race) and how to run the threads in another order
# (CUEMU_SCHEDULE=reverse, with which the program must print PASS). With
# nvcc present, the program is checked to build with it. About 2 s of CPU.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing divergent_barrier_race_hint.sh "$nvcc is not built"
work=$builddir_abs/tests/tmp/divergent_barrier_race_hint.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
src=$srcdir/tests/programs/trialhec6/published_item_race.cu
skip=$(grep -n '// skip$' "$src" | cut -d: -f1)
count=$(grep -n '// count$' "$src" | cut -d: -f1)

if step build "$nvcc" -O2 -o race "$src"; then
  (cd "$work" && env CUEMU_QUIET=0 timeout 60 ./race) >"$work/run.out" 2>&1
  if grep -qF "divergent __syncthreads in block" "$work/run.out" &&
    grep -qF "published_item_race.cu:$skip" "$work/run.out" &&
    grep -qF "published_item_race.cu:$count" "$work/run.out" &&
    grep -qF "the program races, which a GPU's timing may hide: a build with --check=race (CUEMU_CC_CHECK=race) names the accesses; CUEMU_SCHEDULE=reverse runs the threads in another order" "$work/run.out"; then
    echo "PASS: the divergent barrier's report names both lines and how to find the race"
  else
    fail "the report does not say how to find the race; its output:"
    sed 's/^/  | /' "$work/run.out" | head -20
  fi
  (cd "$work" && env CUEMU_SCHEDULE=reverse timeout 60 ./race) >"$work/rev.out" 2>&1
  if grep -qx PASS "$work/rev.out"; then
    echo "PASS: with CUEMU_SCHEDULE=reverse the threads read first"
  else
    fail "CUEMU_SCHEDULE=reverse did not run it right:"
    sed 's/^/  | /' "$work/rev.out" | head -20
  fi
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  step nvcc-build nvcc_build divergent_barrier_race_hint.sh:race "$real" \
    -arch=sm_90 -o race.nv "$src" &&
    echo "PASS: nvcc builds it"
fi
exit $failed
