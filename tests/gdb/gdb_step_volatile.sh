#!/bin/sh
# gdb_step_volatile.sh: `next` through a warp-synchronous volatile tail
# (tests/gdb/gdb_warp_tail.cu), whose volatile accesses wait for the other
# lanes of the warp (docs/warp-lockstep.md), stays in the same CUDA thread:
# from thread 5 of block 1, six steps visit the tail's next lines and the
# line after it, with threadIdx 5 and blockIdx 1 after each; the thread's
# own word holds its sum after the first step, `cuemu threads` shows the
# lanes that wait at a step, and the program's sums are
# the GPU's.
name=gdb_step_volatile
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/gdb/gdb_lib.sh"

build gdb_warp_tail
first=$(line gdb_warp_tail step32)
expected="$(line gdb_warp_tail step16) $(line gdb_warp_tail step8)"
expected="$expected $(line gdb_warp_tail step4) $(line gdb_warp_tail step2)"
expected="$expected $(line gdb_warp_tail step1) $(line gdb_warp_tail result)"

set -- -ex "break gdb_warp_tail.cu:$first if threadIdx.x == 5 && blockIdx.x == 1" \
  -ex run
for step in 1 2 3 4 5 6; do
  set -- "$@" -ex next \
    -ex 'printf "now thread %d block %d\n", threadIdx.x, blockIdx.x'
  # After the first step: lane 5's word is in[5] + in[37] of block 1, and
  # lanes 0-4 wait at the next line's first volatile access.
  [ "$step" -eq 1 ] && set -- "$@" -ex 'print v[t]' -ex 'cuemu threads'
done
set -- "$@" -ex delete -ex continue
run_gdb out "$@" "$work/gdb_warp_tail"

expect out "stops at the tail's first step" \
  "^Breakpoint 1, warp_tail_sum \(.*gdb_warp_tail\.cu:$first\$"
got=$(sed -n 's/^\([0-9][0-9]*\)	.*/\1/p' "$work/out" | tail -n 6 |
  tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$expected" ] ||
  note_failure out "stepped through lines [$got], expected [$expected]"
n=$(grep -c '^now thread 5 block 1$' "$work/out")
[ "$n" -eq 6 ] || note_failure out "$n of 6 steps ended in thread 5 of block 1"
reject out "no step ends in the emulator" \
  'cuemu_warp_step\.c|cuemu_block\.c|cuemu_context'
expect out "lane 5's word after its first step" '^\$1 = 170$'
expect out "cuemu threads shows the lanes waiting at a step" \
  "^  \(0,0,0\)\.\.\(4,0,0\) \[5\] +waiting +volatile access \(in lockstep with its warp\) at gdb_warp_tail\.cu:$(line gdb_warp_tail step16)\$"
expect out "the program's sums are right" '^gdb_warp_tail: ok$'
reject out "no Python errors" 'Python Exception|Error occurred in Python'
finish
