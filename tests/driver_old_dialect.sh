#!/bin/sh
# driver_old_dialect.sh: -std=c++11 and -std=c++03, which cuemu-nvcc
# compiles as C++14 (docs/dialects.md), still refuse what nvcc refuses
# where cuemu can tell (issue 13): a generic lambda of the user's is an
# error at its file and line (tests/driver/cc13c/generic_lambda.cu with
# -DGENERIC, line 19), while the translation's own generic lambdas (a
# kernel template launched with deduced arguments) are not; the program
# without it builds and runs under -std=c++11; with -std=c++14 the generic
# lambda builds and runs. With nvcc present, it is checked to agree.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cuemu=$builddir_abs/cuemu-nvcc
src=$srcdir/tests/driver/cc13c/generic_lambda.cu
work=$(mktemp -d)
failed=0
real=$(find_nvcc)

if step c11 "$cuemu" -std=c++11 -o c11 "$src"; then
  out=$("$work/c11" 2>&1)
  [ "$out" = 42 ] && echo "PASS: C++11 code with a deduced kernel launch builds under -std=c++11" ||
    fail "-std=c++11: '$out'"
fi

if (cd "$work" && "$cuemu" -std=c++11 -DGENERIC -o g11 "$src") >"$work/g11.log" 2>&1; then
  fail "-std=c++11 accepts a generic lambda"
elif grep -q "generic_lambda.cu:19:.*error: a generic lambda.*-std=c++11" "$work/g11.log"; then
  echo "PASS: a generic lambda under -std=c++11 is an error at its line"
else
  fail "-std=c++11 -DGENERIC: $(cat "$work/g11.log")"
fi

if step g14 "$cuemu" -std=c++14 -DGENERIC -o g14 "$src"; then
  out=$("$work/g14" 2>&1 | tr '\n' ' ')
  [ "$out" = "82 42 " ] && echo "PASS: the generic lambda builds and runs under -std=c++14" ||
    fail "-std=c++14 -DGENERIC: '$out'"
fi

if [ -n "$real" ]; then
  (cd "$work" && "$real" -arch=sm_90 -std=c++11 -c -o x.o "$src") >/dev/null 2>&1 ||
    fail "nvcc -std=c++11 refuses $src"
  (cd "$work" && "$real" -arch=sm_90 -std=c++11 -DGENERIC -c -o x.o "$src") \
    >/dev/null 2>&1 && fail "nvcc -std=c++11 accepts the generic lambda"
fi

rm -rf "$work"
exit $failed
