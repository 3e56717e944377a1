/*
 * cuemu_device_code.c: what the device pass refuses in the bodies of
 * __global__ and __device__ functions, as nvcc does: a kernel launch
 * without relocatable device code (-rdc=true, -dc), and
 * cudaDeviceSynchronize, which CUDA 12 removed from the device runtime.
 */
#include "cuemu_rewriter.h"

cuemu_status cuemu__device_code_check(cuemu_rewriter *rw, size_t i) {
  int line = rw->toks[i].line;
  if (rw->pass == CUEMU_PASS_HOST)
    return CUEMU_SUCCESS;
  if (cuemu__rw_is(rw, i, "<")) {
    if (rw->pass == CUEMU_PASS_DEVICE && !rw->rdc)
      return cuemu__rw_error(
          rw, line,
          "kernel launch from __device__ or __global__ functions requires "
          "separate compilation mode (-rdc=true or -dc), as with nvcc");
    return CUEMU_SUCCESS;
  }
  if (cuemu__rw_is(rw, i, "cudaDeviceSynchronize") &&
      cuemu__rw_is(rw, i + 1, "(") &&
      !(i > 0 && (cuemu__rw_is(rw, i - 1, ".") ||
                  cuemu__rw_is(rw, i - 1, "->"))))
    return cuemu__rw_error(
        rw, line,
        "calling a __host__ function(\"cudaDeviceSynchronize\") from device "
        "code is not allowed: CUDA 12 removed it from the device runtime, "
        "as nvcc says (a child grid always completes before its parent; "
        "launch into cudaStreamTailLaunch to run work after the parent)");
  return CUEMU_SUCCESS;
}
