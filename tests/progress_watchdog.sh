#!/bin/sh
# progress_watchdog.sh: the watchdog's part in blocks that wait for other
# blocks (docs/streams.md). Blocks that spin on an atomic for a later block
# (tests/programs/progress/watchdog/atomic_later_flag.cu) complete with
# CUEMU_WORKERS=2: the watchdog starts more workers, with a note on stderr.
# Blocks that only compute for long, or count in volatile global memory
# (busy_blocks.cu), keep the two workers asked for, are not taken for
# spinning blocks (CUEMU_SPIN_TIMEOUT=0.2 would end them) and get no note.
# A launch that never ends with every block started (started_spin.cu, a race
# on a shared flag) ends under CUEMU_TIMEOUT with a report that says no block
# waits for an unstarted one and names the race checker, not the hint about
# blocks that are not resident. A persistent kernel whose polling thread's
# warp-mates wait at __syncthreads() (barrier_warp_poll.cu) gets its blocks
# from its spinning blocks, before the watchdog's second: no note.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing progress_watchdog.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/progress_watchdog.$$
mkdir -p "$work" || exit 1
failed=0
dir=$srcdir/tests/programs/progress/watchdog
for name in atomic_later_flag busy_blocks started_spin barrier_warp_poll; do
  if ! "$nvcc" -o "$work/$name" "$dir/$name.cu" >"$work/$name.build" 2>&1; then
    fail "$name.cu does not build: $(head -n 20 "$work/$name.build")"
    rm -rf "$work"
    exit 1
  fi
done

note='no block has started .* may spin for blocks not started'
start=$(date +%s)
CUEMU_WORKERS=2 CUEMU_TIMEOUT=30 CUEMU_QUIET=0 "$work/atomic_later_flag" \
  >"$work/atomic.out" 2>"$work/atomic.err"
status=$?
took=$(($(date +%s) - start))
if [ "$status" -ne 0 ] || ! grep -qx PASS "$work/atomic.out"; then
  fail "atomic_later_flag: exit status $status: $(cat "$work/atomic.out" "$work/atomic.err")"
elif ! grep -q "kernel chain: $note" "$work/atomic.err"; then
  fail "atomic_later_flag: no note of the watchdog's workers: $(cat "$work/atomic.err")"
elif [ "$took" -gt 15 ]; then
  fail "atomic_later_flag: took $took s"
else
  echo "PASS: atomic_later_flag: more workers, with a note, in $took s"
fi

CUEMU_WORKERS=2 CUEMU_SPIN_TIMEOUT=0.2 CUEMU_QUIET=0 "$work/busy_blocks" \
  >"$work/busy.out" 2>"$work/busy.err"
status=$?
if [ "$status" -ne 0 ] || ! grep -qx PASS "$work/busy.out"; then
  fail "busy_blocks: exit status $status: $(cat "$work/busy.out" "$work/busy.err")"
elif grep -q "$note" "$work/busy.err"; then
  fail "busy_blocks: the watchdog took computing blocks for spinning ones: $(cat "$work/busy.err")"
else
  echo "PASS: busy_blocks: two workers, no note"
fi
CUEMU_TIMEOUT=1 CUEMU_QUIET=0 "$work/started_spin" \
  >"$work/started.out" 2>"$work/started.err"
status=$?
if [ "$status" -ne 124 ]; then
  fail "started_spin: exit status $status, not 124: $(cat "$work/started.out" "$work/started.err")"
elif ! grep -q '(1 block running; 1 of 1 blocks started)' "$work/started.err" ||
  ! grep -q 'every block has started, so none waits .*CUEMU_CC_CHECK=race' "$work/started.err"; then
  fail "started_spin: no hint for a launch whose blocks have all started: $(cat "$work/started.err")"
elif grep -q 'wait for a block that is not running' "$work/started.err"; then
  fail "started_spin: the hint for blocks not resident: $(cat "$work/started.err")"
else
  echo "PASS: started_spin: ended after CUEMU_TIMEOUT, every block started, race hint"
fi
CUEMU_WORKERS=2 CUEMU_TIMEOUT=30 CUEMU_QUIET=0 "$work/barrier_warp_poll" \
  >"$work/poll.out" 2>"$work/poll.err"
status=$?
if [ "$status" -ne 0 ] || ! grep -qx PASS "$work/poll.out"; then
  fail "barrier_warp_poll: exit status $status: $(cat "$work/poll.out" "$work/poll.err")"
elif grep -q "$note" "$work/poll.err"; then
  fail "barrier_warp_poll: the watchdog, not the spinning blocks, started the blocks: $(cat "$work/poll.err")"
else
  echo "PASS: barrier_warp_poll: the spinning blocks got their blocks, no note"
fi
rm -rf "$work"
exit "$failed"
