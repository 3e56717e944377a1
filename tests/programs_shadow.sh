#!/bin/sh
# programs_shadow.sh: host code's own objects (shadows) of __device__ and
# __constant__ variables, as nvcc has them (README.md, "Two passes").
# tests/programs/shadow/shadow_main.cu's host code reads the initial values
# of plain, static, unnamed-namespace, const and template variables and of a
# __constant__ array of structs after its kernel changed them, writes one
# that its kernel does not see, reaches the device's objects through
# cudaMemcpyToSymbol[Async], cudaMemcpyFromSymbol, cudaGetSymbolAddress and
# cudaGetSymbolSize, gets cudaErrorInvalidValue for cudaMemset of a host
# object's address, and shares a __managed__ variable with its kernel.
# Built whole, with -rdc=true and shadow_other.cu (which defines the
# variable that the main unit declares `extern`: one host object of both
# units), as -dc objects linked apart, and with clang++ as the host
# compiler. Before: host code read and wrote the device's objects. A
# shared library with a variable of its own (shadow_lib.cu), loaded and
# unloaded by shadow_dlopen.cu. Another unit's __constant__ table named by
# a plain `extern` of another type (extern_other_type_main.cu, a pointer):
# the symbol calls are bounded by the table's own size, as by CUDA (before:
# by the pointer's, cudaErrorInvalidValue; a public ray tracer).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing programs_shadow.sh "$nvcc is not built"
d=$srcdir/tests/programs/shadow
work=$builddir/tests/tmp/programs_shadow.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
export CUEMU_QUIET=1

step whole "$nvcc" "$d/shadow_main.cu" -o whole &&
  passes whole ./whole
step rdc "$nvcc" -rdc=true -DSHADOW_RDC "$d/shadow_main.cu" \
  "$d/shadow_other.cu" -o rdc &&
  passes rdc ./rdc
step dc-main "$nvcc" -dc -DSHADOW_RDC "$d/shadow_main.cu" -o main.o &&
  step dc-other "$nvcc" -dc "$d/shadow_other.cu" -o other.o &&
  step dc-link "$nvcc" main.o other.o -o dc &&
  passes dc-objects ./dc
step extern-type "$nvcc" -rdc=true "$d/extern_other_type_main.cu" \
  "$d/extern_other_type_table.cu" -o extern_type &&
  passes extern-type ./extern_type
if command -v clang++ >/dev/null 2>&1; then
  step clang "$nvcc" -ccbin clang++ -rdc=true -DSHADOW_RDC \
    "$d/shadow_main.cu" "$d/shadow_other.cu" -o clang &&
    passes clang++ ./clang
fi
# A shared library's host objects, loaded and unloaded by a program that
# then reaches its own variable (before the library's records were
# forgotten at its unload: a lookup read the unmapped records).
step lib "$nvcc" -shared -Xcompiler -fPIC "$d/shadow_lib.cu" \
  -o libshadow.so &&
  step dlopen "$nvcc" "$d/shadow_dlopen.cu" -ldl -o dlopen_main &&
  passes dlopen ./dlopen_main "$work/libshadow.so"

# The same two units with -rdc=true, by the real nvcc where there is one.
real=$(find_nvcc)
if [ -n "$real" ]; then
  step nvcc nvcc_build programs_shadow.sh:rdc "$real" -std=c++17 \
    -arch=sm_90 -rdc=true -DSHADOW_RDC "$d/shadow_main.cu" \
    "$d/shadow_other.cu" -o rdc_nvcc &&
    echo "PASS: nvcc builds the -rdc=true program"
fi

[ "$failed" -eq 0 ]
