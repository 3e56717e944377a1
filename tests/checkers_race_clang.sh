#!/bin/sh
# checkers_race_clang.sh: the race programs of tests/buggy/ (those whose
# CHECK line is `race`, as tests/checkers.sh runs them) built with -ccbin
# clang++, as cuemu-cc builds every unit that includes Thrust or CUB: each
# race is reported with the class and the lines of a g++ build, the ones
# that clang++'s optimiser removed before the checkers' hooks too
# (race_shared_write_only, race_global_flag_plain_read: cuemu's LLVM
# plugin keeps them, emulator/compile/cuemu_llvm_plugin_race.cc), and a
# correct program of compare-and-swap loops reports nothing. Skipped
# where there is no clang++ or configure built no LLVM plugin (no
# llvm-dev). Run by `make check` with AM_TESTS_ENVIRONMENT.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
command -v clang++ >/dev/null 2>&1 ||
  tool_missing checkers_race_clang.sh "clang++ not found"
[ -f "${CUEMU_LIB_DIR:-$builddir/.libs}/cuemu_llvm_plugin.so" ] ||
  tool_missing checkers_race_clang.sh "no cuemu_llvm_plugin.so (configure found no LLVM headers for clang++)"
CHECKERS_OPTIONS="-ccbin clang++" CHECKERS_CHECK=race \
  sh "$srcdir/tests/checkers.sh" || exit 1

# Then tests/programs/checkers/cas_loop_early_exit.cu, built with clang++
# too, must pass with no report (a report makes its exit status 1): the
# LLVM plugin takes the first guess of its compare-and-swap loops for a
# relaxed atomic read, as the GCC plugin does.
work=$builddir/tests/tmp/checkers_race_clang.$$
mkdir -p "$work" || exit 1
failed=0
if step build "$builddir/cuemu-cc" --check=race -ccbin clang++ \
  "$srcdir/tests/programs/checkers/cas_loop_early_exit.cu" -o cas_loops; then
  passes "cas_loop_early_exit (clang++)" env CUEMU_QUIET=0 ./cas_loops
fi
rm -rf "$work"
[ "$failed" -eq 0 ]
