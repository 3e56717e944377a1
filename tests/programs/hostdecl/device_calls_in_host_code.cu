// device_calls_in_host_code.cu: host code that names device-only functions
// without calling them, as nvcc's host compile sees it: __device__ lambdas
// of host functions (compiled by the host pass, which reads only the
// declarations of the device-only shims: cuemu_host_decls.h) that shuffle,
// vote, add atomically, count bits, add per halfword, read through __ldg
// and wait at barriers, passed to a kernel template; and a __host__
// __device__ function whose device branch (__CUDA_ARCH__) uses
// intrinsics, called from both sides. Each result is checked against
// values worked out on the host.
// CUEMU_OPTIONS: --extended-lambda
// NVCC_OPTIONS: --extended-lambda
#include <cuda_runtime.h>

#include "../check.cuh"

template <typename F>
__global__ void each_thread(unsigned *out, const unsigned *in, F f) {
  f(out, in, blockIdx.x * blockDim.x + threadIdx.x);
}

// Bits set in x: __popc in device code, a loop on the host.
__host__ __device__ inline int bits_of(unsigned x) {
#ifdef __CUDA_ARCH__
  return __popc(x);
#else
  int n = 0;
  for (; x; x &= x - 1)
    ++n;
  return n;
#endif
}

static void warp_sums(unsigned *out, const unsigned *in) {
  // Each warp's sum of in[], by shuffles, in its lane 0's slot.
  each_thread<<<2, 64>>>(out, in, [] __device__(unsigned *o, const unsigned *v,
                                                unsigned i) {
    unsigned s = __ldg(&v[i]);
    for (int d = 16; d > 0; d /= 2)
      s += __shfl_down_sync(0xffffffffu, s, d);
    o[i] = (i % 32 == 0) ? s : 0;
  });
}

static void counts(unsigned *out, const unsigned *in) {
  // out[0]: how many values are odd (atomics after a ballot per warp);
  // out[1 + i]: bits of in[i] plus the halfword sum of in[i] with itself.
  each_thread<<<1, 128>>>(out, in, [] __device__(unsigned *o,
                                                 const unsigned *v,
                                                 unsigned i) {
    unsigned odd = __ballot_sync(0xffffffffu, v[i] & 1u);
    __syncthreads();
    if (i % 32 == 0)
      atomicAdd(&o[0], (unsigned)__popc(odd));
    o[1 + i] = (unsigned)bits_of(v[i]) + __vadd2(v[i], v[i]);
  });
}

int main() {
  const int n = 128;
  unsigned host_in[n], host_out[n + 1];
  for (int i = 0; i < n; ++i)
    host_in[i] = 0x00018001u * (unsigned)(i + 1) ^ (unsigned)(i * 7);
  unsigned *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaMalloc(&out, (n + 1) * sizeof(unsigned)) == cudaSuccess);
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);

  cudaMemset(out, 0, (n + 1) * sizeof(unsigned));
  warp_sums(out, in);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(host_out, out, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  for (int w = 0; w < n / 32; ++w) {
    unsigned sum = 0;
    for (int l = 0; l < 32; ++l)
      sum += host_in[w * 32 + l];
    CHECK(host_out[w * 32] == sum);
    CHECK(host_out[w * 32 + 5] == 0);
  }

  cudaMemset(out, 0, (n + 1) * sizeof(unsigned));
  counts(out, in);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  unsigned odd = 0;
  for (int i = 0; i < n; ++i) {
    odd += host_in[i] & 1u;
    // Halfwords added separately, each wrapping at 16 bits.
    unsigned lo = (host_in[i] * 2u) & 0xffffu;
    unsigned hi = ((host_in[i] >> 16) * 2u) & 0xffffu;
    CHECK(host_out[1 + i] == (unsigned)bits_of(host_in[i]) + (hi << 16 | lo));
  }
  CHECK(host_out[0] == odd);
  CHECK(bits_of(0xf0f0u) == 8);

  cudaFree(in);
  cudaFree(out);
  return finish();
}
