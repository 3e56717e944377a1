#!/bin/sh
# checkers_suites.sh: the Check suites that run kernels, with every module
# built with every checker (CUEMU_CC_CHECK=all): the checkers must find
# nothing in the correct kernels of tests/kernels/. A test may fail only
# when its kernel has the bug that the checkers report, on purpose or not;
# each such test is listed below with the reason. Any other failure, and a
# listed test that passes, fails this script. Run by `make check` with
# AM_TESTS_ENVIRONMENT.
#
# Not run here: the faults suite (its kernels fault on purpose, and the
# checkers report the bad accesses before they fault), compile, rewrite and
# status (no kernels run), checkers (tests/check_checkers.c builds what it
# needs itself).

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
bin=$builddir/tests/check_cuemu
. "$srcdir/tests/test_tools.sh"
[ -x "$bin" ] || tool_missing checkers_suites.sh "$bin is not built"

# tcase:test  reason
expected='
exactly_once:exited_threads_count_as_arrived  early_exit.cu votes with __syncthreads_count after threads returned (synccheck)
schedules:reverse_schedule_changes_a_racy_result  schedule.cu last_writer races on purpose (racecheck WAW)
schedules:invalid_settings_are_refused  uses the racy last_writer kernel (racecheck WAW)
'

work=$builddir/tests/tmp/checkers_suites.$$
mkdir -p "$work" || exit 1
failed=0
# Each suite's line ends with the processor seconds it took (its compiles
# are most of them: groups about 30 of its 60, tests/check_groups.c).
for suite in shared atomics warp groups grid scheduler selftest launch; do
  children_cpu "$work/times" >"$work/cpu.before"
  CUEMU_CC_CHECK=all CUEMU_TEST_SUITE=$suite "$bin" >"$work/$suite.out" 2>&1
  children_cpu "$work/times" >"$work/cpu.after"
  cpu=$(($(cat "$work/cpu.after") - $(cat "$work/cpu.before")))
  grep -E "^[0-9]+%: Checks" "$work/$suite.out" |
    sed "s/^/$suite: /; s/\$/ (cpu $cpu s)/"
  grep -E ':[FE]:' "$work/$suite.out" >>"$work/failures"
done
touch "$work/failures"
# Every failure must be expected.
while IFS= read -r line; do
  name=$(echo "$line" | sed -n 's/^[^:]*:[0-9]*:[FE]:\([^:]*:[^:]*\):.*/\1/p')
  if echo "$expected" | grep -q "^$name "; then
    echo "expected: $name"
  else
    echo "FAIL: a report (or failure) in a correct kernel: $line"
    failed=$((failed + 1))
  fi
done <"$work/failures"
# Every expected failure must still happen (or the list is stale).
for name in $(echo "$expected" | sed -n 's/^\([^ ]*\) .*/\1/p'); do
  if ! grep -q ":[FE]:$name:" "$work/failures"; then
    echo "FAIL: $name was expected to be reported and was not"
    failed=$((failed + 1))
  fi
done
rm -rf "$work"
echo "checkers_suites.sh: $failed unexpected result(s)"
[ "$failed" -eq 0 ]
