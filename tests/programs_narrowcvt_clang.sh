#!/bin/sh
# programs_narrowcvt_clang.sh: the programs of tests/programs/narrowcvt
# built with -ccbin clang++, whose device pass loads cuemu's LLVM plugin
# (emulator/compile/cuemu_llvm_plugin.cc): float and double to char and
# short convert as nvcc converts them, as with g++'s plugin
# (tests/programs_narrowcvt.sh). Skipped where there is no clang++ or
# configure built no LLVM plugin (no llvm-dev).
# Run by `make check` with AM_TESTS_ENVIRONMENT.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
command -v clang++ >/dev/null 2>&1 ||
  tool_missing programs_narrowcvt_clang.sh "clang++ not found"
[ -f "${CUEMU_LIB_DIR:-$builddir/.libs}/cuemu_llvm_plugin.so" ] ||
  tool_missing programs_narrowcvt_clang.sh "no cuemu_llvm_plugin.so (configure found no LLVM headers for clang++)"
PROGRAMS_OPTIONS="-ccbin clang++" \
  exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/narrowcvt"
