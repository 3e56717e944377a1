#!/bin/sh
# driver_unused_library.sh: a library of CUDA's toolkit that cuemu does not
# emulate (cuSOLVERMg, NVBLAS) named on a link line but not used, as
# CUDALibrarySamples' cuSOLVER CMake helper names cusolverMg for every
# example: cuemu-nvcc links the program without it, by -l and by its path,
# and so does cuemu-host-link (CMake's link of CUDA targets) from a
# response file, where -lcusolver and the other emulated libraries are
# cuemu's; the program runs (tests/driver/unused_library/unused.cu). A program
# that calls it fails to link with a message naming the library (used.cu).
# nvcc builds both.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
lib64=$builddir_abs/.libs/cuemu-toolkit/lib64
p=$srcdir/tests/driver/unused_library
work=$builddir_abs/tests/tmp/driver_unused_library.$$
mkdir -p "$work" || exit 1
failed=0

step unused-l "$nvcc" "$p/unused.cu" -o unused_l -lcusolver -lcublasLt \
  -lcusolverMg -lnvblas &&
  passes "an unused -lcusolverMg and -lnvblas are left out of the link" ./unused_l
step unused-path "$nvcc" "$p/unused.cu" -o unused_path -lcusolver \
  "$lib64/libcusolverMg.so" &&
  passes "an unused libcusolverMg.so named by its path is left out of the link" ./unused_path

# The link that CMake runs for a CUDA target: cuemu-host-link with the
# libraries in a response file (its linkLibs.rsp), quoted as CMake quotes.
step unused-object "$nvcc" -c "$p/unused.cu" -o unused.o &&
  printf ' "%s" "%s" -L"%s" -lnvblas\n' "$lib64/libcusolver.so" \
    "$lib64/libcusolverMg.so" "$lib64" >"$work/libs.rsp" &&
  step unused-host-link "$builddir_abs/cuemu-host-link" unused.o -o unused_rsp \
    @libs.rsp &&
  passes "unused libraries in a response file of cuemu-host-link are left out" ./unused_rsp
# The names that CUDALibrarySamples' cuSOLVER helper gives (-lcusolver
# -lcublas -lcublasLt -lcusparse -lcusolverMg): cuemu's libraries, not
# NVIDIA's that the host compiler may find (whose cusolverDnCreate fails
# without a GPU), and cuSOLVERMg left out.
printf ' -lcusolver -lcublas -lcublasLt -lcusparse -lcusolverMg \n' \
  >"$work/names.rsp"
[ -f "$work/unused.o" ] &&
  step names-host-link "$builddir_abs/cuemu-host-link" unused.o -o unused_names \
    @names.rsp &&
  passes "-lcusolver and the others in a response file of cuemu-host-link link cuemu's libraries" ./unused_names

if (cd "$work" && "$nvcc" "$p/used.cu" -o used -lcusolverMg) \
  >"$work/used.log" 2>&1; then
  fail "a program calling cusolverMgCreate linked"
elif grep -q "libcusolverMg (cuSOLVERMg) is not emulated by cuemu" \
  "$work/used.log"; then
  echo "PASS: a program calling cuSOLVERMg fails to link, naming the library"
else
  fail "used.cu: no message naming libcusolverMg: $(tail -3 "$work/used.log")"
fi

if [ -n "$(find_nvcc)" ]; then
  (cd "$work" && nvcc_build driver_unused_library.sh:unused "$(find_nvcc)" \
    "$p/unused.cu" -o nv_unused -lcusolver -lcublasLt -lcusolverMg -lnvblas) ||
    fail "nvcc: unused.cu"
  (cd "$work" && nvcc_build driver_unused_library.sh:used "$(find_nvcc)" \
    "$p/used.cu" -o nv_used -lcusolverMg) || fail "nvcc: used.cu"
else
  echo "SKIP: nvcc builds: no nvcc"
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
[ "$failed" -eq 0 ]
