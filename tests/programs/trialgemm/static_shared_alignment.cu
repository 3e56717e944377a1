// static_shared_alignment.cu: static __shared__ tiles of __half whose rows
// are padded (`__shared__ __half s_a[32][40]`, as tensor-core GEMM
// tutorials declare them) are stored with float4s and handed to
// wmma::load_matrix_sync, which wants 256-bit aligned rows. On a GPU the
// block's shared variables start at the (1024-byte aligned) window, and
// these tiles, whose sizes are multiples of 128 bytes, start at such
// multiples; the element's own alignment (2 bytes) would misalign them.
// A stricter alignas of the program's is kept. One block of one warp
// computes a 16x16x32 product of two such tiles, checked on the host.
#include <cstdint>
#include <cstdio>

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

constexpr int kM = 16, kN = 16, kK = 32, kPad = 8;

__global__ void tile_product(const __half *a, const __half *b, float *c,
                             int *aligned) {
  __shared__ __half s_a[kM][kK + kPad];
  __shared__ __half s_b[kK][kN + kPad];
  __shared__ alignas(256) float s_wide[64];
  const int lane = threadIdx.x;
  // 16 rows of 32 halves for A, 32 rows of 16 for B: 8 halves per float4.
  for (int i = lane; i < kM * kK / 8; i += 32) {
    const int row = i / (kK / 8), col = (i % (kK / 8)) * 8;
    *reinterpret_cast<float4 *>(&s_a[row][col]) =
        *reinterpret_cast<const float4 *>(&a[row * kK + col]);
  }
  for (int i = lane; i < kK * kN / 8; i += 32) {
    const int row = i / (kN / 8), col = (i % (kN / 8)) * 8;
    *reinterpret_cast<float4 *>(&s_b[row][col]) =
        *reinterpret_cast<const float4 *>(&b[row * kN + col]);
  }
  s_wide[lane] = 0.0f;
  __syncthreads();
  if (lane == 0)
    *aligned = reinterpret_cast<uintptr_t>(s_wide) % 256 == 0 &&
               reinterpret_cast<uintptr_t>(&s_a[0][0]) % 32 == 0 &&
               reinterpret_cast<uintptr_t>(&s_b[0][0]) % 32 == 0;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < kK; k += 16) {
    wmma::load_matrix_sync(fa, &s_a[0][k], kK + kPad);
    wmma::load_matrix_sync(fb, &s_b[k][0], kN + kPad);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c, fc, kN, wmma::mem_row_major);
}

int main() {
  __half h_a[kM * kK], h_b[kK * kN];
  float h_c[kM * kN];
  for (int i = 0; i < kM * kK; ++i)
    h_a[i] = __float2half(static_cast<float>((i * 7) % 5) - 2.0f);
  for (int i = 0; i < kK * kN; ++i)
    h_b[i] = __float2half(static_cast<float>((i * 3) % 7) - 3.0f);
  __half *d_a = nullptr, *d_b = nullptr;
  float *d_c = nullptr;
  int *d_aligned = nullptr, aligned = 0;
  if (cudaMalloc(&d_a, sizeof h_a) != cudaSuccess ||
      cudaMalloc(&d_b, sizeof h_b) != cudaSuccess ||
      cudaMalloc(&d_c, sizeof h_c) != cudaSuccess ||
      cudaMalloc(&d_aligned, sizeof(int)) != cudaSuccess) {
    printf("FAIL: cudaMalloc\n");
    return 1;
  }
  cudaMemcpy(d_a, h_a, sizeof h_a, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, h_b, sizeof h_b, cudaMemcpyHostToDevice);
  tile_product<<<1, 32>>>(d_a, d_b, d_c, d_aligned);
  const cudaError_t status = cudaDeviceSynchronize();
  cudaMemcpy(h_c, d_c, sizeof h_c, cudaMemcpyDeviceToHost);
  cudaMemcpy(&aligned, d_aligned, sizeof aligned, cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
  cudaFree(d_aligned);
  if (status != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(status));
    return 1;
  }
  if (!aligned) {
    printf("FAIL: a __shared__ tile is not aligned as on a GPU\n");
    return 1;
  }
  for (int m = 0; m < kM; ++m)
    for (int n = 0; n < kN; ++n) {
      float want = 0.0f;
      for (int k = 0; k < kK; ++k)
        want += __half2float(h_a[m * kK + k]) * __half2float(h_b[k * kN + n]);
      if (h_c[m * kN + n] != want) {
        printf("FAIL: c[%d][%d] = %g, expected %g\n", m, n, h_c[m * kN + n],
               want);
        return 1;
      }
    }
  printf("PASS\n");
  return 0;
}
