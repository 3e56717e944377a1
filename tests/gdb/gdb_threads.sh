#!/bin/sh
# gdb_threads.sh: `cuemu threads` and `cuemu block` in a block stopped
# mid-barrier. Thread 5 of block 2 is stopped twice: before the first
# barrier (threads 0-4 wait there, 6-15 have not started), then after it
# (0-4 have gone on to wait at the tree's barrier, 6-15 are released from
# the first barrier but not resumed). A kernel that never blocks shows its
# finished threads as exited.
name=gdb_threads
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/gdb/gdb_lib.sh"

build gdb_reduce
first=$(line gdb_reduce first_barrier)
after=$(line gdb_reduce after_barrier)
bar=$(line gdb_reduce tree_barrier)

run_gdb out \
  -ex "break gdb_reduce.cu:$first if threadIdx.x == 5 && blockIdx.x == 2" \
  -ex run -ex 'echo ==first\n' -ex 'cuemu threads' -ex 'cuemu block' \
  -ex delete \
  -ex "break gdb_reduce.cu:$after if threadIdx.x == 5 && blockIdx.x == 2" \
  -ex continue -ex 'echo ==after\n' -ex 'cuemu threads' \
  -ex 'echo ==all\n' -ex 'cuemu threads all' -ex 'echo ==end\n' \
  -ex delete -ex continue \
  "$work/gdb_reduce"

# The listing of each stop, on its own.
sed -n '/^==first$/,/^==after$/p' "$work/out" >"$work/first"
sed -n '/^==after$/,/^==all$/p' "$work/out" >"$work/after"
sed -n '/^==all$/,/^==end$/p' "$work/out" >"$work/all"

expect first "the block's header" '^block \(2,0,0\), 16 threads:$'
expect first "threads 0-4 wait at the first barrier" \
  "^  \(0,0,0\)\.\.\(4,0,0\) \[5\] +waiting +__syncthreads\(\) at gdb_reduce\.cu:$first\$"
expect first "thread 5 runs, marked" \
  "^\* \(5,0,0\) +running +at gdb_reduce\.cu:$first\$"
expect first "threads 6-15 have not started" \
  '^  \(6,0,0\)\.\.\(15,0,0\) \[10\] +not started$'
expect first "cuemu block: kernel" '^kernel block_sum'
expect first "cuemu block: block" '^block +\(2,0,0\), number 2 of 4$'
expect first "cuemu block: grid" '^grid +\(4,1,1\)$'
expect first "cuemu block: block size" \
  '^block +dimensions \(16,1,1\), 16 threads$'
expect first "cuemu block: dynamic shared memory" \
  '^dynamic shared memory 0 bytes$'
expect first "cuemu block: counts" \
  '^threads 1 running, 5 waiting, 10 not started$'

expect after "threads 0-4 wait at the tree's barrier" \
  "^  \(0,0,0\)\.\.\(4,0,0\) \[5\] +waiting +__syncthreads\(\) at gdb_reduce\.cu:$bar\$"
expect after "thread 5 runs past the barrier" \
  "^\* \(5,0,0\) +running +at gdb_reduce\.cu:$after\$"
expect after "threads 6-15 are released" \
  "^  \(6,0,0\)\.\.\(15,0,0\) \[10\] +ready +released from __syncthreads\(\) at gdb_reduce\.cu:$first\$"

n=$(grep -c '^[ *] (' "$work/all")
[ "$n" -eq 16 ] || note_failure all "cuemu threads all: $n lines, not 16"
expect all "cuemu threads all: one line for thread 9" \
  "^  \(9,0,0\) +ready +released from __syncthreads\(\) at gdb_reduce\.cu:$first\$"
expect out "the program's sums are right" '^gdb_reduce: ok$'
reject out "no Python errors" 'Python Exception|Error occurred in Python'

# A thread stopped by a fault in a kernel without barriers: the threads
# before it have returned, those after it have not started.
build gdb_errors
run_gdb fault -ex run -ex 'cuemu threads' --args "$work/gdb_errors" fault
expect fault "finished threads are exited" \
  '^  \(0,0,0\)\.\.\(2,0,0\) \[3\] +exited$'
expect fault "the faulting thread runs" \
  "^\* \(3,0,0\) +running +at gdb_errors\.cu:$(line gdb_errors fault)\$"
expect fault "later threads have not started" \
  '^  \(4,0,0\)\.\.\(7,0,0\) \[4\] +not started$'
reject fault "no Python errors" 'Python Exception|Error occurred in Python'
finish
