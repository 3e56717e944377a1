#!/bin/sh
# gdb_step_barrier.sh: `next` (and `step`) over __syncthreads() continue in
# the same CUDA thread: from thread 5 of block 2, sixteen steps through the
# first barrier and the four barriers of the tree must visit exactly the
# lines thread 5 runs, with threadIdx 5 and blockIdx 2 after each, although
# the other fifteen threads pass the same instructions in between.
name=gdb_step_barrier
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/gdb/gdb_lib.sh"

build gdb_reduce
first=$(line gdb_reduce first_barrier)
after=$(line gdb_reduce after_barrier)
tree=$(line gdb_reduce tree_step)
bar=$(line gdb_reduce tree_barrier)
loop=$((after + 1))
cond=$((tree - 1))
end=$(line gdb_reduce after_loop)

# Thread 5 takes the tree step only while the stride (8, 4, 2, 1) exceeds 5.
expected="$after $loop $cond $tree $bar $loop $cond $bar $loop $cond $bar"
expected="$expected $loop $cond $bar $loop $end"

set -- -ex "break gdb_reduce.cu:$first if threadIdx.x == 5 && blockIdx.x == 2" \
  -ex run
for step in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
  # The sixth leaves the tree's barrier: with `step` rather than `next`,
  # which must not enter the emulator either.
  if [ "$step" -eq 6 ]; then
    set -- "$@" -ex step
  else
    set -- "$@" -ex next
  fi
  set -- "$@" -ex 'printf "now thread %d block %d\n", threadIdx.x, blockIdx.x'
done
set -- "$@" -ex 'print tid' -ex delete -ex continue
run_gdb out "$@" "$work/gdb_reduce"

expect out "stops before the first barrier" \
  "^Breakpoint 1, block_sum \(.*gdb_reduce\.cu:$first\$"
got=$(sed -n 's/^\([0-9][0-9]*\)	.*/\1/p' "$work/out" | tail -n 16 |
  tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$expected" ] ||
  note_failure out "stepped through lines [$got], expected [$expected]"
n=$(grep -c '^now thread 5 block 2$' "$work/out")
[ "$n" -eq 16 ] ||
  note_failure out "$n of 16 steps ended in thread 5 of block 2"
reject out "no step ends in another thread" '^now thread ([0-46-9]|1[0-9])'
reject out "no step ends in the emulator" \
  'cuemu_block\.c|cuemu_sync\.h|cuemu_launch\.h|cuemu_context'
expect out "the thread's own local" '^\$1 = 5$'
expect out "the program's sums are right" '^gdb_reduce: ok$'
reject out "no Python errors" 'Python Exception|Error occurred in Python'
finish
