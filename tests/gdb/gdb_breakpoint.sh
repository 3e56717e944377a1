#!/bin/sh
# gdb_breakpoint.sh: a conditional breakpoint on thread 5 of block 2 stops
# there once, with the right threadIdx and blockIdx; locals and shared
# memory print; `finish` out of a __device__ function gives its value; the
# program then runs to its end with the right sums. A condition on gridDim,
# which no code names, and dynamic shared memory work too; and the first
# breakpoint through `cuemu-run -g`.
name=gdb_breakpoint
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/gdb/gdb_lib.sh"

build gdb_reduce
load=$(line gdb_reduce load)
pair=$(line gdb_reduce pair_sum)
tree=$(line gdb_reduce tree_step)

run_gdb out \
  -ex "break gdb_reduce.cu:$load if threadIdx.x == 5 && blockIdx.x == 2" \
  -ex run \
  -ex 'print threadIdx' -ex 'print blockIdx' -ex 'print tid' \
  -ex next -ex next \
  -ex 'print sdata[5]' -ex 'print sdata[3]' -ex 'print mine' \
  -ex 'break pair_sum if threadIdx.x == 5 && blockIdx.x == 2' \
  -ex continue \
  -ex 'print threadIdx' -ex 'print stride' \
  -ex finish \
  -ex delete -ex continue \
  "$work/gdb_reduce"

expect out "stops at the conditional breakpoint" \
  "^Breakpoint 1, block_sum \(.*gdb_reduce\.cu:$load\$"
n=$(grep -c "^Breakpoint 1, " "$work/out")
[ "$n" -eq 1 ] || note_failure out "breakpoint 1 stopped $n times, not once"
expect out "print threadIdx" '^\$1 = \{x = 5, y = 0, z = 0\}$'
expect out "print blockIdx" '^\$2 = \{x = 2, y = 0, z = 0\}$'
expect out "print tid (a local)" '^\$3 = 5$'
expect out "print sdata[5] (its own store)" '^\$4 = 370$'
expect out "print sdata[3] (thread 3's store, before the barrier)" \
  '^\$5 = 350$'
expect out "print mine" '^\$6 = 370$'
expect out "stops in pair_sum" \
  "^Breakpoint 2, pair_sum \(s=0x[0-9a-f]+, i=5, stride=8\) at .*gdb_reduce\.cu:$pair\$"
expect out "threadIdx in pair_sum" '^\$7 = \{x = 5, y = 0, z = 0\}$'
expect out "finish returns to the tree step" \
  "in block_sum \(.*gdb_reduce\.cu:$tree\$"
expect out "finish gives the value" '^Value returned is \$[0-9]+ = 820$'
expect out "the program's sums are right" '^gdb_reduce: ok$'
expect out "the program exits normally" 'exited normally'
reject out "no Python errors" 'Python Exception|Error occurred in Python'

# A condition set before libcuemu is loaded may name a built-in variable
# that no code of the program names (gridDim); dynamic shared memory
# (extern __shared__, a reference to an array after cuemu-cc's rewriting) prints.
rot=$(line gdb_reduce rotate)
run_gdb rotate \
  -ex "break gdb_reduce.cu:$rot if threadIdx.x == 5 && blockIdx.x == 1 && gridDim.x == 2" \
  -ex run -ex 'print threadIdx' -ex 'print blockIdx' -ex 'print ring[6]' \
  -ex 'print *ring@4' -ex 'print gridDim' -ex delete -ex continue \
  "$work/gdb_reduce"
expect rotate "stops in rotate" \
  "^Breakpoint 1, rotate \(.*gdb_reduce\.cu:$rot\$"
expect rotate "print threadIdx" '^\$1 = \{x = 5, y = 0, z = 0\}$'
expect rotate "print blockIdx" '^\$2 = \{x = 1, y = 0, z = 0\}$'
expect rotate "an element of dynamic shared memory" '^\$3 = 18$'
expect rotate "a slice of dynamic shared memory" '^\$4 = \{0, 3, 6, 9\}$'
expect rotate "print gridDim" '^\$5 = \{x = 2, y = 1, z = 1\}$'
expect rotate "the program's results are right" '^gdb_reduce: ok$'
reject rotate "no errors" 'No symbol|Python Exception'

# The same breakpoint through `cuemu-run -g`, which compiles the program and
# replaces itself with it: gdb follows the exec. libtool runs the real
# cuemu-run of the build tree rather than its wrapper script.
after=$(line gdb_reduce after_barrier)
CUEMU_GDB_DIR=$srcdir/emulator/gdb CUEMU_WORKERS=1 GDB=$gdb_cmd \
  timeout 120 "$builddir/libtool" --mode=execute "$builddir/cuemu-gdb" \
  -batch -nx -ex 'set breakpoint pending on' \
  -ex "break gdb_reduce.cu:$after if threadIdx.x == 5 && blockIdx.x == 2" \
  -ex run -ex 'print threadIdx' -ex 'print tid' -ex delete -ex continue \
  --args "$builddir/cuemu-run" -g "$srcdir/tests/gdb/gdb_reduce.cu" \
  >"$work/run" 2>&1
expect run "cuemu-run -g: stops at the breakpoint" \
  "^Breakpoint 1, block_sum \(.*gdb_reduce\.cu:$after\$"
expect run "cuemu-run -g: print threadIdx" '^\$1 = \{x = 5, y = 0, z = 0\}$'
expect run "cuemu-run -g: a local (built -O0)" '^\$2 = 5$'
expect run "cuemu-run -g: the program's sums are right" '^gdb_reduce: ok$'
# nvcc -G makes device code unoptimised whatever -O says (its -O is the host
# code's level): CMake's Release build of a target with -G (`-O3 -DNDEBUG
# ... -G -g`) must still show a kernel's locals, not `<optimized out>`.
if ! "$builddir/cuemu-nvcc" -O3 -G -g "$srcdir/tests/gdb/gdb_reduce.cu" \
  -o "$work/gdb_reduce_o3" >"$work/build-o3.log" 2>&1; then
  cat "$work/build-o3.log"
  note_failure build-o3.log "gdb_reduce.cu did not build with cuemu-nvcc -O3 -G"
fi
run_gdb o3 \
  -ex "break gdb_reduce.cu:$after if threadIdx.x == 5 && blockIdx.x == 2" \
  -ex run -ex 'print tid' -ex 'print after' -ex delete -ex continue \
  "$work/gdb_reduce_o3"
expect o3 "-O3 -G: stops at the breakpoint" \
  "^Breakpoint 1, block_sum \(.*gdb_reduce\.cu:$after\$"
expect o3 "-O3 -G: a local prints" '^\$1 = 5$'
reject o3 "-O3 -G: no local optimised out" 'optimized out'
expect o3 "-O3 -G: the program's sums are right" '^gdb_reduce: ok$'
finish
