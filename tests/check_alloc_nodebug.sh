#!/bin/sh
# check_alloc_nodebug.sh: memcheck's "allocated at" for memory that C code
# without debugging information allocated (a Makefile's C files compiled
# by gcc without -g, linked with a checked .cu unit, as Darknet's are):
# alloc.c's routine calls cudaMalloc, host.c's static function calls it
# and main never frees the buffer. addr2line knows no line of either;
# for host.c's static function it still names the file, from the symbol
# table ("host.c:?"), which the report used to give as the allocation's
# place (the caller's file, not the line that called cudaMalloc). The
# report names the routine that called cudaMalloc and its object and
# offset, and no file without a line. Prints PASS per check. Run by
# `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
toolkit=$builddir/.libs/cuemu-toolkit
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -x "$nvcc" ] || tool_missing check_alloc_nodebug.sh "$nvcc is not built"
[ -f "$toolkit/lib64/libcudart.so" ] ||
  tool_missing check_alloc_nodebug.sh "$toolkit is not built"
[ -f "$cuda/include/cuda_runtime_api.h" ] ||
  tool_missing check_alloc_nodebug.sh "the CUDA toolkit's headers are missing ($cuda/include)"
command -v addr2line >/dev/null 2>&1 ||
  tool_missing check_alloc_nodebug.sh "addr2line (binutils) is missing"

work=$builddir/tests/tmp/check_alloc_nodebug.$$
mkdir -p "$work" || exit 1
d=$srcdir/tests/programs/check_alloc_nodebug
cc=${CC:-gcc}
case $cc in *cuemu*) cc=gcc ;; esac
failed=0

if step fill.o env CUEMU_CC_CHECK=mem "$nvcc" -arch=sm_90 -c "$d/fill.cu" \
  -o fill.o &&
  step alloc.o "$cc" -O2 -I"$cuda/include" -c "$d/alloc.c" -o alloc.o &&
  step host.o "$cc" -O2 -I"$cuda/include" -c "$d/host.c" -o host.o &&
  step link "$cc" -o leaky host.o alloc.o fill.o -L"$toolkit/lib64" \
    -lcudart -lstdc++; then
  # The leak is expected: it would make the exit status 1.
  passes "the program runs, checked" env CUEMU_QUIET=1 CUEMU_CHECK_LEAKS=1 \
    CUEMU_CHECK_EXIT_STATUS=0 ./leaky
  report=$(grep "memcheck: leak:" "$work/the program runs, checked.out")
  case $report in
  "")
    fail "no leak reported" ;;
  *host.c*)
    fail "the leak is placed in host.c, which has no line of it: $report" ;;
  *"allocated at make_device_buffer ("*"leaky+0x"*)
    echo "PASS: the leak names the routine that called cudaMalloc, no file without a line" ;;
  *)
    fail "the leak does not name make_device_buffer and its object: $report" ;;
  esac
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
exit "$failed"
