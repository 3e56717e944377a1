#!/bin/sh
# checkers_reports.sh: racecheck's and initcheck's reports let a whole
# program go on (tests/programs/checkers_reports/reports_go_on.cu, built
# with --check=race,init): its launches succeed, a program that loops on a
# device flag ends, each race or unwritten read is printed once however
# often it happens, a summary at exit counts them, and a program that
# would exit with 0 exits with CUEMU_CHECK_EXIT_STATUS (1 when unset).
# memcheck's and synccheck's reports end their launch and count too
# (tests/programs/checkers_reports/ending_reports_count.cu, built with
# --check=mem,sync): a program that ignores the launch's error still fails.
# A copy to pinned memory that racecheck guards in parts counts one
# initcheck report (tests/programs/checkers_reports/large_copy_source_once.cu).
# Failing launches on two lines give an API error report each
# (tests/programs/checkers_reports/api_errors_per_line.cu).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-cc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing checkers_reports.sh "$cc is not built"

work=$builddir/tests/tmp/checkers_reports.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
fail() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}

# build CHECKS NAME: builds tests/programs/checkers_reports/NAME.cu with
# --check=CHECKS as $program, or stops with the compiler's messages.
build() {
  program=$work/$2
  "$cc" --check="$1" "$srcdir/tests/programs/checkers_reports/$2.cu" \
    -o "$program" >"$work/$2.build" 2>&1 || { cat "$work/$2.build"; exit 1; }
}

build race,init reports_go_on

# run NAME WANTED-STATUS [VAR=VALUE...] -- ARGS: runs the program with the
# variables set; its status must be WANTED-STATUS and it must print PASS.
run() {
  name=$1 wanted=$2
  shift 2
  vars=
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    vars="$vars $1"
    shift
  done
  [ $# -gt 0 ] && shift
  # shellcheck disable=SC2086 # the variables are words
  env CUEMU_QUIET=0 $vars timeout 60 "$program" "$@" >"$work/$name.out" \
    2>"$work/$name.err"
  status=$?
  [ "$status" -eq "$wanted" ] ||
    fail "$name: exit status $status, wanted $wanted"
  grep -qx PASS "$work/$name.out" || fail "$name: no PASS"
}

run default 1 -- pass
races=$(grep -c "racecheck: race (RAW: read after write) on shared memory tile" \
  "$work/default.err")
[ "$races" -eq 1 ] || fail "default: the race printed $races times, wanted once"
grep -q "kernel relax: racecheck: .*reports_go_on.cu:35; read by .*reports_go_on.cu:37" \
  "$work/default.err" || fail "default: the race does not name lines 35 and 37"
inits=$(grep -c "initcheck: read of uninitialised global memory" "$work/default.err")
[ "$inits" -eq 1 ] || fail "default: the read printed $inits times, wanted once"
grep -q "kernel add_one: initcheck: .* at .*reports_go_on.cu:47" "$work/default.err" ||
  fail "default: the unwritten read does not name line 47"
grep -Eq "^cuemu: checkers: [0-9]+ reports \(2 distinct\) in this program; exit status 1 instead of 0" \
  "$work/default.err" || fail "default: no summary"

run status0 0 CUEMU_CHECK_EXIT_STATUS=0 -- pass
run status7 7 CUEMU_CHECK_EXIT_STATUS=7 -- pass
grep -q "exit status 7 instead of 0" "$work/status7.err" || fail "status7: no summary"
run bad_status 1 CUEMU_CHECK_EXIT_STATUS=seven -- pass
grep -q "CUEMU_CHECK_EXIT_STATUS=seven: expected 0 to 255; using 1" \
  "$work/bad_status.err" || fail "bad_status: no message"
# A program that fails on its own keeps its status.
run own_status 2 -- fail
grep -q "^cuemu: checkers: .* (2 distinct) in this program\$" \
  "$work/own_status.err" || fail "own_status: no summary"
# Quiet: no reports, but the summary that explains the status.
run quiet 1 CUEMU_QUIET=1 -- pass
grep -q "racecheck:" "$work/quiet.err" && fail "quiet: a report was printed"
grep -q "^cuemu: checkers: " "$work/quiet.err" || fail "quiet: no summary"
# Reports the program expected and forgot: no summary, status 0.
run clear 0 -- clear
grep -q "^cuemu: checkers: " "$work/clear.err" && fail "clear: a summary"
grep -q "reports, the last: kernel add_one: initcheck: " "$work/clear.out" ||
  fail "clear: cuemu_check_reports did not give the last report"

# memcheck and synccheck: the launch fails and the report counts.
build mem,sync ending_reports_count
for kind in mem sync; do
  run "ending_$kind" 1 -- "$kind"
  grep -q "^cuemu: kernel .*: ${kind}check: " "$work/ending_$kind.err" ||
    fail "ending_$kind: no ${kind}check report"
  grep -q "^cuemu: checkers: 1 report (1 distinct) in this program; exit status 1 instead of 0" \
    "$work/ending_$kind.err" || fail "ending_$kind: no summary"
done
run ending_status0 0 CUEMU_CHECK_EXIT_STATUS=0 -- mem

# A guarded copy made in parts: one initcheck report for the whole copy.
build race,init large_copy_source_once
run large_copy 1 --
copies=$(grep -c "initcheck: cudaMemcpy source: 160 of the 1048576 bytes .*(the first: byte 262104)" \
  "$work/large_copy.err")
[ "$copies" -eq 1 ] ||
  fail "large_copy: the copy's source reported $copies times, wanted once"
grep -q "^cuemu: checkers: 1 report (1 distinct) in this program" \
  "$work/large_copy.err" || fail "large_copy: not one report in the summary"

# Failing launches on two lines: two API error reports, each line's once
# (the first line's launch fails three times).
build mem api_errors_per_line
run api_lines 0 --
for mark in first second; do
  at=$(grep -n "// @$mark\$" "$srcdir/tests/programs/checkers_reports/api_errors_per_line.cu" |
    cut -d: -f1)
  n=$(grep -c "API error: program hit cudaErrorInvalidConfiguration .* cudaLaunchKernel at .*api_errors_per_line.cu:$at\$" \
    "$work/api_lines.err")
  [ "$n" -eq 1 ] || fail "api_lines: the launch of line $at reported $n times, wanted once"
done

if [ "$failed" -ne 0 ]; then
  for f in "$work"/*.out "$work"/*.err; do
    echo "== $f"
    cat "$f"
  done
  exit 1
fi
echo "checkers_reports.sh: all cases pass"
