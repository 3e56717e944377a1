#!/bin/sh
# checkers_mem_clang.sh: the memcheck and initcheck programs of tests/buggy/
# (those whose CHECK line is `mem` or `init`, as tests/checkers.sh runs
# them) built with -ccbin clang++, as cuemu-cc builds every unit that
# includes Thrust or CUB: each is reported with the class, the thread, the
# offset and the line of a g++ build. clang++ merged a float4's load into
# its copy (mem_oob_wide_read, init_wide_partial: cuemu's LLVM plugin makes
# such copies member by member, emulator/compile/cuemu_llvm_plugin_copies.cc)
# and leaves the walk of a tensor map a call (mem_oob_tma_store: the report
# takes the first caller in the user's code, cuemu__check_line_here()).
# Then tests/programs/checkers/stack_below_allocation.cu, built with
# clang++ too, must pass. Skipped where there is no clang++ or configure
# built no LLVM plugin (no llvm-dev). Run by `make check` with
# AM_TESTS_ENVIRONMENT.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
command -v clang++ >/dev/null 2>&1 ||
  tool_missing checkers_mem_clang.sh "clang++ not found"
[ -f "${CUEMU_LIB_DIR:-$builddir/.libs}/cuemu_llvm_plugin.so" ] ||
  tool_missing checkers_mem_clang.sh "no cuemu_llvm_plugin.so (configure found no LLVM headers for clang++)"
CHECKERS_OPTIONS="-ccbin clang++" CHECKERS_CHECK="mem init" \
  sh "$srcdir/tests/checkers.sh" || exit 1

work=$builddir/tests/tmp/checkers_mem_clang.$$
mkdir -p "$work" || exit 1
program=$srcdir/tests/programs/checkers/stack_below_allocation.cu
if "$builddir/cuemu-cc" --check=mem -ccbin clang++ "$program" -o "$work/stack" \
    >"$work/build" 2>&1 &&
    env CUEMU_QUIET=0 "$work/stack" >"$work/out" 2>&1 </dev/null &&
    grep -qx PASS "$work/out"; then
  echo "PASS: stack_below_allocation (clang++)"
  rm -rf "$work"
  exit 0
fi
echo "FAIL: stack_below_allocation (clang++):"
cat "$work/build" "$work/out" 2>/dev/null
rm -rf "$work"
exit 1
