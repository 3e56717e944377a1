#!/bin/sh
# gdb_break_on_error.sh: `cuemu break-on-error` stops where the emulator
# finds an error, before the launch is abandoned: at a divergent barrier (in
# the thread whose arrival showed it, with the others' states in `cuemu
# threads` and their stacks in `cuemu thread`), at a failed assert(), and
# after a segfault, which gdb itself stops at first in the faulting thread
# with a normal backtrace. Continuing ends each launch with its error, as
# without gdb; without gdb the fault is reported with the kernel, the block,
# the thread and the source line.
name=gdb_break_on_error
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/gdb/gdb_lib.sh"

build gdb_errors
low=$(line gdb_errors divergent_low)
high=$(line gdb_errors divergent_high)
fault=$(line gdb_errors fault)
assert=$(line gdb_errors assert)

# A divergent barrier: threads 0-3 of block 1 wait at one __syncthreads,
# threads 4-7 at another; thread 7 arrives last.
run_gdb divergent -ex 'cuemu break-on-error' -ex run \
  -ex 'print threadIdx' -ex 'print blockIdx' -ex 'cuemu threads' \
  -ex 'cuemu thread 2' -ex 'print threadIdx' -ex 'cuemu thread' \
  -ex continue \
  --args "$work/gdb_errors" divergent
expect divergent "says what the error is" \
  '^cuemu: the emulator found an error: CUEMU_DIVERGENT_BARRIER: kernel divergent: divergent __syncthreads in block \(1,0,0\)'
expect divergent "selects the kernel frame" \
  "in divergent \(out=.*gdb_errors\.cu:$high\$"
expect divergent "in the last thread to arrive" \
  '^\$1 = \{x = 7, y = 0, z = 0\}$'
expect divergent "of block 1" '^\$2 = \{x = 1, y = 0, z = 0\}$'
expect divergent "threads 0-3 wait at the other barrier" \
  "^  \(0,0,0\)\.\.\(3,0,0\) \[4\] +waiting +__syncthreads\(\) at gdb_errors\.cu:$low\$"
expect divergent "threads 4-6 wait at this one" \
  "^  \(4,0,0\)\.\.\(6,0,0\) \[3\] +waiting +__syncthreads\(\) at gdb_errors\.cu:$high\$"
expect divergent "thread 7 runs" \
  "^\* \(7,0,0\) +running +at gdb_errors\.cu:$high\$"
expect divergent "cuemu thread 2 shows its barrier" \
  "in divergent \(out=.*gdb_errors\.cu:$low\$"
expect divergent "cuemu thread 2's threadIdx" \
  '^\$3 = \{x = 2, y = 0, z = 0\}$'
expect divergent "the launch then fails as without gdb" \
  '^gdb_errors divergent: cudaErrorLaunchFailure$'
expect divergent "the program exits normally" 'exited normally'
reject divergent "no Python errors" 'Python Exception|Error occurred in Python'

# A failed assert() in threads 1 and 6 of block 0: thread 1 fails first.
run_gdb assert -ex 'cuemu break-on-error' -ex run \
  -ex 'print threadIdx' -ex 'print value' -ex continue \
  --args "$work/gdb_errors" assert
expect assert "says what the error is" \
  '^cuemu: the emulator found an error: CUEMU_ASSERT: kernel checked: '
expect assert "selects the kernel frame" \
  "in checked \(out=.*gdb_errors\.cu:$assert\$"
expect assert "in thread 1" '^\$1 = \{x = 1, y = 0, z = 0\}$'
expect assert "its locals" '^\$2 = 2$'
expect assert "the launch then fails as without gdb" \
  '^gdb_errors assert: cudaErrorAssert$'

# A segfault in thread 3 of block 1: gdb stops at the signal in the
# faulting thread, then at the emulator's report of it.
run_gdb fault -ex 'cuemu break-on-error' -ex run \
  -ex 'print threadIdx' -ex 'print blockIdx' -ex bt -ex continue \
  -ex 'print threadIdx' -ex continue \
  --args "$work/gdb_errors" fault
expect fault "gdb stops at the signal" \
  '^Program received signal SIGSEGV, Segmentation fault\.$'
expect fault "in the faulting statement" \
  "in fault \(out=0x[0-9a-f]+, bad=0x0\) at .*gdb_errors\.cu:$fault\$"
expect fault "in thread 3" '^\$1 = \{x = 3, y = 0, z = 0\}$'
expect fault "of block 1" '^\$2 = \{x = 1, y = 0, z = 0\}$'
expect fault "with a normal backtrace" \
  "^#0 +0x[0-9a-f]+ in fault \(out=.*gdb_errors\.cu:$fault\$"
expect fault "then at the emulator's report" \
  '^cuemu: the emulator found an error: CUEMU_KERNEL_FAULT: kernel fault: invalid memory access at address (0x0|\(nil\)) in thread \(3,0,0\) of block \(1,0,0\)'
expect fault "still in thread 3" '^\$3 = \{x = 3, y = 0, z = 0\}$'
expect fault "the launch then fails as without gdb" \
  '^gdb_errors fault: cudaErrorIllegalAddress$'

# Without gdb: the kernel, the block, the thread and the source line of the
# fault.
CUEMU_QUIET=0 "$work/gdb_errors" fault >"$work/plain" 2>&1
expect plain "the fault is reported with its source line" \
  "^cuemu: kernel fault: invalid memory access at address (0x0|\\(nil\\)) in thread \\(3,0,0\\) of block \\(1,0,0\\), in .*gdb_errors\\.cu:$fault\$"
expect plain "the launch fails" '^gdb_errors fault: cudaErrorIllegalAddress$'
finish
