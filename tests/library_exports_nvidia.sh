#!/bin/sh
# library_exports_nvidia.sh: every function that cuemu's CUDA libraries
# export under NVIDIA's names (cublas*, cublasLt*, cusparse*, cusolver*,
# cufft*, curand*) is one that NVIDIA's own library of the toolkit exports
# too. A header may declare functions that the library lacks
# (cublasLtDisableCpuInstructionsSetMask, cusparse?csrilu02_bufferSizeExt):
# a program calling one fails to link with nvcc, so it must fail with
# cuemu-nvcc too, not pass. Skipped without nm or the toolkit's libraries.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"

command -v nm >/dev/null 2>&1 || tool_missing library_exports_nvidia.sh "nm is missing"
lib64=${CUDA_HOME:-/usr/local/cuda}/lib64
[ -f "$lib64/libcusparse.so" ] ||
  tool_missing library_exports_nvidia.sh "the toolkit's libraries are missing ($lib64)"
work=${builddir}/tests/tmp/library_exports_nvidia.$$
mkdir -p "$work" || exit 1
failed=0

# exports LIBRARY: the functions a shared library defines, one a line.
exports() {
  nm -D --defined-only "$1" | awk '$2 == "T" || $2 == "W" { sub(/@.*/, "", $3); print $3 }' |
    LC_ALL=C sort -u
}

# check CUEMU_LIBRARY NVIDIA_LIBRARY PATTERN: cuemu's exports that match
# PATTERN (an extended regular expression) are all NVIDIA's.
check() {
  [ -f "$builddir/.libs/$1" ] || { fail "$1 is not built"; return; }
  exports "$lib64/$2" >"$work/nvidia"
  exports "$builddir/.libs/$1" | grep -E "$3" >"$work/cuemu"
  extra=$(LC_ALL=C comm -23 "$work/cuemu" "$work/nvidia")
  if [ -n "$extra" ]; then
    fail "$1 exports what NVIDIA's $2 does not: $(echo $extra)"
  else
    echo "PASS: $1's $(wc -l <"$work/cuemu") functions matching $3 are all in $2"
  fi
}

check libcuemu_cublas.so libcublas.so '^cublas([^L]|L[^t])'
check libcuemu_cublas.so libcublasLt.so '^cublasLt'
check libcuemu_cusparse.so libcusparse.so '^cusparse'
check libcuemu_cusolver.so libcusolver.so '^cusolver'
check libcuemu_cufft.so libcufft.so '^cufft'
check libcuemu_curand.so libcurand.so '^curand'

rm -rf "$work"
exit "$failed"
