// The less common fragments and helpers of ML kernels, each checked
// against the host: wmma shapes m32n8k16 and m8n32k16 (f16 -> f32, C stored
// column major), s8 and u8 with int accumulators (a C loaded, satf),
// m8n8k4 doubles and tf32 m16n16k8 with __float_to_tf32; the thread-scope
// cuda::pipeline with cuda::pipeline_consumer_wait_prior and the
// <cuda_pipeline.h> primitives; __half, __half2 and __nv_bfloat16 through
// __shfl_*_sync, make_bfloat162 and bf162 operators, atomicAdd of __half2
// and __nv_bfloat162, CUDART_INF_FP16 and cuda::std::numeric_limits of
// __half and __nv_bfloat16; fp8 x2 and x4 types from float2/float4 and the
// scalar types from __half, __nv_bfloat16 and int, converted back; host
// arithmetic on the 16-bit types, as host references do. All
// passed with cuemu-nvcc as written (a u8 B loaded with ldm 8, which the
// CUDA docs refuse, was reported by cuemu and fixed in the program).
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cuda/std/limits>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

using namespace nvcuda;
namespace cg = cooperative_groups;

template <int M, int N, int K>
__global__ void wmma_shape(float *C, const __half *A, const __half *B) {
  wmma::fragment<wmma::matrix_a, M, N, K, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, M, N, K, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, M, N, K, float> c;
  wmma::fill_fragment(c, 1.0f);
  wmma::load_matrix_sync(a, A, K);
  wmma::load_matrix_sync(b, B, N);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(C, c, M, wmma::mem_col_major);
}

__global__ void wmma_int8(int *C, const signed char *A, const signed char *B) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
  wmma::fill_fragment(c, 0);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(c, a, b, c, true);
  wmma::store_matrix_sync(C, c, 16, wmma::mem_row_major);
}

__global__ void wmma_u8(int *C, const unsigned char *A, const unsigned char *B) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 32, 8, 16, int> c;
  wmma::load_matrix_sync(c, C, 8, wmma::mem_row_major);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(C, c, 8, wmma::mem_row_major);
}

__global__ void wmma_double(double *C, const double *A, const double *B) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> c;
  wmma::fill_fragment(c, 0.5);
  wmma::load_matrix_sync(a, A, 4);
  wmma::load_matrix_sync(b, B, 8);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(C, c, 8, wmma::mem_row_major);
}

__global__ void wmma_tf32(float *C, const float *A, const float *B) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
  wmma::fill_fragment(c, 0.f);
  wmma::load_matrix_sync(a, A, 8);
  wmma::load_matrix_sync(b, B, 8);
  for (int i = 0; i < a.num_elements; ++i) a.x[i] = wmma::__float_to_tf32(a.x[i]);
  for (int i = 0; i < b.num_elements; ++i) b.x[i] = wmma::__float_to_tf32(b.x[i]);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(C, c, 16, wmma::mem_row_major);
}

// The primitives API of <cuda_pipeline.h> via <cuda/pipeline> and the
// thread-scope pipeline with consumer_wait_prior.
__global__ void pipeline_prims(float *out, const float *in, int n) {
  __shared__ __align__(16) float buf[4][128];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int s = 0; s < 4; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[s][threadIdx.x], &in[s * 128 + threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
  }
  cuda::pipeline_consumer_wait_prior<2>(pipe);
  float r = buf[0][threadIdx.x] + buf[1][threadIdx.x];
  pipe.consumer_release();
  pipe.consumer_release();
  pipe.consumer_wait();
  r += buf[2][threadIdx.x];
  pipe.consumer_release();
  pipe.consumer_wait();
  r += buf[3][threadIdx.x];
  pipe.consumer_release();
  __pipeline_memcpy_async(&buf[0][threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = r + buf[0][threadIdx.x];
}

__global__ void half_misc(float *out, __half2 *acc, __nv_bfloat162 *bacc) {
  const int lane = threadIdx.x;
  __half h = __float2half(float(lane));
  __half2 h2 = __halves2half2(h, __hneg(h));
  h2 = __shfl_xor_sync(0xffffffffu, h2, 1);
  h = __shfl_down_sync(0xffffffffu, h, 2);
  __nv_bfloat16 b = __float2bfloat16(lane * 0.5f);
  b = __shfl_xor_sync(0xffffffffu, b, 3);
  __nv_bfloat162 b2 = make_bfloat162(b, __float2bfloat16(1.f));
  __nv_bfloat162 b3 = b2 * b2 + b2;
  atomicAdd(acc, h2);
  atomicAdd(bacc, b3);
  const __half inf = CUDART_INF_FP16;
  const __half mx = cuda::std::numeric_limits<__half>::max();
  const __nv_bfloat16 bl = cuda::std::numeric_limits<__nv_bfloat16>::lowest();
  out[lane] = __half2float(h) + __bfloat162float(b) + (__hisinf(inf) ? 1000.f : 0.f) + __half2float(mx) +
              __bfloat162float(bl);
}

__global__ void fp8_misc(float *out) {
  const int i = threadIdx.x;
  __nv_fp8x2_e4m3 p(make_float2(i * 0.5f, -i * 0.25f));
  float2 f = static_cast<float2>(p);
  __nv_fp8x4_e5m2 q(make_float4(i, i + 1, i + 2, i + 3));
  float4 g = static_cast<float4>(q);
  __nv_fp8_e4m3 h(__float2half(i * 3.f));
  __half hh = static_cast<__half>(h);
  __nv_fp8_e5m2 z(__float2bfloat16(i * 7.f));
  __nv_bfloat16 zb = static_cast<__nv_bfloat16>(z);
  __nv_fp8_e4m3 k(i);  // from int
  int ki = static_cast<int>(k);
  out[i] = f.x + f.y + g.x + g.w + __half2float(hh) + __bfloat162float(zb) + ki;
}


// Host code of ML programs uses the 16-bit types as numbers: the typedefs
// half and nv_bfloat16, conversions from and to float without a cast,
// operators on scalars and pairs, comparisons, and the conversions that
// CUDA declares __host__ __device__ (an int toward zero, from an int).
static bool host_half_arithmetic() {
  half a = 1.5f;
  nv_bfloat16 b = 2.25f;
  a += a;
  b = b * b - nv_bfloat16(1.0f);  // 5.0625 and 4.0625 are exact in bf16
  const float fa = a, fb = b;
  __half2 h2 = __floats2half2_rn(1.f, 2.f);
  h2 = h2 * h2 + h2;
  nv_bfloat162 b2 = __hmul2(__floats2bfloat162_rn(3.f, 4.f), __floats2bfloat162_rn(3.f, 4.f));
  const bool cmp = a > half(2.0f) && b != nv_bfloat16(0.f);
  const __nv_fp8_e4m3 f8(fa);
  const __nv_fp8_e5m2 f5(b);  // 4.0625 to 4: two bits of mantissa
  const __half h3 = __int2half_rn(7) / __half(2.0f);
  return fa == 3.f && fb == 4.0625f && __low2float(h2) == 2.f && __high2float(h2) == 6.f &&
         __low2float(b2) == 9.f && __high2float(b2) == 16.f && cmp && float(-a) == -3.f &&
         float(f8) == 3.f && float(f5) == 4.f && static_cast<int>(a) == 3 && __half2int_rz(h3) == 3 &&
         float(h3) == 3.5f && __hisnan(__float2half(NAN)) &&
         __half2float(__ushort_as_half(__half_as_ushort(a))) == 3.f;
}

static int failures = 0;
static void expect(bool ok, const char *what) {
  printf("%-44s %s\n", what, ok ? "ok" : "FAIL");
  if (!ok) ++failures;
}

template <typename T> T *managed(size_t n) {
  T *p = nullptr;
  cudaMallocManaged(&p, n * sizeof(T));
  return p;
}

template <int M, int N, int K> void check_shape(const char *what) {
  __half *A = managed<__half>(M * K), *B = managed<__half>(K * N);
  float *C = managed<float>(M * N);
  for (int i = 0; i < M * K; ++i) A[i] = __float2half(float((i * 7) % 5 - 2));
  for (int i = 0; i < K * N; ++i) B[i] = __float2half(float((i * 3) % 7 - 3));
  wmma_shape<M, N, K><<<1, 32>>>(C, A, B);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double r = 1.0;
      for (int k = 0; k < K; ++k) r += double(__half2float(A[m * K + k])) * __half2float(B[k * N + n]);
      if (C[n * M + m] != r) ok = false;  // stored column major
    }
  expect(ok, what);
}

int main() {
  check_shape<32, 8, 16>("wmma f16 m32n8k16");
  check_shape<8, 32, 16>("wmma f16 m8n32k16");
  {
    signed char *A = managed<signed char>(256), *B = managed<signed char>(256);
    int *C = managed<int>(256);
    for (int i = 0; i < 256; ++i) { A[i] = (signed char)((i * 37) % 255 - 127); B[i] = (signed char)((i * 11) % 200 - 100); }
    wmma_int8<<<1, 32>>>(C, A, B);
    cudaDeviceSynchronize();
    bool ok = true;
    for (int m = 0; m < 16; ++m)
      for (int n = 0; n < 16; ++n) {
        long r = 0;
        for (int k = 0; k < 16; ++k) r += A[m * 16 + k] * B[n * 16 + k];
        if (C[m * 16 + n] != r) ok = false;
      }
    expect(ok, "wmma s8 m16n16k16 (B column major)");
  }
  {
    unsigned char *A = managed<unsigned char>(32 * 16), *B = managed<unsigned char>(16 * 8);
    int *C = managed<int>(32 * 8);
    for (int i = 0; i < 32 * 16; ++i) A[i] = (unsigned char)((i * 37) % 256);
    for (int i = 0; i < 16 * 8; ++i) B[i] = (unsigned char)((i * 91) % 256);
    for (int i = 0; i < 32 * 8; ++i) C[i] = i - 100;
    wmma_u8<<<1, 32>>>(C, A, B);
    cudaDeviceSynchronize();
    bool ok = true;
    for (int m = 0; m < 32; ++m)
      for (int n = 0; n < 8; ++n) {
        long r = m * 8 + n - 100;
        for (int k = 0; k < 16; ++k) r += A[m * 16 + k] * B[n * 16 + k];
        if (C[m * 8 + n] != r) ok = false;
      }
    expect(ok, "wmma u8 m32n8k16, C loaded, B column major");
  }
  {
    double *A = managed<double>(32), *B = managed<double>(32), *C = managed<double>(64);
    for (int i = 0; i < 32; ++i) { A[i] = 0.1 * i; B[i] = 1.0 / (i + 1); }
    wmma_double<<<1, 32>>>(C, A, B);
    cudaDeviceSynchronize();
    bool ok = true;
    for (int m = 0; m < 8; ++m)
      for (int n = 0; n < 8; ++n) {
        double r = 0.5;
        for (int k = 0; k < 4; ++k) r += A[m * 4 + k] * B[k * 8 + n];
        if (fabs(C[m * 8 + n] - r) > 1e-12) ok = false;
      }
    expect(ok, "wmma f64 m8n8k4");
  }
  {
    float *A = managed<float>(128), *B = managed<float>(128), *C = managed<float>(256);
    // Values exact in tf32 (10 bits of mantissa) and a product exact in float.
    for (int i = 0; i < 128; ++i) { A[i] = (i % 9 - 4) * 0.5f; B[i] = (i % 5 - 2) * 0.25f; }
    wmma_tf32<<<1, 32>>>(C, A, B);
    cudaDeviceSynchronize();
    bool ok = true;
    for (int m = 0; m < 16; ++m)
      for (int n = 0; n < 16; ++n) {
        double r = 0;
        for (int k = 0; k < 8; ++k) r += double(A[m * 8 + k]) * B[n * 8 + k];
        if (C[m * 16 + n] != r) ok = false;
      }
    expect(ok, "wmma tf32 m16n16k8");
  }
  {
    float *in = managed<float>(512), *out = managed<float>(128);
    for (int i = 0; i < 512; ++i) in[i] = float(i);
    pipeline_prims<<<1, 128>>>(out, in, 512);
    cudaDeviceSynchronize();
    bool ok = true;
    for (int t = 0; t < 128; ++t)
      if (out[t] != float(t + (128 + t) + (256 + t) + (384 + t) + t)) ok = false;
    expect(ok, "pipeline_consumer_wait_prior, __pipeline_*");
  }
  {
    float *out = managed<float>(32);
    __half2 *acc = managed<__half2>(1);
    __nv_bfloat162 *bacc = managed<__nv_bfloat162>(1);
    *acc = __floats2half2_rn(0.f, 0.f);
    *bacc = __floats2bfloat162_rn(0.f, 0.f);
    half_misc<<<1, 32>>>(out, acc, bacc);
    cudaDeviceSynchronize();
    bool ok = true;
    for (int l = 0; l < 32; ++l) {
      const float h = float(l + 2 < 32 ? l + 2 : l);
      const float b = (l ^ 3) * 0.5f;
      const float want = h + b + 1000.f + 65504.f - 3.3895313892515355e38f;
      if (out[l] != want) ok = false;
    }
    expect(ok, "__half/bf16 shuffles, CUDART_INF_FP16, limits");
    // Sum over lanes of (lane ^ 1, -(lane ^ 1)): (496, -496).
    expect(__low2float(*acc) == 496.f && __high2float(*acc) == -496.f, "atomicAdd __half2");
    // Sum over lanes of b*b + b with b = (l ^ 3) / 2, and 2 for the high half.
    double s = 0;
    for (int l = 0; l < 32; ++l) {
      const double b = (l ^ 3) * 0.5;
      s += double(__bfloat162float(__float2bfloat16(float(b * b)))) + b;
    }
    printf("  bf162 atomic sum %g %g (want about %g, 64)\n", __low2float(*bacc), __high2float(*bacc), s);
    expect(fabs(__low2float(*bacc) - s) < 0.02 * s && __high2float(*bacc) == 64.f, "atomicAdd __nv_bfloat162");
  }
  {
    float *out = managed<float>(32);
    fp8_misc<<<1, 32>>>(out);
    cudaDeviceSynchronize();
    bool ok = true;
    for (int i = 0; i < 32; ++i) {
      const float2 f = static_cast<float2>(__nv_fp8x2_e4m3(make_float2(i * 0.5f, -i * 0.25f)));
      const float4 g = static_cast<float4>(__nv_fp8x4_e5m2(make_float4(i, i + 1, i + 2, i + 3)));
      const float hh = float(__nv_fp8_e4m3(i * 3.f));
      const float zb = float(__nv_fp8_e5m2(i * 7.f));
      const int ki = int(__nv_fp8_e4m3(float(i)));
      const float want = f.x + f.y + g.x + g.w + hh + zb + ki;
      if (out[i] != want) { ok = false; printf("  fp8 %d: %g want %g\n", i, out[i], want); }
    }
    expect(ok, "fp8 x2/x4 and half/bf16/int conversions");
  }
  expect(host_half_arithmetic(), "host arithmetic on half, bf16 and fp8");
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}
