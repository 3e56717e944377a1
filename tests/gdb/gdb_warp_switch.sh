#!/bin/sh
# gdb_warp_switch.sh: `cuemu thread X` shows lanes that wait at a warp
# collective. On x86-64 such a lane is suspended in a light frame
# (emulator/core/cuemu_warp_sync_x86_64.S) whose resume address is inside
# cuemu_warp_sync: its backtrace must unwind from there through the shim to
# the kernel, with the lane's own locals, and end cleanly. Lane 5 stops
# after the first shuffle; lanes 2 and 31 wait at the second one.
name=gdb_warp_switch
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/gdb/gdb_lib.sh"

build gdb_shuffle
after=$(line gdb_shuffle after_shuffle)
second=$(line gdb_shuffle second_shuffle)

run_gdb out \
  -ex "break gdb_shuffle.cu:$after if threadIdx.x == 5" \
  -ex run \
  -ex 'echo ==two\n' -ex 'cuemu thread 2' -ex 'print threadIdx' \
  -ex 'info locals' -ex bt \
  -ex 'echo ==last\n' -ex 'cuemu thread 31' -ex 'info locals' -ex bt \
  -ex 'echo ==back\n' -ex 'cuemu thread' -ex 'print mine' \
  -ex delete -ex continue \
  "$work/gdb_shuffle"

sed -n '/^==two$/,/^==last$/p' "$work/out" >"$work/two"
sed -n '/^==last$/,/^==back$/p' "$work/out" >"$work/last"
sed -n '/^==back$/,$p' "$work/out" >"$work/back"

# The inputs are 10 * lane + 7; down is the next lane's (lane 31 its own).
expect two "says which lane it shows" \
  "^\[cuemu: showing thread \(2,0,0\) of block \(0,0,0\), waiting __shfl_xor_sync\(\) at gdb_shuffle\.cu:$second"
expect two "its threadIdx" '^\$1 = \{x = 2, y = 0, z = 0\}$'
expect two "its mine" '^mine = 27$'
expect two "its down" '^down = 37$'
expect two "its both" '^both = 64$'
expect two "its backtrace starts in the collective" \
  '^#0 +(0x[0-9a-f]+ in )?(cuemu_warp_sync|cuemu_warp_collective) '
expect two "its backtrace reaches the kernel" \
  "^#[0-9]+ +0x[0-9a-f]+ in warp_sum \(in=.*gdb_shuffle\.cu:$second\$"
reject two "its backtrace ends cleanly" '\?\? \(\)|Backtrace stopped'

expect last "lane 31's mine" '^mine = 317$'
expect last "lane 31's down (its own value)" '^down = 317$'
expect last "lane 31's both" '^both = 634$'
expect last "its backtrace reaches the kernel" \
  "^#[0-9]+ +0x[0-9a-f]+ in warp_sum \(in=.*gdb_shuffle\.cu:$second\$"
reject last "its backtrace ends cleanly" '\?\? \(\)|Backtrace stopped'

expect back "says it went back" \
  '^\[cuemu: back to the running thread \(5,0,0\)\]$'
expect back "lane 5's mine" '^\$[0-9]+ = 57$'
expect out "the program's sums are right" '^PASS$'
expect out "the program exits normally" 'exited normally'
reject out "no Python errors" 'Python Exception|Error occurred in Python'
finish
