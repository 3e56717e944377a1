#!/bin/sh
# driver_devlibc_calls.sh: calls of the C and C++ libraries' functions from
# device code, their headers included, with cuemu-nvcc as with nvcc 13
# (docs/nvcc-checks.md, "C library functions in device code").
# tests/driver/devlibc/calls.txt lists about 75 calls (strcmp, strlen,
# atoi, rand, toupper, fopen, snprintf, time; printf, malloc, memcpy,
# clock, the math API; their std:: names), each made from a __global__, a
# __device__ and a __host__ __device__ function, with nvcc's verdict and
# cuemu-nvcc's: nvcc refuses a C library function that CUDA does not
# declare for device code ("calling a __host__ function("strcmp") from a
# __global__ function("k") is not allowed"), and so does cuemu's compiler
# plugin (cuemu_space_rules.h). tests/driver/implicit/probe_verdicts.py
# compiles the calls in one unit and compares each verdict with the
# table's, with g++ and with -ccbin clang++; with nvcc present, nvcc's are
# checked too (recorded in tests/nvcc_builds.txt, so not again from the
# same bytes). Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_devlibc_calls.sh "$nvcc is not built"

table=$srcdir/tests/driver/devlibc/calls.txt
probe=$srcdir/tests/driver/implicit/probe_verdicts.py
work=$builddir_abs/tests/tmp/driver_devlibc_calls.$$
failed=0

# The cache is not used: a hit compiles nothing. The host compiler's -O0
# shortens the compiles (the plugin judges the calls before any
# optimization).
mkdir -p "$work/g++" || exit 1
CUEMU_NO_CACHE=1 "${PYTHON:-python3}" "$probe" check g++ "$table" \
  "$work/g++" -- "$nvcc" -Xcompiler -O0 -c -o probe.o || failed=1

# clang++ stops at 20 errors, which would take a compile per 20 refused
# lines.
if command -v "${CLANGXX:-clang++}" >/dev/null 2>&1; then
  mkdir -p "$work/clang++"
  CUEMU_NO_CACHE=1 "${PYTHON:-python3}" "$probe" check clang++ "$table" \
    "$work/clang++" -- "$nvcc" -ccbin "${CLANGXX:-clang++}" \
    -Xcompiler -ferror-limit=0 -Xcompiler -O0 -c -o probe.o || failed=1
else
  echo "SKIP: clang++ is missing"
fi

# nvcc's words at the user's line, the callee named bare, with each host
# compiler (and with nvcc, where it is present).
expect_words() { # TOOL LOG
  for words in \
    'message.cu[:(]7[:)].*calling a __host__ function("atoi") from a __device__ function("parse") is not allowed' \
    'message.cu[:(]11[:)].*calling a __host__ function("strcmp") from a __global__ function("compare") is not allowed'; do
    grep -q "$words" "$2" || { echo "FAIL: $1 does not say $words:"; cat "$2"; failed=1; }
  done
}
msg=$srcdir/tests/driver/devlibc/message.cu
CUEMU_NO_CACHE=1 "$nvcc" -c -o "$work/message.o" "$msg" >"$work/g++.log" 2>&1
expect_words g++ "$work/g++.log"
if command -v "${CLANGXX:-clang++}" >/dev/null 2>&1; then
  CUEMU_NO_CACHE=1 "$nvcc" -ccbin "${CLANGXX:-clang++}" -c \
    -o "$work/message.o" "$msg" >"$work/clang++.log" 2>&1
  expect_words clang++ "$work/clang++.log"
fi

# nvcc's verdicts, where it is present.
real=$(find_nvcc)
if [ -n "$real" ]; then
  mkdir -p "$work/nvcc"
  (cd "$work" && nvcc_build driver_devlibc_calls.sh:nvcc \
    "${PYTHON:-python3}" "$probe" check nvcc "$table" "$work/nvcc" -- \
    "$real" -c -o probe.o) ||
    fail "nvcc's verdicts are not the table's: the table is wrong"
  "$real" -c -o "$work/message.o" "$msg" >"$work/nvcc.log" 2>&1
  expect_words nvcc "$work/nvcc.log"
fi

[ "$failed" = 0 ] && rm -rf "$work"
exit "$failed"
