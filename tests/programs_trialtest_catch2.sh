#!/bin/sh
# programs_trialtest_catch2.sh: a project of the trial of unit-test
# frameworks (tests/programs_trialtest.sh), built with cuemu-nvcc: the CMake
# project tests/programs/trialtest/catch2_project (Catch2 v2, Debian's
# catch2: SECTIONs, GENERATE and TEMPLATE_TEST_CASE around kernels,
# catch_discover_tests, ctest -j2). Without cmake or Catch2 it is skipped
# with a note (CI=true: set-up installs them, so it fails).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
work=$builddir/tests/tmp/programs_trialtest_catch2.$$
failed=0
mkdir -p "$work" || exit 1
# Prints a note (a failure where CI=true) for a missing tool; returns 1.
absent() {
  [ "${CI:-}" = true ] && fail "no $1 (CI=true: set-up installs it)"
  echo "programs_trialtest_catch2.sh: no $1: $2 is skipped"
  return 1
}
if ! command -v cmake >/dev/null 2>&1; then
  absent cmake "the Catch2 project"
elif ! pkg-config --exists catch2 2>/dev/null; then
  absent "Catch2 (catch2)" "the Catch2 project"
else
  project=$srcdir/tests/programs/trialtest/catch2_project
  step catch2-configure cmake -S "$project" -B catch2 \
    "-DCMAKE_CUDA_COMPILER=$builddir/cuemu-nvcc" &&
    step catch2-build cmake --build catch2 -j2 &&
    step catch2-ctest sh -c 'cd catch2 && ctest -j2 --output-on-failure' &&
    if grep -q "100% tests passed, 0 tests failed out of 5" \
      "$work/catch2-ctest.log"; then
      echo "PASS: a Catch2 project: 5 test cases discovered and passed with ctest -j2"
    else
      fail "the Catch2 project:"
      tail -5 "$work/catch2-ctest.log"
    fi
fi
rm -rf "$work"
[ "$failed" -eq 0 ]
