// Tensor-core tiles through inline PTX, as HGEMM and flash-attention
// tutorials write them: `ldmatrix.sync.aligned.x4.m8n8.shared.b16` (the
// qualifiers in either order, the address from __cvta_generic_to_shared or
// from a cvta.to.shared block), `.trans` for a row-major B, and
// `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32` (also .bf16 inputs,
// and m16n8k8 with .f16 accumulators). cuemu refused both instructions
// ("inline PTX: unsupported instruction ldmatrix..."). One warp multiplies
// small integer matrices (exact in every format) and the host checks each
// element of D = A B + C.
#include "../check.cuh"

#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define REG(x) (*reinterpret_cast<uint32_t *>(&(x)))

__device__ uint32_t smem_u32(const void *p) {
  uint32_t a;
  asm volatile("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }"
               : "=r"(a) : "l"(p));
  return a;
}

// A is 16 x K row major, B is K x 8 row major (loaded transposed), C and D
// are 16 x 8 row major floats.
template <typename T, int K>
__global__ void mma_tile(const T *A, const T *B, const float *C, float *D) {
  __shared__ __align__(16) T sa[16 * K];
  __shared__ __align__(16) T sb[K * 8];
  const int lane = threadIdx.x;
  for (int i = lane; i < 16 * K; i += 32) sa[i] = A[i];
  for (int i = lane; i < K * 8; i += 32) sb[i] = B[i];
  __syncthreads();
  const int g = lane / 4, t = lane % 4;
  uint32_t a[4], b[2];
  float c[4], d[4];
  for (int e = 0; e < 4; ++e) c[e] = C[(g + 8 * (e / 2)) * 8 + 2 * t + e % 2];
  if (K == 16) {
    // Matrix m = lane / 8: rows 8(m & 1).., columns 8(m >> 1)..
    const int m = lane / 8, r = lane % 8;
    const T *row = &sa[(r + 8 * (m & 1)) * K + 8 * (m >> 1)];
    asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "l"(__cvta_generic_to_shared(row)));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(b[0]), "=r"(b[1])
                 : "r"(smem_u32(&sb[(lane % 16) * 8])));
    if (sizeof(T) == 2 && __is_same(T, __half))
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                   "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
                   : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                     "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    else
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                   "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
                   : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                     "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
  } else {
    // m16n8k8 with .f16 accumulators: A as two 8 x 8 matrices, B as one.
    const T *row = &sa[(lane % 16) * K];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(a[0]), "=r"(a[1])
                 : "l"(__cvta_generic_to_shared(row)));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                 : "=r"(b[0])
                 : "l"(__cvta_generic_to_shared(&sb[(lane % 8) * 8])));
    __half2 c01 = __floats2half2_rn(c[0], c[1]), c23 = __floats2half2_rn(c[2], c[3]);
    uint32_t d01, d23;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 "
                 "{%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                 : "=r"(d01), "=r"(d23)
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(REG(c01)), "r"(REG(c23)));
    __half2 h01 = *reinterpret_cast<__half2 *>(&d01), h23 = *reinterpret_cast<__half2 *>(&d23);
    d[0] = __low2float(h01), d[1] = __high2float(h01);
    d[2] = __low2float(h23), d[3] = __high2float(h23);
  }
  for (int e = 0; e < 4; ++e) D[(g + 8 * (e / 2)) * 8 + 2 * t + e % 2] = d[e];
}

template <typename T, int K> static void run(float (*to)(T), T (*from)(float)) {
  T *A, *B;
  float *C, *D;
  CHECK(cudaMallocManaged(&A, 16 * K * sizeof(T)) == cudaSuccess);
  CHECK(cudaMallocManaged(&B, K * 8 * sizeof(T)) == cudaSuccess);
  CHECK(cudaMallocManaged(&C, 16 * 8 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&D, 16 * 8 * sizeof(float)) == cudaSuccess);
  for (int i = 0; i < 16; ++i)
    for (int k = 0; k < K; ++k) A[i * K + k] = from((float)((i * 5 + k * 3) % 7 - 3));
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < 8; ++j) B[k * 8 + j] = from((float)((k * 2 + j * 7) % 5 - 2));
  for (int i = 0; i < 16 * 8; ++i) C[i] = (float)(i % 9 - 4);
  mma_tile<T, K><<<1, 32>>>(A, B, C, D);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int wrong = 0;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      float want = C[i * 8 + j];
      for (int k = 0; k < K; ++k) want += to(A[i * K + k]) * to(B[k * 8 + j]);
      if (D[i * 8 + j] != want) {
        if (wrong++ < 4)
          std::printf("K=%d D[%d][%d] = %g, want %g\n", K, i, j, D[i * 8 + j], want);
      }
    }
  CHECK(wrong == 0);
  cudaFree(A), cudaFree(B), cudaFree(C), cudaFree(D);
}

static float half_to(__half h) { return __half2float(h); }
static __half half_from(float f) { return __float2half(f); }
static float bf_to(__nv_bfloat16 h) { return __bfloat162float(h); }
static __nv_bfloat16 bf_from(float f) { return __float2bfloat16(f); }

int main() {
  run<__half, 16>(half_to, half_from);
  run<__nv_bfloat16, 16>(bf_to, bf_from);
  run<__half, 8>(half_to, half_from);
  return finish();
}
