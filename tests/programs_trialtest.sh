#!/bin/sh
# programs_trialtest.sh: from a trial of CUDA projects whose tests use a C++
# unit-test framework, as libraries ship them (the CMake projects:
# tests/programs_trialtest_gtest.sh and tests/programs_trialtest_catch2.sh).
# First the programs of tests/programs/trialtest: host code of a .cu file
# runs the host pass's copies of the templates of namespace std that the
# device pass instantiates too, under a replaced operator new
# (host_std_copies.cu) and under AddressSanitizer (asan_std_copies.cu).
# Then the plain Makefile project tests/programs/trialtest/make_project (a
# library made by nvcc -lib, a GoogleTest program with GoogleMock matchers,
# `make test`), built with NVCC=cuemu-nvcc; without make or GoogleTest it is
# skipped with a note (CI=true: set-up installs them, so it fails).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialtest"
status=$?

builddir=$(cd "$builddir" && pwd)
work=$builddir/tests/tmp/programs_trialtest.$$
failed=0
mkdir -p "$work" || exit 1
if ! command -v make >/dev/null 2>&1; then
  missing=make
elif ! pkg-config --exists gtest gmock 2>/dev/null; then
  missing="GoogleTest (libgtest-dev)"
else
  missing=""
  cp -R "$srcdir/tests/programs/trialtest/make_project" "$work/make" &&
    step make-build make -C make "NVCC=$builddir/cuemu-nvcc" &&
    step make-test make -C make "NVCC=$builddir/cuemu-nvcc" test &&
    if [ "$(grep -c 'PASSED.*8 tests' "$work/make-test.log")" -eq 2 ]; then
      echo "PASS: a Makefile project's make test (8 tests, shuffled, twice)"
    else
      fail "the Makefile project's make test:"
      tail -5 "$work/make-test.log"
    fi
fi
if [ -n "${missing:-}" ]; then
  [ "${CI:-}" = true ] && fail "no $missing (CI=true: set-up installs it)"
  echo "programs_trialtest.sh: no $missing: the Makefile project is skipped"
fi
rm -rf "$work"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
