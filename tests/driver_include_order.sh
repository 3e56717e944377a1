#!/bin/sh
# driver_include_order.sh: the toolkit's library headers (cublas_v2.h,
# cublasLt.h, cufft.h, curand.h, cusparse.h, nvrtc.h) included before and
# after the CUDA headers that cuemu shadows (cuComplex.h, vector_types.h,
# cuda_fp16.h, cuda_bf16.h, math_constants.h, cuda_runtime.h): both orders
# build and run (tests/driver/include_order/include_order.cu). cublas_api.h
# includes the toolkit's "cuComplex.h" from its own folder, which made a
# later <cuComplex.h> a "redefinition of cuCrealf". With nvcc present, it
# is checked to build both orders too.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_include_order.sh "$nvcc is not built"
real=$(find_nvcc 2>/dev/null)
[ -n "$real" ] || [ -f /usr/local/cuda/include/cublas_api.h ] ||
  tool_missing driver_include_order.sh "no CUDA toolkit headers (cublas_api.h)"

work=$builddir_abs/tests/tmp/driver_include_order.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/driver/include_order/include_order.cu

step libs-first "$nvcc" -o libs_first "$src" &&
  passes "the library headers before cuemu's: builds and runs" ./libs_first
step cuemu-first "$nvcc" -DCUEMU_HEADERS_FIRST -o cuemu_first "$src" &&
  passes "cuemu's headers before the library headers: builds and runs" ./cuemu_first

if [ -n "$real" ]; then
  for order in "" -DCUEMU_HEADERS_FIRST; do
    (cd "$work" && "$real" -std=c++17 -arch=sm_90 $order -c -o nv.o "$src") \
      >"$work/nvcc.log" 2>&1 ||
      fail "nvcc refuses include_order.cu $order (the test is wrong): $(head -5 "$work/nvcc.log")"
  done
fi

rm -rf "$work"
exit "$failed"
