// host_intrinsics.cu: host code that calls CUDA's device-only intrinsics,
// which nvcc refuses ("calling a __device__ function("__sinf") from a
// __host__ function("main") is not allowed"), one a line from line 13 on;
// the kernel and the __host__ __device__ function call them in device code
// only, which both accept.
#include <cstdio>

#include <cuda_runtime.h>

int host_calls(float x) {
  int sum = 0;
#ifndef DEVICE_ONLY_CALLS
  sum += __float_as_int(x);
  sum += static_cast<int>(__int_as_float(3));
  sum += static_cast<int>(__uint_as_float(3u));
  sum += static_cast<int>(__longlong_as_double(1ll));
  sum += static_cast<int>(__fdividef(x, 2.0f));
  sum += static_cast<int>(__sinf(x));
  sum += static_cast<int>(__expf(x));
  sum += static_cast<int>(__powf(x, 2.0f));
  sum += static_cast<int>(__saturatef(x));
  sum += __float2int_rn(x);
  sum += static_cast<int>(__fmaf_rn(x, x, x));
  sum += static_cast<int>(__fsqrt_rn(x));
  sum += static_cast<int>(__double2float_rd(1.0));
  sum += __popc(3u);
  sum += __clz(1);
#endif
  return sum;
}

__host__ __device__ int either(float x) {
#ifdef __CUDA_ARCH__
  return __float_as_int(__saturatef(x)) + __float2int_rz(__fdividef(x, 2.0f));
#else
  return 0;
#endif
}

__global__ void device_calls(float x, int *out) {
  out[0] = either(x) + __popc(7u) + static_cast<int>(__sinf(0.0f));
}

int main() {
  int *out;
  cudaMallocManaged(&out, sizeof(int));
  device_calls<<<1, 1>>>(8.0f, out);
  cudaDeviceSynchronize();
  /* __saturatef(8) = 1.0f (0x3f800000), __float2int_rz(4) = 4, __popc(7) = 3. */
  const int want = 0x3f800000 + 4 + 3;
  std::printf("%s\n", out[0] == want && either(1.0f) == 0 ? "PASS" : "FAIL");
  return (out[0] == want ? 0 : 1) + host_calls(0.0f) * 0;
}
