#!/bin/sh
# gdb_thread_switch.sh: `cuemu thread X [Y Z]` shows a suspended thread's
# stack and locals, and switches back. Thread 5 of block 2 is stopped after
# the first barrier; thread 2 waits at the tree's barrier and thread 12 is
# released from the first one. Each must show its own threadIdx, locals and
# backtrace (ending cleanly at the context's entry); going back must give
# thread 5's again, and a program resumed while another thread is shown
# must still run correctly (the hooks put the registers back).
name=gdb_thread_switch
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/gdb/gdb_lib.sh"

build gdb_reduce
first=$(line gdb_reduce first_barrier)
after=$(line gdb_reduce after_barrier)
bar=$(line gdb_reduce tree_barrier)

run_gdb out \
  -ex "break gdb_reduce.cu:$after if threadIdx.x == 5 && blockIdx.x == 2" \
  -ex run \
  -ex 'echo ==two\n' -ex 'cuemu thread 2' -ex 'print threadIdx' \
  -ex 'info locals' -ex bt \
  -ex 'echo ==twelve\n' -ex 'cuemu thread 12 0 0' -ex 'print threadIdx' \
  -ex 'print tid' -ex 'print mine' -ex 'print after' -ex 'frame' \
  -ex 'echo ==back\n' -ex 'cuemu thread' -ex 'print threadIdx' \
  -ex 'print tid' -ex 'print mine' \
  -ex 'echo ==errors\n' -ex 'cuemu thread 16' -ex 'cuemu thread 1 1' \
  -ex 'echo ==resume\n' -ex 'cuemu thread 3' -ex next \
  -ex 'printf "now thread %d\n", threadIdx.x' \
  -ex 'cuemu thread 7' -ex delete -ex continue \
  "$work/gdb_reduce"

sed -n '/^==two$/,/^==twelve$/p' "$work/out" >"$work/two"
sed -n '/^==twelve$/,/^==back$/p' "$work/out" >"$work/twelve"
sed -n '/^==back$/,/^==errors$/p' "$work/out" >"$work/back"
sed -n '/^==errors$/,/^==resume$/p' "$work/out" >"$work/errors"
sed -n '/^==resume$/,$p' "$work/out" >"$work/resume"

expect two "says which thread it shows" \
  "^\[cuemu: showing thread \(2,0,0\) of block \(2,0,0\), waiting __syncthreads\(\) at gdb_reduce\.cu:$bar"
expect two "selects its kernel frame" \
  "in block_sum \(.*gdb_reduce\.cu:$bar\$"
expect two "its threadIdx" '^\$1 = \{x = 2, y = 0, z = 0\}$'
expect two "its tid" '^tid = 2$'
expect two "its mine" '^mine = 340$'
expect two "its after (thread 3's value)" '^after = 350$'
expect two "its stride" '^stride = 8$'
expect two "its backtrace reaches the kernel" \
  "^#[0-9]+ +0x[0-9a-f]+ in block_sum \(in=.*gdb_reduce\.cu:$bar\$"
# (On x86-64 a thread that passed its first barrier waits in __syncthreads'
# light switch, cuemu_block_sync, which leaves no frame of its own.)
expect two "its backtrace starts in the barrier" \
  '^#0 +(0x[0-9a-f]+ in )?(cuemu_block_barrier|__syncthreads) '
reject two "its backtrace ends cleanly" '\?\? \(\)|Backtrace stopped'

expect twelve "says which thread it shows" \
  "^\[cuemu: showing thread \(12,0,0\) of block \(2,0,0\), ready released from __syncthreads\(\) at gdb_reduce\.cu:$first"
expect twelve "its threadIdx" '^\$2 = \{x = 12, y = 0, z = 0\}$'
expect twelve "its tid" '^\$3 = 12$'
expect twelve "its mine" '^\$4 = 440$'
expect twelve "frame shows the first barrier" \
  "in block_sum \(.*gdb_reduce\.cu:$first\$"

expect back "says it went back" \
  '^\[cuemu: back to the running thread \(5,0,0\)\]$'
expect back "thread 5's threadIdx" '^\$6 = \{x = 5, y = 0, z = 0\}$'
expect back "thread 5's tid" '^\$7 = 5$'
expect back "thread 5's mine" '^\$8 = 370$'
expect back "thread 5's frame" \
  "^#0 +block_sum \(.*gdb_reduce\.cu:$after\$"

expect errors "a thread outside the block" \
  'cuemu thread: \(16,0,0\) is outside the block \(16,1,1\)'
expect errors "a thread with a y outside the block" \
  'cuemu thread: \(1,1,0\) is outside the block \(16,1,1\)'

expect resume "next after a switch steps thread 5" '^now thread 5$'
expect resume "next after a switch goes on in thread 5" "^$((after + 1))	"
expect out "the program's sums are right" '^gdb_reduce: ok$'
expect out "the program exits normally" 'exited normally'
reject out "no Python errors" 'Python Exception|Error occurred in Python'
finish
