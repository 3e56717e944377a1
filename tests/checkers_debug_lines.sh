#!/bin/sh
# checkers_debug_lines.sh: a checker's report names the user's line for an
# atomic in a build without optimisation (-G, as CMake projects set with
# COMPILE_OPTIONS -G, and -g). tests/buggy/race_global_union_find_min.cu
# (a union-find labeller's atomicMin racing with its finds' plain loads)
# is built with --check=race and each option, and with -G once more with
# CUDA 13's __nv_atomic_fetch_min in place of atomicMin (the same line):
# the race must name the lines its EXPECT line gives, as tests/checkers.sh
# checks for the optimised build. Before, the shims' atomics were out-of-line functions
# at -O0, shared by every caller, and the report named a line of
# shims/cuda_builtins/cuemu_atomics.h. Run by `make check` with
# AM_TESTS_ENVIRONMENT.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
cc=$(cd "$builddir" && pwd)/cuemu-cc
[ -x "$cc" ] || tool_missing checkers_debug_lines.sh "$cc is not built"

work=$builddir/tests/tmp/checkers_debug_lines.$$
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
trap 'rm -rf "$work"' EXIT
failed=0
fail() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}

source=$srcdir/tests/buggy/race_global_union_find_min.cu
lines=$(sed -n 's|^// EXPECT: .* line \([0-9]*\) line \([0-9]*\)$|\1 \2|p' "$source")
[ -n "$lines" ] || fail "no two lines in the EXPECT line of $source"
# The __nv_atomic form, on the same line.
sed 's|atomicMin(\(&parent\[[^]]*\]\), \(.*\));$|__nv_atomic_fetch_min(\1, \2, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);|' \
  "$source" >"$work/race_global_union_find_min.cu"
grep -q __nv_atomic_fetch_min "$work/race_global_union_find_min.cu" ||
  fail "the __nv_atomic form of $source was not made"
for build in "-G $source" "-g $source" "-G $work/race_global_union_find_min.cu"; do
  # shellcheck disable=SC2086 # a build is an option and a path, without blanks
  set -- $build
  option=$1 program=$2
  [ "$program" = "$source" ] || option="$option (__nv_atomic_fetch_min)"
  if ! "$cc" --check=race "$1" "$program" -o "$work/union_find" \
    >"$work/build.log" 2>&1; then
    fail "cuemu-cc --check=race $option failed:"
    sed 's/^/  | /' "$work/build.log" | head -20
    continue
  fi
  CUEMU_QUIET=0 CUEMU_WORKERS=1 timeout 60 "$work/union_find" \
    >"$work/run.out" 2>"$work/run.err"
  report=$(grep 'racecheck: race' "$work/run.err" | head -n 1)
  [ -n "$report" ] || { fail "$option: no race reported"; continue; }
  for line in $lines; do
    case $report in
    *"race_global_union_find_min.cu:$line;"* | *"race_global_union_find_min.cu:$line") ;;
    *) fail "$option: the report does not name line $line: $report" ;;
    esac
  done
  case $report in
  *cuda_builtins*) fail "$option: the report names the shims: $report" ;;
  esac
done
[ "$failed" -eq 0 ] && echo "PASS: checkers_debug_lines"
[ "$failed" -eq 0 ]
