#!/bin/sh
# gdb_step_volatile_clang.sh: gdb_step_volatile.sh with the program built
# by clang++ (--cxx clang++), whose device pass gets the volatile steps from
# cuemu's LLVM plugin (emulator/compile/cuemu_llvm_plugin_lockstep.cc), as
# a unit that includes CUB or Thrust does: `next` stays in the CUDA
# thread, `cuemu threads` names the line where the other lanes wait, and
# the sums are the GPU's.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v clang++ >/dev/null 2>&1 || {
  echo "gdb_step_volatile_clang.sh: no clang++; skipped"
  exit 77
}
GDB_BUILD_OPTIONS="--cxx clang++" exec sh "$srcdir/tests/gdb/gdb_step_volatile.sh"
