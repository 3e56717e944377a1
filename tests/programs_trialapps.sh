#!/bin/sh
# programs_trialapps.sh: programs of tests/programs/trialapps, each reduced
# from a failure of small application projects (a path tracer, SPH, graph
# analytics, an image pipeline, N-body, an MLP trainer, a CG solver,
# Mandelbrot with dynamic parallelism, a stream pipeline, a CMake library)
# built with their own Makefiles or CMake and cuemu-nvcc. Then the
# initcheck program's buggy form (a cuRAND state copied that nothing set)
# must still be reported.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialapps"
status=$?

nvcc=$(cd "$builddir" && pwd)/cuemu-nvcc
work=$(cd "$builddir" && pwd)/tests/tmp/programs_trialapps.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/programs/trialapps/curand_state_copy_initcheck.cu
if step unset "$nvcc" -isystem /usr/local/cuda/include --check=init \
  -DUNSET_STATE -o unset "$src"; then
  if (cd "$work" && CUEMU_QUIET=0 ./unset) >"$work/unset.out" 2>&1; then
    fail "a copy of a cuRAND state that nothing set is not reported"
  elif grep -q "initcheck: read of uninitialised global memory" \
    "$work/unset.out"; then
    echo "PASS: a copy of a cuRAND state that nothing set is reported"
  else
    fail "the unset cuRAND state: $(head -5 "$work/unset.out")"
  fi
fi
rm -rf "$work"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
