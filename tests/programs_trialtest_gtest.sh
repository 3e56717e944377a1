#!/bin/sh
# programs_trialtest_gtest.sh: a project of the trial of unit-test frameworks
# (tests/programs_trialtest.sh): the CMake project
# tests/programs/trialtest/gtest_project, built with
# CMAKE_CUDA_COMPILER=cuemu-nvcc: GoogleTest (Debian's libgtest-dev) typed,
# parameterized and death tests over kernels, a fixture that resets the
# device, a header-only kernel library and separable device code,
# gtest_discover_tests (which runs the test program at build time) and
# ctest -j2. Without cmake or GoogleTest it is skipped with a note
# (CI=true: set-up installs them, so it fails).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
work=$builddir/tests/tmp/programs_trialtest_gtest.$$
failed=0
mkdir -p "$work" || exit 1
if ! command -v cmake >/dev/null 2>&1; then
  missing="cmake"
elif ! pkg-config --exists gtest gmock 2>/dev/null; then
  missing="GoogleTest (libgtest-dev)"
else
  missing=""
fi
if [ -n "$missing" ]; then
  [ "${CI:-}" = true ] && fail "no $missing (CI=true: set-up installs it)"
  echo "programs_trialtest_gtest.sh: no $missing: the GoogleTest project is skipped"
else
  project=$srcdir/tests/programs/trialtest/gtest_project
  step gtest-configure cmake -S "$project" -B gtest \
    "-DCMAKE_CUDA_COMPILER=$builddir/cuemu-nvcc" &&
    step gtest-build cmake --build gtest -j2 &&
    step gtest-ctest sh -c 'cd gtest && ctest -j2 --output-on-failure' &&
    if grep -q "100% tests passed, 0 tests failed out of 2[0-9]" \
      "$work/gtest-ctest.log"; then
      echo "PASS: a GoogleTest project: $(sed -n 's/.*out of \([0-9]*\)$/\1/p' \
        "$work/gtest-ctest.log") tests discovered, passed with ctest -j2"
    else
      fail "the GoogleTest project ran too few tests:"
      tail -5 "$work/gtest-ctest.log"
    fi
fi
rm -rf "$work"
[ "$failed" -eq 0 ]
