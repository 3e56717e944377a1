#!/bin/sh
# Thread loops with and without the blocked-thread test (tests/programs/saxpy).
# Runs the folder's programs (programs.sh), then rebuilds
# blocked_test_kept.cu (a cache hit) and checks two things of it:
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
#   threadIdx.x` folds (cuemu_kernel_thunks.h, run_threads): its thunk
#   sign-extends an index at most twice (movslq and the like), once to widen
#   the global index before that loop and once in the general loop's copy of
#   the kernel (2-D and 3-D blocks, grids of 2^31 threads and more). The
#   loop over threadIdx.x that it replaced did it once per unrolled copy of
#   the kernel, 8 times, and per thread. Checked with the same compiler.

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

for schedule in reverse random:7; do
  if CUEMU_SCHEDULE=$schedule "$prog" >"$work/run.out" 2>&1 &&
    grep -qx PASS "$work/run.out"; then
    echo "PASS: blocked_test_kept with CUEMU_SCHEDULE=$schedule"
  else
    fail "blocked_test_kept with CUEMU_SCHEDULE=$schedule: $(head -5 "$work/run.out")"
  fi
done

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
elif ! command -v objdump >/dev/null 2>&1; then
  tool_missing programs_saxpy.sh "objdump is not installed"
else
  objdump -d -C --no-show-raw-insn "$prog" >"$work/dis" 2>&1 ||
    fail "objdump -d $prog failed: $(head -3 "$work/dis")"
  # reads KERNEL: how many instructions of KERNEL's first thunk name
  # cuemu_thread_detached (empty when there is no such thunk).
  reads() {
    awk -v k="&($1(" '
      /^[0-9a-f]+ </ {
        if (on) exit
        on = index($0, "cuemu::thunk<") && index($0, k)
        if (on) n = 0
        next
      }
      on && /cuemu_thread_detached/ { n++ }
      END { if (n != "") print n }' "$work/dis"
  }
  n=$(reads no_barrier)
  if [ "$n" = 0 ]; then
    echo "PASS: the detached pass: no_barrier's thunk does not read cuemu_thread_detached"
  else
    fail "the detached pass: no_barrier's thunk reads cuemu_thread_detached '${n:-no thunk found}' times"
  fi
  n=$(awk -v k="&(saxpy_int_index(" '
    /^[0-9a-f]+ </ {
      if (on) exit
      on = index($0, "cuemu::thunk<") && index($0, k)
      if (on) n = 0
      next
    }
    on && /\t(movslq|movsxd|cltq|cdqe)( |$)/ { n++ }
    END { if (n != "") print n }' "$work/dis")
  if [ -n "$n" ] && [ "$n" -le 2 ]; then
    echo "PASS: the loop over global indices: saxpy_int_index's thunk sign-extends $n times"
  else
    fail "the loop over global indices: saxpy_int_index's thunk sign-extends '${n:-no thunk found}' times (at most 2 expected)"
  fi
  for kernel in barrier_in_call heap_copy; do
    n=$(reads $kernel)
    if [ -n "$n" ] && [ "$n" -gt 0 ]; then
      echo "PASS: the detached pass: $kernel's thunk still reads cuemu_thread_detached"
    else
      fail "the detached pass: $kernel's thunk reads cuemu_thread_detached '${n:-no thunk found}' times"
    fi
  done
fi
rm -rf "$work"
[ "$failed" -eq 0 ]
