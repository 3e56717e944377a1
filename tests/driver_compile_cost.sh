#!/bin/sh
# driver_compile_cost.sh: what makes every compile cheaper keeps programs
# and modules as they were (docs/python.md, "What a kernel's compile
# costs"):
# - tests/driver/compile_cost/specfun_host.cu, whose host code calls the
#   C++17 special functions of <cmath>, builds and prints their values: a
#   program keeps them (only a module's prelude hides them,
#   shims/cuda_builtins/cuemu_rtc_specfun_hide.h);
# - a module is linked by GNU gold where ld.gold is on the PATH (its
#   .note.gnu.gold-version), by the default linker with CUEMU_GOLD=0 or
#   with -Xlinker options of the user (emulator/compile/cuemu_fast_linker.c;
#   the choice is part of the compile command, so of the cache key).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cuemu=$builddir_abs/cuemu-nvcc
d=$srcdir/tests/driver/compile_cost
work=$(mktemp -d)
failed=0

if step specfun "$cuemu" -o specfun "$d/specfun_host.cu"; then
  out=$("$work/specfun" 2>&1)
  expected="0.083333 0.576725 1.644934 13.0 6.0"
  if [ "$out" = "$expected" ]; then
    echo "PASS: a program's host code calls the special functions: $out"
  else
    fail "specfun_host.cu printed '$out', expected '$expected'"
  fi
fi

# gold_note MODULE: 0 when MODULE was linked by gold.
gold_note() {
  readelf -n "$1" 2>/dev/null | grep -q NT_GNU_GOLD_VERSION
}
gold=0
command -v ld.gold >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1 &&
  gold=1
# module NAME GOLD OPTIONS...: builds one_line.cu into NAME.so with OPTIONS,
# and checks that gold linked it exactly when GOLD is 1.
module() {
  name=$1
  want=$2
  shift 2
  step "$name" "$cuemu" --module "$@" -o "$name.so" "$d/one_line.cu" || return
  if [ $gold = 0 ]; then
    echo "PASS: $name: built (no ld.gold or readelf here: its linker is not checked)"
  elif gold_note "$work/$name.so"; then
    [ "$want" = 1 ] && echo "PASS: $name: linked by gold" ||
      fail "$name: linked by gold, expected the default linker"
  else
    [ "$want" = 0 ] && echo "PASS: $name: linked by the default linker" ||
      fail "$name: not linked by gold"
  fi
}
module gold 1
export CUEMU_GOLD=0
module default 0
unset CUEMU_GOLD
module user_options 0 -Xlinker -z -Xlinker now

rm -rf "$work"
exit $failed
