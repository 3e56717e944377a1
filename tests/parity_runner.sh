#!/bin/sh
# parity_runner.sh: cuemu-parity end to end. The deliberately bad cases of
# tests/parity (a file that does not parse, an unknown kernel, wrong
# argument counts and types, a host file that does not compile, an
# out-of-bounds write, a wrong host implementation, a wrong kernel, an
# order-dependent kernel, host implementations that write past an output,
# NaNs with other bits under exact) each fail with the message that names
# the problem, while the runner goes on and a correct case passes beside
# them; duplicate case names and unwritable report paths are refused before
# anything runs;
# the GPU leg is skipped without a device and fails under
# CUEMU_REQUIRE_CUDA=1; JUnit XML parses and counts right; shards split the
# cases; the exit status says whether everything passed.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
parity=$builddir/cuemu-parity
work=$builddir/tests/tmp/parity_runner.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
cd "$srcdir" || exit 1

# The runs here fail on purpose: they must not reach a real CI's step
# summary or annotations.
unset GITHUB_STEP_SUMMARY GITHUB_ACTIONS

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# expect_in FILE TEXT: the output holds TEXT (a fixed string).
expect_in() {
  grep -qF -- "$2" "$1" || fail "$1 lacks: $2"
}

# Every bad case next to a good one, under two schedules.
out=$work/bad.out
"$parity" --schedules forward,reverse --junit "$work/bad.xml" tests/parity \
  examples/saxpy >"$out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "a run with failing cases exited $rc, not 1"
expect_in "$out" "unparsable.parity.yaml:15:1: does not parse as YAML"
grep -E "^unparsable +- .* FAIL$" "$out" >/dev/null || fail "the file that does not parse has no row of its own"
expect_in "$out" "case 'unknown_kernel': field 'kernel': tests/parity/unknown_kernel/unknown_kernel.cu has no kernel scale_all"
expect_in "$out" "case 'arg_count': field 'args': kernel scale takes 4 parameters, the case gives 5 arguments"
expect_in "$out" "field 'args[1] (a).type': 'int' (4 bytes) does not match parameter 2 of kernel scale, 'float' (4 bytes)"
expect_in "$out" "host file tests/parity/host_compile_error/host_compile_error_host.c does not compile"
expect_in "$out" "undeclared"
expect_in "$out" "the kernel wrote out of bounds of array y: byte offset 400 of an array of 400 bytes"
expect_in "$out" "==== wrong_host (tests/parity/wrong_host/wrong_host.parity.yaml): MISMATCH"
expect_in "$out" "==== wrong_kernel (tests/parity/wrong_kernel/wrong_kernel.parity.yaml): MISMATCH"
expect_in "$out" "y[999]: got 1.43804073, host 0.907636523"
expect_in "$out" "1 of 1000 elements of y differ"
expect_in "$out" "order-dependent kernel (a race on a GPU): output sums under reverse differs from forward"
grep -E "^saxpy +pass +pass +(pass|skip) +(skip|pass) .* PASS$" "$out" >/dev/null ||
  fail "saxpy did not pass beside the bad cases"
grep -E "^cooperative +pass +pass +(pass|skip) +(skip|pass) .* PASS$" "$out" >/dev/null ||
  fail "the cooperative case did not pass beside the bad cases"
# Issue 17, defect 7: the host leg's arrays are guarded; a write 1, 64 and
# 100 KB past the output is reported with the array and the offset.
expect_in "$out" "case 'host_overrun_one_past': the host implementation twice_one_past wrote out of bounds of array y: byte offset 400 of an array of 400 bytes (100 elements)"
expect_in "$out" "the host implementation twice_64_past wrote out of bounds of array y: byte offset 656 of an array of 400 bytes"
expect_in "$out" "the host implementation twice_100k_past wrote out of bounds of array y: byte offset 102800 of an array of 400 bytes"
for name in host_overrun_one_past host_overrun_64_past host_overrun_100k_past; do
  grep -E "^$name +FAIL .* FAIL$" "$out" >/dev/null || fail "$name: the host leg did not fail"
done
# Issue 17, defect 8: exact is bit for bit for NaNs; nan_equal matches any.
expect_in "$out" "y[0]: got nan (0x7fc00001), host nan (0x7fc00002)"
grep -E "^nan_bits_exact +pass +FAIL .* FAIL$" "$out" >/dev/null ||
  fail "two different NaNs matched under exact"
grep -E "^nan_bits_nan_equal +pass +pass .* PASS$" "$out" >/dev/null ||
  fail "two different NaNs did not match under nan_equal"
# The run ends with its summary line.
grep -E "^cuemu-parity: 18 cases, 4 passed, 14 failed \(.*\) in [0-9.]+ s$" "$out" >/dev/null ||
  fail "no summary line"
for name in arg_count arg_type host_compile_error out_of_bounds racy \
  unknown_kernel wrong_host wrong_kernel wrong_matrix nan_bits_exact; do
  grep -E "^$name +.* FAIL$" "$out" >/dev/null || fail "$name did not fail"
done

# JUnit XML: well formed, one testcase per case, the failures counted.
"$PYTHON" - "$work/bad.xml" <<'EOF' || fail "JUnit XML is wrong"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall("./testsuite/testcase")
failed = [c for c in cases if c.find("failure") is not None]
names = {c.get("name") for c in cases}
assert len(cases) == 18, len(cases)
assert len(failed) == 14, len(failed)
assert root.get("tests") == "18" and root.get("failures") == "14", root.attrib
assert "saxpy" in names and "racy" in names, names
wrong = [c for c in cases if c.get("name") == "wrong_kernel"][0]
assert wrong.find("failure").get("type") == "MISMATCH"
assert "y[999]" in wrong.find("failure").text
EOF

# Issue 17: the printf program (a bad %s pointer) and a __device__
# function that calls exit() fail their emulated leg with a kernel fault at
# their line, under one and two workers, and never hang or end the run.
for workers in 1 2; do
  out=$work/faults.$workers.out
  CUEMU_WORKERS=$workers timeout 300 "$parity" --no-gpu tests/parity_faults \
    >"$out" 2>&1
  rc=$?
  [ $rc -eq 1 ] || fail "the fault cases with $workers workers exited $rc, not 1"
  expect_in "$out" "printf_fault.cu:10"
  expect_in "$out" "exit() called in device code at"
  expect_in "$out" "host_call.cu:8"
  for name in printf_fault host_call; do
    grep -E "^$name +pass +FAIL .* FAIL$" "$out" >/dev/null ||
      fail "$name with $workers workers: the emulated leg did not fail"
  done
done

# A correct case alone passes; the GPU leg is skipped without a device and
# fails when a device is required.
out=$work/good.out
"$parity" examples/saxpy >"$out" 2>&1
rc=$?
if grep -E "^saxpy +pass +pass +(pass|skip) +pass " "$out" >/dev/null; then
  echo "a CUDA device is present: the GPU leg ran"
else
  [ $rc -eq 0 ] || fail "saxpy alone exited $rc"
  expect_in "$out" "gpu: skipped:"
  out=$work/require.out
  CUEMU_REQUIRE_CUDA=1 "$parity" examples/saxpy >"$out" 2>&1
  rc=$?
  [ $rc -eq 1 ] || fail "CUEMU_REQUIRE_CUDA=1 without a device exited $rc, not 1"
  grep -E "^saxpy +pass +pass +(pass|FAIL) +FAIL .* FAIL$" "$out" >/dev/null ||
    fail "CUEMU_REQUIRE_CUDA=1 did not fail the GPU leg"
  expect_in "$out" "and CUEMU_REQUIRE_CUDA=1"
fi

# Shards split the cases: every case in exactly one of three shards.
"$parity" --list examples tests/parity | cut -f1 | sort >"$work/all"
: >"$work/sharded"
for k in 1 2 3; do
  "$parity" --list --shard $k/3 examples tests/parity | cut -f1 >>"$work/sharded"
done
sort "$work/sharded" >"$work/sharded.sorted"
cmp -s "$work/all" "$work/sharded.sorted" || fail "shards do not partition the cases"
[ "$(wc -l <"$work/all")" -gt 20 ] || fail "too few cases listed"

# --check builds the checkers into the emulated leg: the order-dependent
# kernel's missing barrier is reported as a shared-memory race, with lines.
out=$work/check.out
"$parity" --no-gpu --check race tests/parity/racy >"$out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "--check race on the racy kernel exited $rc, not 1"
expect_in "$out" "==== racy (tests/parity/racy/racy.parity.yaml): CHECK_REPORT"
expect_in "$out" "racecheck: race"
expect_in "$out" "racy.cu:11"

# A case that runs past --timeout is killed (with what it started) and
# failed, and the runner goes on; here its host implementation never returns.
# It sleeps rather than spins, so that its wait until --timeout costs no
# processor time (a spin cost the suite about 10 s of CPU).
mkdir -p "$work/hang"
cp examples/saxpy/saxpy.cu "$work/hang/"
cat >"$work/hang/hang_host.c" <<'EOF'
#include <unistd.h>
void saxpy(int n, float a, const float *x, float *y) {
  (void)n, (void)a, (void)x, (void)y;
  for (;;)
    sleep(1);
}
EOF
cat >"$work/hang/hang.parity.yaml" <<'EOF'
source: saxpy.cu
kernel: saxpy
host: hang_host.c
launch: {threads: n, block: 64}
args:
  - {name: n, type: int, value: 100}
  - {name: a, type: float, value: 2}
  - {name: x, type: const float *, size: n, input: {uniform: [0, 1]}}
  - {name: y, type: float *, size: n, output: {}}
EOF
out=$work/hang.out
start=$(date +%s)
# (10 s leaves the cached saxpy cases room on a loaded machine.)
"$parity" --no-gpu --timeout 10 "$work/hang" examples/saxpy >"$out" 2>&1
rc=$?
took=$(($(date +%s) - start))
[ $rc -eq 1 ] || fail "a run with a hung case exited $rc, not 1"
[ $took -lt 60 ] || fail "the hung case was not stopped by --timeout 10 ($took s)"
expect_in "$out" "or ran past --timeout"
expect_in "$out" "the host leg starts"
grep -E "^saxpy_tiny +.* PASS$" "$out" >/dev/null || fail "the run did not go on after the hung case"

# Bad usage is exit status 2.
for bad in "--schedules ," "--schedules forward,sideways" "--check races" \
  "--jobs 2x" "--timeout 0"; do
  # shellcheck disable=SC2086
  "$parity" $bad examples/saxpy >/dev/null 2>&1
  [ $? -eq 2 ] || fail "cuemu-parity $bad was accepted"
done
"$parity" --shard 4/3 examples >/dev/null 2>&1
[ $? -eq 2 ] || fail "--shard 4/3 was accepted"
"$parity" "$work/no-such-folder" >/dev/null 2>&1
[ $? -eq 2 ] || fail "a missing path was accepted"
"$parity" --sanitize leakcheck examples >/dev/null 2>&1
[ $? -eq 2 ] || fail "an unknown sanitizer tool was accepted"

# Issue 17, defect 9: duplicate case names are refused (exit 2) before any
# case runs, naming both places: two in one file, and across two files.
mkdir -p "$work/dup/a" "$work/dup/b" "$work/dup1"
for d in a b; do
  cp examples/saxpy/saxpy.cu "$work/dup/$d/"
  cp "$work/hang/hang_host.c" "$work/dup/$d/"
  sed 's/^source:/name: base\nsource:/' "$work/hang/hang.parity.yaml" \
    >"$work/dup/$d/base.parity.yaml"
done
out=$work/dup.out
timeout 120 "$parity" --no-gpu "$work/dup" >"$out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "duplicate case names across files: exit $rc, not 2"
expect_in "$out" "$work/dup/b/base.parity.yaml:1: case 'base' is declared twice: at $work/dup/a/base.parity.yaml:1 and at $work/dup/b/base.parity.yaml:1"
grep -q "leg starts\|^case " "$out" && fail "a case ran although two cases share a name"
cp examples/saxpy/saxpy.cu "$work/hang/hang_host.c" "$work/dup1/"
{ sed 's/^source:/name: base\nsource:/' "$work/hang/hang.parity.yaml"; echo "---"
  sed 's/^source:/name: base\nsource:/' "$work/hang/hang.parity.yaml"; } \
  >"$work/dup1/two.parity.yaml"
out=$work/dup1.out
timeout 120 "$parity" --no-gpu "$work/dup1" >"$out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "duplicate case names in one file: exit $rc, not 1"
expect_in "$out" "two.parity.yaml:12: case 'base' is declared twice: at $work/dup1/two.parity.yaml:1 and at $work/dup1/two.parity.yaml:12"
grep -q "leg starts" "$out" && fail "a case of a file with duplicate names ran"

# --junit and --html to a path that cannot be written are refused at once
# (exit 2), before the hanging case would run.
for opt in --junit --html; do
  out=$work/unwritable.out
  start=$(date +%s)
  timeout 120 "$parity" --no-gpu $opt "$work/no/such/folder/report" "$work/hang" >"$out" 2>&1
  rc=$?
  [ $rc -eq 2 ] || fail "$opt to an unwritable path: exit $rc, not 2"
  [ $(($(date +%s) - start)) -lt 30 ] || fail "$opt to an unwritable path was found late"
  expect_in "$out" "cuemu-parity: $opt $work/no/such/folder/report: cannot write it"
  grep -q "leg starts\|^case " "$out" && fail "a case ran before $opt was found unwritable"
done

if [ $failures -ne 0 ]; then
  echo "parity_runner.sh: $failures failure(s); the last runner output:"
  cat "$work/bad.out"
  exit 1
fi
echo "parity_runner.sh: all checks passed"
exit 0
