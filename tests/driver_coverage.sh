#!/bin/sh
# driver_coverage.sh: host coverage of a CUDA program, as a Makefile that
# adds `-Xcompiler --coverage` (or a CMake coverage build) gets it from nvcc:
# the host compile's notes and counts are named after the user's object
# (obj/main.o: obj/main.gcno, and obj/main.gcda once the program has run),
# and the link brings the coverage runtime. cuemu's builds of the two passes
# are temporary files of the cache folder: before, the files took those
# names and were left there, and a cache hit would hand another object the
# files of the first. Device code is not the host compiler's, so it records
# nothing, as with nvcc. Program: tests/driver/coverage/main.cu.
#   1. g++: -c into obj/, a link, a run: obj/main.gcda; gcov reads it and
#      marks the branch never taken; nothing of it is in the cache folder;
#   2. the same source into obj2/: that object names its own files;
#   3. clang++ (-ccbin): the same names;
#   4. compiled and linked in one command (-o prog): prog-main.gcda, as g++
#      names it;
#   5. nvcc builds the program with the same options.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
case $builddir in /*) ;; *) builddir=$(cd "$builddir" && pwd) ;; esac
cc=$builddir/cuemu-nvcc
[ -x "$cc" ] || tool_missing driver_coverage.sh "$cc is not built"
command -v gcov >/dev/null 2>&1 || tool_missing driver_coverage.sh "no gcov"

work=$builddir/tests/tmp/driver_coverage.$$
rm -rf "$work"
mkdir -p "$work/obj" "$work/obj2" "$work/objc" || exit 1
trap 'rm -rf "$work"' EXIT
p=$srcdir/tests/driver/coverage
failed=0
cov="-Xcompiler --coverage"
cache=${CUEMU_CACHE_DIR:-}
touch "$work/start"

# coverage_files CASE DIR STEM: the run left DIR/STEM.gcno and DIR/STEM.gcda.
coverage_files() {
  if [ -f "$work/$2/$3.gcno" ] && [ -f "$work/$2/$3.gcda" ]; then
    echo "PASS: $1. $2/$3.gcno and $2/$3.gcda"
  else
    fail "$1. $2/ holds $(ls "$work/$2")"
  fi
}

# shellcheck disable=SC2086 # the options are words
step compile "$cc" -arch=sm_90 $cov -c "$p/main.cu" -o obj/main.o &&
  step link "$cc" -arch=sm_90 $cov obj/main.o -o prog_obj &&
  passes "1. a program of an object built with coverage" ./prog_obj
coverage_files 1 obj main
if (cd "$work" && gcov -o obj "$p/main.cu") >"$work/gcov.log" 2>&1 &&
  grep -q '#####:.*never taken' "$work/main.cu.gcov" &&
  grep -Eq '^ *[1-9][0-9]*:.*return \(n \+ threads' "$work/main.cu.gcov"; then
  echo "PASS: 1. gcov counts the host function's lines"
else
  fail "1. gcov: $(cat "$work/gcov.log") $(grep -n "pick_blocks\|return" "$work/main.cu.gcov" 2>/dev/null)"
fi
if [ -n "$cache" ] && [ -d "$cache" ] &&
  find "$cache" -newer "$work/start" \( -name '*.gcno' -o -name '*.gcda' \) |
  grep -q .; then
  fail "1. coverage files in the cache folder: $(find "$cache" -newer "$work/start" -name '*.gc*')"
fi

# shellcheck disable=SC2086
step compile2 "$cc" -arch=sm_90 $cov -c "$p/main.cu" -o obj2/main.o &&
  step link2 "$cc" -arch=sm_90 $cov obj2/main.o -o prog_obj2 &&
  passes "2. the same source into another folder" ./prog_obj2
coverage_files 2 obj2 main

if command -v clang++ >/dev/null 2>&1; then
  # shellcheck disable=SC2086
  step compilec "$cc" -arch=sm_90 -ccbin clang++ $cov -c "$p/main.cu" \
    -o objc/main.o &&
    step linkc "$cc" -arch=sm_90 -ccbin clang++ $cov objc/main.o -o prog_c &&
    passes "3. clang++" ./prog_c
  coverage_files 3 objc main
fi

# shellcheck disable=SC2086
step one "$cc" -arch=sm_90 $cov "$p/main.cu" -o prog &&
  passes "4. compiled and linked in one command" ./prog
coverage_files 4 . prog-main

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  # shellcheck disable=SC2086
  step nvcc nvcc_build "driver_coverage.sh:main" timeout 600 "$real" \
    -std=c++17 -arch=sm_90 $cov -c "$p/main.cu" -o /dev/null &&
    echo "PASS: 5. nvcc builds the program"
fi

[ "$failed" -eq 0 ] || exit 1
exit 0
