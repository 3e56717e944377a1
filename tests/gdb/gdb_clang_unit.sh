#!/bin/sh
# gdb_clang_unit.sh: a unit that includes Thrust is compiled by clang++,
# which describes no external variable in its debugging information; a
# conditional breakpoint on threadIdx set before `run` (before libcuemu is
# loaded) must still be set, stop once on the right thread, and print a
# thrust::complex amplitude (cuemu_debug_vars.c).
name=gdb_clang_unit
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/gdb/gdb_lib.sh"

build gdb_thrust_unit
scale=$(line gdb_thrust_unit scale)

run_gdb out \
  -ex "break gdb_thrust_unit.cu:$scale if threadIdx.x == 5 && blockIdx.x == 1" \
  -ex run -ex 'print threadIdx' -ex 'print blockIdx' -ex 'print i' \
  -ex 'print a' -ex delete -ex continue \
  "$work/gdb_thrust_unit"

reject out "the condition parses before run" 'No symbol "threadIdx"'
expect out "stops at the conditional breakpoint" \
  "^Breakpoint 1, scale \(.*gdb_thrust_unit\.cu:$scale\$"
n=$(grep -c "^Breakpoint 1, " "$work/out")
[ "$n" -eq 1 ] || note_failure out "breakpoint 1 stopped $n times, not once"
expect out "print threadIdx" '^\$1 = \{x = 5, y = 0, z = 0\}$'
expect out "print blockIdx" '^\$2 = \{x = 1, y = 0, z = 0\}$'
expect out "print i" '^\$3 = 37$'
expect out "print an amplitude" '37, .*-37'
expect out "the program's results are right" '^gdb_thrust_unit: ok$'
finish
