// Vectorised 128-bit loads and stores through a packed local, the way
// inference kernels are written (sgl-kernel's merge_attn_states, reduced
// from HeCBench's attentionMergeState): a uint4 is loaded whole, its
// elements are read and written through a float, __half or __nv_bfloat16
// pointer to the local, and the local is stored whole. On a GPU the bytes
// written through the element pointer are the ones stored; compiled with
// type-based alias analysis, the element stores to the uint4 local were
// dropped and the pack stored garbage (no diagnostic).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "../check.cuh"

constexpr int kPacks = 96;

__device__ __forceinline__ float to_float(float u) { return u; }
__device__ __forceinline__ float to_float(__half u) { return __half2float(u); }
__device__ __forceinline__ float to_float(__nv_bfloat16 u) {
  return __bfloat162float(u);
}
__device__ __forceinline__ void from_float(float &d, float s) { d = s; }
__device__ __forceinline__ void from_float(__half &d, float s) {
  d = __float2half(s);
}
__device__ __forceinline__ void from_float(__nv_bfloat16 &d, float s) {
  d = __float2bfloat16(s);
}

// out = a * 0.5 + b * 0.25, element by element, one 16-byte pack per thread.
template <typename T>
__global__ void blend_packs(T *__restrict__ out, const T *__restrict__ a,
                            const T *__restrict__ b, int packs) {
  using pack_t = uint4;
  constexpr int kPer = 16 / sizeof(T);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= packs)
    return;
  pack_t pa = reinterpret_cast<const pack_t *>(a)[i];
  pack_t pb = reinterpret_cast<const pack_t *>(b)[i];
  pack_t po;
#pragma unroll
  for (int k = 0; k < kPer; ++k) {
    float x = to_float(reinterpret_cast<const T *>(&pa)[k]);
    float y = to_float(reinterpret_cast<const T *>(&pb)[k]);
    from_float(reinterpret_cast<T *>(&po)[k], x * 0.5f + y * 0.25f);
  }
  reinterpret_cast<pack_t *>(out)[i] = po;
}

// A float4 filled through a float pointer and a 64-bit word assembled
// through its two 32-bit halves: the same rule on other pack types.
__global__ void fill_words(float4 *f4, unsigned long long *u64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 v;
  float *e = reinterpret_cast<float *>(&v);
  for (int k = 0; k < 4; ++k)
    e[k] = (float)(i * 4 + k);
  f4[i] = v;
  unsigned long long w;
  unsigned int *half_words = reinterpret_cast<unsigned int *>(&w);
  half_words[0] = 0x9e3779b9u * (unsigned)i;
  half_words[1] = (unsigned)i;
  u64[i] = w;
}

template <typename T> static float host_to_float(T v);
template <> float host_to_float(float v) { return v; }
template <> float host_to_float(__half v) { return __half2float(v); }
template <> float host_to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T> static T host_from_float(float v);
template <> float host_from_float(float v) { return v; }
template <> __half host_from_float(float v) { return __float2half(v); }
template <> __nv_bfloat16 host_from_float(float v) {
  return __float2bfloat16(v);
}

template <typename T> static int run_blend() {
  constexpr int kPer = 16 / sizeof(T);
  const int n = kPacks * kPer;
  T *a, *b, *out;
  cudaMallocManaged(&a, n * sizeof(T));
  cudaMallocManaged(&b, n * sizeof(T));
  cudaMallocManaged(&out, n * sizeof(T));
  // Small integers and quarters: exact in every type, and so is the blend.
  for (int i = 0; i < n; ++i) {
    a[i] = host_from_float<T>((float)(i % 37) - 18.0f);
    b[i] = host_from_float<T>((float)(i % 11) * 0.25f);
  }
  memset(out, 0xff, n * sizeof(T));
  blend_packs<T><<<(kPacks + 31) / 32, 32>>>(out, a, b, kPacks);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float want = ((float)(i % 37) - 18.0f) * 0.5f + (float)(i % 11) * 0.0625f;
    if (host_to_float(out[i]) != want)
      ++bad;
  }
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
  return bad;
}

int main() {
  CHECK(run_blend<float>() == 0);
  CHECK(run_blend<__half>() == 0);
  CHECK(run_blend<__nv_bfloat16>() == 0);

  const int n = 200;
  float4 *f4;
  unsigned long long *u64;
  cudaMallocManaged(&f4, n * sizeof(float4));
  cudaMallocManaged(&u64, n * sizeof(unsigned long long));
  fill_words<<<(n + 63) / 64, 64>>>(f4, u64, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    if (f4[i].x != i * 4 || f4[i].y != i * 4 + 1 || f4[i].z != i * 4 + 2 ||
        f4[i].w != i * 4 + 3)
      ++bad;
    unsigned long long want =
        ((unsigned long long)(unsigned)i << 32) | (0x9e3779b9u * (unsigned)i);
    if (u64[i] != want)
      ++bad;
  }
  CHECK(bad == 0);
  cudaFree(f4);
  cudaFree(u64);
  return finish();
}
