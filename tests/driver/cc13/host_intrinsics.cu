// host_intrinsics.cu: host code that calls CUDA's device-only intrinsics,
// which nvcc refuses ("calling a __device__ function("__sinf") from a
// __host__ function("main") is not allowed"), one a line (each marked
// `refused`; the integer conversions of <cuda_fp16.h> and <cuda_bf16.h>
// that round to nearest, down or up, and bfloat16's from integers that
// round other than to nearest, are device-only too, and so are CUDA's norms,
// rhypot and the modified Bessel functions cyl_bessel_i0/i1, and so are
// the address-space predicates __isGlobal, __isShared, ... and the
// conversions __cvta_generic_to_shared and its kin);
// the kernel and the __host__ __device__ function call them in device code
// only, which both accept.
#include <cstdio>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

int host_calls(float x) {
  int sum = 0;
#ifndef DEVICE_ONLY_CALLS
  sum += __float_as_int(x); // refused
  sum += static_cast<int>(__int_as_float(3)); // refused
  sum += static_cast<int>(__uint_as_float(3u)); // refused
  sum += static_cast<int>(__longlong_as_double(1ll)); // refused
  sum += static_cast<int>(__fdividef(x, 2.0f)); // refused
  sum += static_cast<int>(__sinf(x)); // refused
  sum += static_cast<int>(__expf(x)); // refused
  sum += static_cast<int>(__powf(x, 2.0f)); // refused
  sum += static_cast<int>(__saturatef(x)); // refused
  sum += __float2int_rn(x); // refused
  sum += static_cast<int>(__fmaf_rn(x, x, x)); // refused
  sum += static_cast<int>(__fsqrt_rn(x)); // refused
  sum += static_cast<int>(__double2float_rd(1.0)); // refused
  sum += __popc(3u); // refused
  sum += __clz(1); // refused
  sum += static_cast<int>(__half2float(hsqrt(__float2half(x)))); // refused
  sum += static_cast<int>(__bfloat162float(hexp(__float2bfloat16(x)))); // refused
  sum += static_cast<int>(__low2float(h2sqrt(__float2half2_rn(x)))); // refused
  sum += static_cast<int>(__half2float(__hfma(__float2half(x), __float2half(x), __float2half(x)))); // refused
  sum += __half2int_rn(__float2half(x)); // refused
  sum += static_cast<int>(__half2ll_rd(__float2half(x))); // refused
  sum += static_cast<int>(__half2ull_ru(__float2half(x))); // refused
  sum += __bfloat162short_rn(__float2bfloat16(x)); // refused
  sum += static_cast<int>(__bfloat162uint_rd(__float2bfloat16(x))); // refused
  sum += static_cast<int>(__bfloat162float(__int2bfloat16_rz(3))); // refused
  sum += static_cast<int>(__bfloat162float(__ull2bfloat16_ru(3ull))); // refused
  sum += static_cast<int>(norm3d(x, x, 1.0)); // refused
  sum += static_cast<int>(rnorm4df(x, x, x, 1.0f)); // refused
  sum += static_cast<int>(rhypotf(x, 1.0f)); // refused
  sum += static_cast<int>(cyl_bessel_i0(x)); // refused
  sum += static_cast<int>(normf(1, &x)); // refused
  sum += static_cast<int>(__isGlobal(&x)); // refused
  sum += static_cast<int>(__isShared(&x)); // refused
  sum += static_cast<int>(__isCtaShared(&x)); // refused
  sum += static_cast<int>(__isClusterShared(&x)); // refused
  sum += static_cast<int>(__isConstant(&x)); // refused
  sum += static_cast<int>(__isLocal(&x)); // refused
  sum += static_cast<int>(__isGridConstant(&x)); // refused
  sum += static_cast<int>(__cvta_generic_to_global(&x)); // refused
  sum += static_cast<int>(__cvta_generic_to_shared(&x)); // refused
  sum += static_cast<int>(__cvta_generic_to_constant(&x)); // refused
  sum += static_cast<int>(__cvta_generic_to_local(&x)); // refused
  sum += static_cast<int>(__cvta_generic_to_grid_constant(&x)); // refused
  sum += __cvta_global_to_generic(8) != nullptr; // refused
  sum += __cvta_shared_to_generic(8) != nullptr; // refused
  sum += __cvta_constant_to_generic(8) != nullptr; // refused
  sum += __cvta_local_to_generic(8) != nullptr; // refused
  sum += __cvta_grid_constant_to_generic(8) != nullptr; // refused
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
  out[0] = either(x) + __popc(7u) + static_cast<int>(__sinf(0.0f)) +
           __half2int_rn(__float2half(2.5f)) +
           static_cast<int>(__bfloat162float(__int2bfloat16_rz(257))) +
           static_cast<int>(__isGlobal(out)) +
           static_cast<int>(__cvta_generic_to_global(out) != 0);
}

int main() {
  int *out;
  cudaMallocManaged(&out, sizeof(int));
  device_calls<<<1, 1>>>(8.0f, out);
  cudaDeviceSynchronize();
  /* __saturatef(8) = 1.0f (0x3f800000), __float2int_rz(4) = 4, __popc(7) = 3,
   * __half2int_rn(2.5) = 2 (a tie to even), __int2bfloat16_rz(257) = 256;
   * managed memory is in the global space, whose address is not 0. */
  const int want = 0x3f800000 + 4 + 3 + 2 + 256 + 1 + 1;
  /* Conversions that CUDA declares __host__ __device__ stay host code:
   * to integers toward zero, from integers to half in every mode, to
   * bfloat16 rounded to nearest. */
  const float back = __half2float(__float2half(2.5f)) +
                     __bfloat162float(__float2bfloat16(0.5f));
  const long long ints = __half2int_rz(__float2half(-2.5f)) +
                         __bfloat162ll_rz(__float2bfloat16(7.75f)) +
                         static_cast<long long>(__half2ull_rz(__float2half(3.5f)));
  const float from_ints = __half2float(__int2half_rd(2049)) +
                          __half2float(__ll2half_ru(2049ll)) +
                          __bfloat162float(__int2bfloat16_rn(257));
  /* -2 + 7 + 3; 2048 + 2050 + 256 (2049 between half's neighbours 2048
   * and 2050, 257 a tie to even between bfloat16's 256 and 258). */
  const bool ok = out[0] == want && either(1.0f) == 0 && back == 3.0f &&
                  ints == 8 && from_ints == 4354.0f;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return (ok ? 0 : 1) + host_calls(0.0f) * 0;
}
