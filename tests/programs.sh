#!/bin/sh
# programs.sh: builds every tests/programs/*.cu as a whole program with
# cuemu-cc (program mode) and runs it. Each program checks itself and prints
# PASS; the test fails if any program does not build, does not exit 0 or
# does not print PASS. Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-cc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing programs.sh "$cc is not built"

work=$builddir/tests/tmp/programs.$$
mkdir -p "$work" || exit 1

count=0
failed=0
for source in "$srcdir"/tests/programs/*.cu; do
  [ -f "$source" ] || continue
  name=$(basename "$source" .cu)
  count=$((count + 1))
  if ! "$cc" "$source" -o "$work/$name" >"$work/$name.build" 2>&1; then
    echo "FAIL: $name: cuemu-cc failed:"
    cat "$work/$name.build"
    failed=$((failed + 1))
    continue
  fi
  if "$work/$name" >"$work/$name.out" 2>&1 && grep -qx PASS "$work/$name.out"
  then
    echo "PASS: $name"
  else
    echo "FAIL: $name: its output:"
    cat "$work/$name.out"
    failed=$((failed + 1))
  fi
done
rm -rf "$work"

if [ "$count" -eq 0 ]; then
  echo "programs.sh: no programs in $srcdir/tests/programs"
  exit 1
fi
echo "programs.sh: $count programs, $failed failed"
[ "$failed" -eq 0 ]
