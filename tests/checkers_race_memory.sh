#!/bin/sh
# checkers_race_memory.sh: racecheck's shadow of global memory takes at
# most CUEMU_CHECK_RACE_MEMORY (cuemu_check_race_budget.c). Before, a
# checked kernel over a 1 GiB hash table grew past the machine's memory
# and the OOM killer ended it (trial pub12). tests/programs/
# checkers_race_memory/big_and_small.cu reads a 64 MiB table, word 0 of
# it never written, and races on a small counter: with a limit of 64 MiB
# the table is left out of racecheck with one note naming it, initcheck
# still reports its unwritten word, and racecheck still reports the
# counter's race; without the limit (the default, half of the machine's
# memory) there is no note. A malformed limit is said and the default used.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-cc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing checkers_race_memory.sh "$cc is not built"

work=$builddir/tests/tmp/checkers_race_memory.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
program=$work/big_and_small
step build "$cc" --check=all \
  "$srcdir/tests/programs/checkers_race_memory/big_and_small.cu" \
  -o "$program" || exit 1

run() { # OUTPUT LIMIT
  out=$1
  shift
  env -u CUEMU_CHECK "$@" CUEMU_QUIET=0 CUEMU_WORKERS=2 timeout 120 \
    "$program" >"$work/$out" 2>&1
}

run limited CUEMU_CHECK_RACE_MEMORY=64M
problems=
grep -qx cudaSuccess "$work/limited" || problems="$problems; no cudaSuccess"
[ "$(grep -c "is not checked for races" "$work/limited")" = 1 ] ||
  problems="$problems; not one note of the table"
grep -q "racecheck: the allocation of 67108864 bytes at 0x[0-9a-f]*, allocated at .*big_and_small.cu:21 is not checked for races: its shadow ([0-9]* MiB) does not fit in CUEMU_CHECK_RACE_MEMORY (64 MiB" \
  "$work/limited" || problems="$problems; the note does not name the table"
grep -q "initcheck: .*big_and_small.cu:12" "$work/limited" ||
  problems="$problems; no initcheck report of the table's unwritten word"
grep -q "racecheck: race .*big_and_small.cu:14" "$work/limited" ||
  problems="$problems; no race report of the counter"
if [ -n "$problems" ]; then
  fail "CUEMU_CHECK_RACE_MEMORY=64M$problems; its output:"
  sed 's/^/  | /' "$work/limited" | head -20
else
  echo "PASS: over the limit the table is left out of racecheck with a note; initcheck and the small buffer's race are still reported"
fi

run default -u CUEMU_CHECK_RACE_MEMORY
if grep -qx cudaSuccess "$work/default" &&
    ! grep -q "not checked for races" "$work/default" &&
    grep -q "racecheck: race .*big_and_small.cu:14" "$work/default"; then
  echo "PASS: under the default limit every allocation is checked"
else
  fail "the default limit:"
  sed 's/^/  | /' "$work/default" | head -20
fi

run bad CUEMU_CHECK_RACE_MEMORY=lots
if grep -q "CUEMU_CHECK_RACE_MEMORY=lots: expected a size" "$work/bad" &&
    ! grep -q "not checked for races" "$work/bad"; then
  echo "PASS: a malformed limit is said, and the default used"
else
  fail "CUEMU_CHECK_RACE_MEMORY=lots:"
  sed 's/^/  | /' "$work/bad" | head -20
fi
exit $failed
