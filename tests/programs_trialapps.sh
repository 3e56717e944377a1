#!/bin/sh
# programs_trialapps.sh: programs of tests/programs/trialapps, each reduced
# from a failure of small application projects (a path tracer, SPH, graph
# analytics, an image pipeline, N-body, an MLP trainer, a CG solver,
# Mandelbrot with dynamic parallelism, a stream pipeline, a CMake library)
# built with their own Makefiles or CMake and cuemu-nvcc. Then the
# initcheck program's buggy form (a cuRAND state copied that nothing set,
# its argument `unset`) must still be reported.
# The programs of the folder are built as two programs (PROGRAMS_COMBINE,
# programs.sh): the three initcheck programs, all with --check=init,race,mem,
# and the two that include CUB (compiled by clang++); the buggy form runs
# the first build again (PROGRAMS_KEEP). Five builds and one of the buggy
# form's -DUNSET_STATE before: 31 s of CPU.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
work=$(cd "$builddir" && pwd)/tests/tmp/programs_trialapps.$$
mkdir -p "$work" || exit 1
# half_shared_initcheck.cu is about initcheck's check of shared memory,
# which is off by default.
CUEMU_CHECK_SHARED_INIT=1 PROGRAMS_COMBINE=1 PROGRAMS_KEEP=$work/programs \
  sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialapps"
status=$?

failed=0
if [ -x "$work/programs/curand_state_copy_initcheck" ]; then
  if (cd "$work" && CUEMU_QUIET=0 ./programs/curand_state_copy_initcheck \
    unset) >"$work/unset.out" 2>&1; then
    fail "a copy of a cuRAND state that nothing set is not reported"
  elif grep -q "initcheck: read of uninitialised global memory" \
    "$work/unset.out"; then
    echo "PASS: a copy of a cuRAND state that nothing set is reported"
  else
    fail "the unset cuRAND state: $(head -5 "$work/unset.out")"
  fi
else
  fail "curand_state_copy_initcheck.cu: programs.sh did not build it"
fi
rm -rf "$work"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
