#!/bin/sh
# Thread loops with and without the blocked-thread test (tests/programs/saxpy).
# Runs the folder's programs (programs.sh), then rebuilds
# blocked_test_kept.cu (a cache hit) and checks three things of it:
# - every thread runs exactly once with the threads in reverse and in a
#   random order (CUEMU_SCHEDULE), not only forward;
# - the detached pass of cuemu's GCC plugin did its work: the thunk that
#   runs the barrier-free kernel no_barrier reads cuemu_thread_detached
#   nowhere, while the thunk of barrier_in_call (a barrier in a call that
#   is not inlined) still reads it. Without this check a pass that stopped
#   working would go unnoticed, since every thread still runs once. So
#   does the thunk of heap_copy (malloc and free, leaf built-ins of GCC
#   that the device pass renames to libcuemu's device heap). The
#   thunk that runs is the device pass's copy, the first of the program's
#   two (the host pass's copy comes later; launch_static calls it only for
#   a kernel that the device pass's table does not list). Skipped
#   when the device pass does not load the plugin: the plugin is not built,
#   or $CXX is not the g++ it was built for (clang++, a wrapper such as
#   ccache, another g++), as cuemu_gcc_plugin_find.c decides.
# - the thunk runs a 1-D block as a loop over the global index, a signed
#   int, into which saxpy_int_index's `int i = blockIdx.x * blockDim.x +
#   threadIdx.x` folds (cuemu_kernel_thunks.h, run_threads): that loop of
#   its thunk (unrolled, so the smallest loop with several copies of the
#   kernel) sign-extends no index (movslq and the like); the loop over
#   threadIdx.x that it replaced did it once per unrolled copy, per thread.
#   Checked for x86-64 machine code from g++ only (clang++ does not fold the
#   index), whether or not the plugin loads; else skipped.
# - the same program built with clang++ (cuemu's LLVM plugin): every thread
#   runs once in reverse and random orders, and the detached pass's
#   counterpart (cuemu_llvm_plugin_detached.cc) did its work on
#   saxpy_int_index and kept the test of barrier_in_call and heap_copy;
#   skipped where the LLVM plugin is not built.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/saxpy"
failed=$?
[ "$failed" -eq 77 ] && exit 77

. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
work=$builddir_abs/tests/tmp/programs_saxpy.$$
mkdir -p "$work" || exit 1
prog=$work/blocked_test_kept
if ! (cd "$srcdir/tests/programs/saxpy" &&
  "$nvcc" blocked_test_kept.cu -o "$prog") >"$work/build.log" 2>&1; then
  fail "blocked_test_kept: cuemu-nvcc failed: $(head -5 "$work/build.log")"
  rm -rf "$work"
  exit 1
fi

# schedules LABEL: $prog passes in reverse and random orders.
schedules() {
  for schedule in reverse random:7; do
    if CUEMU_SCHEDULE=$schedule "$prog" >"$work/run.out" 2>&1 &&
      grep -qx PASS "$work/run.out"; then
      echo "PASS: $1 with CUEMU_SCHEDULE=$schedule"
    else
      fail "$1 with CUEMU_SCHEDULE=$schedule: $(head -5 "$work/run.out")"
    fi
  done
}
schedules blocked_test_kept

if ! command -v objdump >/dev/null 2>&1; then
  tool_missing programs_saxpy.sh "objdump is not installed"
  rm -rf "$work"
  [ "$failed" -eq 0 ]
  exit
fi
objdump -d -C --no-show-raw-insn "$prog" >"$work/dis" 2>&1 ||
  fail "objdump -d $prog failed: $(head -3 "$work/dis")"
# thunk KERNEL: the instructions of KERNEL's first thunk, the device pass's
# copy; fails when there is no such thunk.
thunk() {
  awk -v k="&($1(" '
    /^[0-9a-f]+ </ {
      if (on) exit
      on = index($0, "cuemu::thunk<") && index($0, k)
      if (on) found = 1
      next
    }
    on && /^ *[0-9a-f]+:/
    END { exit !found }' "$work/dis"
}
# count KERNEL PATTERN: how many instructions of KERNEL's thunk match the
# awk pattern PATTERN (empty when there is no such thunk).
count() {
  thunk "$1" >"$work/thunk" && grep -c -e "$2" "$work/thunk"
}
reads() { count "$1" cuemu_thread_detached; }
# detached LABEL FREE: the thunk of the barrier-free kernel FREE reads
# cuemu_thread_detached nowhere, those of barrier_in_call and heap_copy
# still do.
detached() {
  n=$(reads "$2")
  if [ "$n" = 0 ]; then
    echo "PASS: $1: $2's thunk does not read cuemu_thread_detached"
  else
    fail "$1: $2's thunk reads cuemu_thread_detached '${n:-no thunk found}' times"
  fi
  for kernel in barrier_in_call heap_copy; do
    n=$(reads $kernel)
    if [ -n "$n" ] && [ "$n" -gt 0 ]; then
      echo "PASS: $1: $kernel's thunk still reads cuemu_thread_detached"
    else
      fail "$1: $kernel's thunk reads cuemu_thread_detached '${n:-no thunk found}' times"
    fi
  done
}
# The sign extensions of an index (movslq and the like, as objdump spells
# x86-64's) inside the loop over global indices of saxpy_int_index's thunk:
# the smallest loop that holds two copies of the kernel (its mulss) or more,
# since run_threads unrolls that loop 4 times and not the general one. A
# loop is the range from a backward branch's target to the branch. Prints
# "EXTENSIONS COPIES" of that loop ("none 0" when the thunk has no such
# loop), nothing when there is no such thunk. Counting in that loop only
# measures what the loop changed (no extension per thread), whatever the
# compiler's extensions outside it, once per call.
loop_extensions() {
  thunk saxpy_int_index >"$work/thunk" || return 0
  awk '
    function hex(s,  i, v) {
      v = 0
      for (i = 1; i <= length(s); i++)
        v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return v
    }
    {
      a = hex(substr($1, 1, length($1) - 1)); addr[++m] = a
      ext[m] = $0 ~ /\t(movslq|movsxd|cltq|cdqe)( |$)/
      copy[m] = $0 ~ /\tmulss /
      if ($2 ~ /^j/ && $3 ~ /^[0-9a-f]+$/ && hex($3) < a) {
        from[++l] = hex($3); to[l] = a
      }
    }
    END {
      best = -1
      for (j = 1; j <= l; j++) {
        e = c = 0
        for (i = 1; i <= m; i++)
          if (addr[i] >= from[j] && addr[i] <= to[j]) { e += ext[i]; c += copy[i] }
        if (c >= 2 && (best < 0 || to[j] - from[j] < to[best] - from[best])) {
          best = j; be = e; bc = c
        }
      }
      print (best < 0 ? "none 0" : be " " bc)
    }' "$work/thunk"
}

# The loop over global indices (x86-64 machine code from g++, which folds
# the kernel's index into it; clang++ does not, bench/RESULTS.md "saxpy3").
# The compiler that cuemu-nvcc runs is $CXX (words: a wrapper and its
# compiler), else c++.
# shellcheck disable=SC2086
set -- ${CXX:-c++}
macros=$("$@" -dM -E -x c++ /dev/null 2>/dev/null)
if ! objdump -f "$prog" | grep -q 'architecture: .*x86-64'; then
  echo "SKIP: the loop over global indices: objdump -f does not report x86-64 for blocked_test_kept"
elif ! printf '%s\n' "$macros" | grep -q __GNUC__ ||
  printf '%s\n' "$macros" | grep -q __clang__; then
  echo "SKIP: the loop over global indices: the compiler ($*) is not g++"
else
  compiler=$("$@" --version 2>/dev/null | head -1)
  # shellcheck disable=SC2046 # two numbers, or nothing
  set -- $(loop_extensions)
  if [ $# -eq 0 ]; then
    fail "the loop over global indices ($compiler): saxpy_int_index has no thunk"
  elif [ "$1" = none ]; then
    fail "the loop over global indices ($compiler): saxpy_int_index's thunk has no loop with 2 copies of the kernel or more (run_threads unrolls it 4 times)"
  elif [ "$1" -eq 0 ]; then
    echo "PASS: the loop over global indices: saxpy_int_index's thunk sign-extends no index in its loop ($2 copies of the kernel)"
  else
    fail "the loop over global indices ($compiler): saxpy_int_index's thunk sign-extends an index $1 times in its loop of $2 copies of the kernel (none expected)"
  fi
fi

# The plugin's g++, as configure found it (config.h), and the compiler that
# cuemu-nvcc runs: the first word of $CXX, else c++, by its real path.
plugin_cxx=$(sed -n 's/^#define CUEMU_GCC_PLUGIN_CXX "\(.*\)"$/\1/p' \
  "$builddir_abs/config.h" 2>/dev/null)
# shellcheck disable=SC2086 # $CXX is words (a wrapper and its compiler)
set -- ${CXX:-c++}
cxx=$(command -v "$1" 2>/dev/null) && cxx=$(readlink -f "$cxx")
if [ -z "$plugin_cxx" ] ||
  [ ! -f "${CUEMU_LIB_DIR:-$builddir_abs/.libs}/cuemu_gcc_plugin.so" ]; then
  echo "SKIP: the detached pass: cuemu's GCC plugin is not built"
elif [ "$cxx" != "$plugin_cxx" ]; then
  echo "SKIP: the detached pass: the compiler ($CXX) is not $plugin_cxx, for which the plugin was built"
else
  detached "the detached pass" no_barrier
fi

# The same with clang++ (cuemu's LLVM plugin, cuemu_llvm_plugin_detached.cc):
# every thread runs once in reverse and random orders, and the thunk of the
# barrier-free saxpy_int_index reads the flag nowhere while those of
# barrier_in_call and heap_copy still do. (no_barrier's sqrtf is a call of
# the C library, which may write errno, and keeps the test with clang++.)
plugin_clang=$(sed -n 's/^#define CUEMU_LLVM_PLUGIN_CLANG "\(.*\)"$/\1/p' \
  "$builddir_abs/config.h" 2>/dev/null)
if [ -z "$plugin_clang" ] ||
  [ ! -f "${CUEMU_LIB_DIR:-$builddir_abs/.libs}/cuemu_llvm_plugin.so" ]; then
  echo "SKIP: the detached pass with clang++: cuemu's LLVM plugin is not built"
elif ! (cd "$srcdir/tests/programs/saxpy" &&
  "$nvcc" --cxx clang++ blocked_test_kept.cu -o "$prog") >"$work/build.log" 2>&1; then
  fail "blocked_test_kept with clang++: cuemu-nvcc failed: $(head -5 "$work/build.log")"
else
  schedules "blocked_test_kept with clang++"
  objdump -d -C --no-show-raw-insn "$prog" >"$work/dis" 2>&1
  detached "the detached pass with clang++" saxpy_int_index
fi
rm -rf "$work"
[ "$failed" -eq 0 ]
