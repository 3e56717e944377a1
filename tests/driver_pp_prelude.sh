#!/bin/sh
# driver_pp_prelude.sh: the preprocessing pass without the prelude's text
# (emulator/compile/cuemu_pp_prelude.c). Each pass preprocesses the .cu
# file with a header of the macros that the prelude (the shims and the
# system headers they read) leaves, and the prelude's text, kept in the
# compile cache per set of flags, is put back. This test shows that:
#   1. a program whose preprocessing depends on the prelude's state
#      (tests/driver/pp_prelude: system and shim macros, __COUNTER__, a
#      header included twice, a redefined system macro, -D flags) gives
#      the same translation unit with the shortcut as without it
#      (CUEMU_NO_PCH=1), line markers of headers that the prelude had read
#      aside, the same warning (naming the first definition's file and
#      line) and the same output;
#   2. the cache keeps one preprocessed prelude per pass and set of flags:
#      a second program with the same flags adds none, another -D adds two;
#   3. a prelude that warns (a -D that the prelude redefines) is never
#      shortened: every compile prints the warning;
#   4. an error in a header the user includes is reported as without the
#      shortcut;
#   5. nvcc builds the program.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
case $builddir in /*) ;; *) builddir=$(cd "$builddir" && pwd) ;; esac
cc=$builddir/cuemu-nvcc
[ -x "$cc" ] || tool_missing driver_pp_prelude.sh "$cc is not built"
command -v g++ >/dev/null 2>&1 ||
  tool_missing driver_pp_prelude.sh "g++ not found"

work=$builddir/tests/tmp/driver_pp_prelude.$$
rm -rf "$work"
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
unset CUEMU_NO_CACHE CUEMU_NO_PCH CUEMU_KEEP_TU
p=$srcdir/tests/driver/pp_prelude
failed=0

# preludes CACHE: the number of preprocessed preludes in the cache.
preludes() {
  grep -la '^cuemu-cc prelude 1' "$1"/*.entry 2>/dev/null | wc -l
}

# unit CACHE PASS: the kept preprocessed unit of pass PASS (0: device,
# 1: host) without line markers and blank lines.
unit() {
  grep -v '^#' "$(ls "$1"/*.0."$2".ii | head -n 1)" | grep -v '^ *$'
}

# ---- 1. The same unit, warning and output, with and without the shortcut --------
flags="-arch=sm_90 -DSCALE=3 -DREDEFINE_EXIT_FAILURE -I$p"
for mode in short whole; do
  if [ $mode = short ]; then nopch=; else nopch=1; fi
  # shellcheck disable=SC2086
  (cd "$work" && CUEMU_CACHE_DIR=$work/cache-$mode CUEMU_KEEP_TU=1 \
    CUEMU_NO_PCH=$nopch "$cc" $flags -o $mode.out "$p/main.cu") \
    >"$work/$mode.log" 2>&1 || fail "1. the $mode compile failed: $(cat "$work/$mode.log")"
  "$work/$mode.out" >"$work/$mode.run" 2>&1
done
[ "$(preludes "$work/cache-short")" = 2 ] ||
  fail "1. wanted 2 preprocessed preludes, got $(preludes "$work/cache-short")"
[ "$(preludes "$work/cache-whole")" = 0 ] ||
  fail "1. CUEMU_NO_PCH=1 kept preprocessed preludes"
for pass in 0 1; do
  unit "$work/cache-short" $pass >"$work/short.$pass"
  unit "$work/cache-whole" $pass >"$work/whole.$pass"
  cmp -s "$work/short.$pass" "$work/whole.$pass" ||
    fail "1. pass $pass's unit differs: $(diff "$work/short.$pass" "$work/whole.$pass" | head -20)"
done
grep -q 'util.cuh:21.* warning: "EXIT_FAILURE" redefined' "$work/short.log" &&
  grep -q '/stdlib.h:[0-9]*: note: this is the location of the previous definition' \
    "$work/short.log" ||
  fail "1. the redefinition's warning: $(cat "$work/short.log")"
[ "$(grep -c 'EXIT_FAILURE" redefined' "$work/short.log")" = \
  "$(grep -c 'EXIT_FAILURE" redefined' "$work/whole.log")" ] ||
  fail "1. the warning is not said as often: $(cat "$work/short.log" "$work/whole.log")"
expected="PASS scale=3 ids=0,1 max=1 exit=2 arch=1"
[ "$(cat "$work/short.run")" = "$expected" ] &&
  [ "$(cat "$work/whole.run")" = "$expected" ] ||
  fail "1. outputs: $(cat "$work/short.run" "$work/whole.run")"
[ "$failed" -eq 0 ] && echo "PASS: 1. the same unit, warning and output"

# ---- 2. One preprocessed prelude per pass and set of flags ------------------------
c=$work/cache-short
cp "$p/main.cu" "$work/second.cu"
echo "// another program" >>"$work/second.cu"
step second env CUEMU_CACHE_DIR="$c" "$cc" -arch=sm_90 -DSCALE=3 \
  -DREDEFINE_EXIT_FAILURE -I"$p" -o second.out second.cu
[ "$(preludes "$c")" = 2 ] ||
  fail "2. a program with the same flags added preludes: $(preludes "$c")"
step other env CUEMU_CACHE_DIR="$c" "$cc" -arch=sm_90 -DSCALE=5 -DOTHER=1 \
  -I"$p" -o other.out second.cu &&
  [ "$("$work/other.out" | cut -d' ' -f1,2)" = "PASS scale=5" ] ||
  fail "2. the program with -DSCALE=5: $("$work/other.out")"
[ "$(preludes "$c")" = 4 ] ||
  fail "2. another -D: wanted 4 preprocessed preludes, got $(preludes "$c")"
[ "$failed" -eq 0 ] && echo "PASS: 2. one preprocessed prelude per set of flags"

# ---- 3. A prelude that warns is never shortened -------------------------------------
# The shims define CUDART_VERSION; a -D of another value makes the prelude
# warn, in each compile.
c=$work/cache-warn
for i in 1 2; do
  echo "// $i" >>"$work/second.cu"
  (cd "$work" && CUEMU_CACHE_DIR=$c "$cc" -arch=sm_90 -DSCALE=1 \
    -DCUDART_VERSION=1 -I"$p" -o warn.out second.cu) >"$work/warn$i.log" 2>&1
  grep -q '"CUDART_VERSION" redefined' "$work/warn$i.log" ||
    fail "3. compile $i did not warn: $(cat "$work/warn$i.log")"
done
[ "$(preludes "$c")" = 0 ] || fail "3. a prelude that warns was kept"
[ "$failed" -eq 0 ] && echo "PASS: 3. a prelude that warns warns every time"

# ---- 4. An error in a user header ---------------------------------------------------
printf '#include "util.cuh"\n#include "missing.cuh"\nint main() {}\n' \
  >"$work/broken.cu"
for mode in short whole; do
  if [ $mode = short ]; then nopch=; else nopch=1; fi
  (cd "$work" && CUEMU_CACHE_DIR=$work/cache-$mode CUEMU_NO_PCH=$nopch \
    "$cc" -arch=sm_90 -I"$p" -o broken.out broken.cu) >"$work/broken-$mode.log" 2>&1 &&
    fail "4. the $mode compile of a missing header succeeded"
done
grep -q 'broken.cu:2:10: fatal error: missing.cuh: No such file' \
  "$work/broken-short.log" ||
  fail "4. the missing header: $(cat "$work/broken-short.log")"
cmp -s "$work/broken-short.log" "$work/broken-whole.log" ||
  fail "4. the messages differ: $(diff "$work/broken-short.log" "$work/broken-whole.log")"
[ "$failed" -eq 0 ] && echo "PASS: 4. an error in a user header"

# ---- 5. nvcc builds the program -----------------------------------------------------
real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step nvcc nvcc_build driver_pp_prelude.sh:main timeout 600 "$real" \
    -std=c++17 -arch=sm_90 -DSCALE=3 -DREDEFINE_EXIT_FAILURE -c "$p/main.cu" \
    -o /dev/null && echo "PASS: 5. nvcc builds the program"
fi

[ "$failed" -eq 0 ] || exit 1
exit 0
