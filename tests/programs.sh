#!/bin/sh
# programs.sh [DIR]: builds every DIR/*.cu (default tests/programs) as a
# whole program with cuemu-nvcc and runs it. Each program checks itself and
# prints PASS; the test fails if any program does not build, does not exit 0
# or does not print PASS. A line `CUEMU_OPTIONS: ...` in a program adds
# options to its build (as `NVCC_OPTIONS: ...` does for nvcc_kernels.sh;
# each program is built in its folder, so paths are relative to it).
# Each subfolder of tests/programs has a wrapper tests/programs_NAME.sh, so
# that `make -j2 check` runs the folders side by side. Run by `make check`
# with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-nvcc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing programs.sh "$cc is not built"

dir=${1:-$srcdir/tests/programs}
work=$builddir/tests/tmp/programs.$$
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
cc=$(cd "$(dirname "$cc")" && pwd)/$(basename "$cc")

count=0
failed=0
for source in "$dir"/*.cu; do
  [ -f "$source" ] || continue
  name=$(basename "$source" .cu)
  count=$((count + 1))
  options=$(sed -n 's/.*CUEMU_OPTIONS:[[:space:]]*\([^*]*\).*/\1/p' "$source" |
    head -n 1)
  # shellcheck disable=SC2086 # the options are words
  if ! (cd "$(dirname "$source")" && "$cc" $options "$(basename "$source")" \
    -o "$work/$name") >"$work/$name.build" 2>&1
  then
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
  echo "programs.sh: no programs in $dir"
  exit 1
fi
echo "programs.sh: $count programs, $failed failed"
[ "$failed" -eq 0 ]
