#!/bin/sh
# streams_sync_host_flag.sh: a kernel that waits for a flag the host raises
# after the launch (tests/programs/progress/sync/host_flag.cu) completes with
# asynchronous streams; with CUEMU_STREAMS=sync (cuemu-gdb's default) the
# launch runs the kernel before it returns, so the flag can never be raised:
# the launch must end with the spin report, and the report must say that
# synchronous streams are the reason and how to run it instead (it said
# "waiting for something that never happens" and nothing more).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing streams_sync_host_flag.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/streams_sync_host_flag.$$
mkdir -p "$work" || exit 1
failed=0
prog=$work/host_flag
if ! "$nvcc" -o "$prog" "$srcdir/tests/programs/progress/sync/host_flag.cu" \
  >"$work/build" 2>&1; then
  fail "host_flag.cu does not build: $(head -n 20 "$work/build")"
  rm -rf "$work"
  exit 1
fi

CUEMU_QUIET=0 "$prog" >"$work/async.out" 2>"$work/async.err"
status=$?
if [ "$status" -ne 0 ] || ! grep -q '^PASS' "$work/async.out"; then
  fail "async streams: exit status $status: $(cat "$work/async.out" "$work/async.err")"
else
  echo "PASS: async streams: the kernel sees the host's flag"
fi

CUEMU_STREAMS=sync CUEMU_SPIN_TIMEOUT=0.3 CUEMU_TIMEOUT=30 CUEMU_QUIET=0 \
  "$prog" >"$work/sync.out" 2>"$work/sync.err"
status=$?
if [ "$status" -ne 1 ] || ! grep -q 'cudaErrorLaunchTimeout' "$work/sync.out"; then
  fail "sync streams: exit status $status: $(cat "$work/sync.out" "$work/sync.err")"
elif ! grep -q 'kernel wait_for_host: block (0,0,0) made no progress.*with CUEMU_STREAMS=sync .*cannot raise a flag the kernel waits for until the launch ends: run with CUEMU_STREAMS=async' "$work/sync.err"; then
  fail "sync streams: the report does not name synchronous streams: $(cat "$work/sync.err")"
else
  echo "PASS: sync streams: the spin report names CUEMU_STREAMS=sync"
fi
rm -rf "$work"
exit "$failed"
