/*
 * wgmma_shared.cu: wgmma.mma_async of sm_90a with A and B in shared memory,
 * against a host GEMM of small integers (exact in every type). Each
 * warpgroup (128 threads) places A (64 x K) and B (K x N) in shared memory
 * as a TMA copy or a Hopper GEMM's loader leaves them, builds the matrix
 * descriptors (start address, leading and stride byte offsets, swizzle
 * mode) as those programs do, steps along K by moving the start address,
 * and checks every element of D, whose fragment is the PTX ISA's: warp w
 * of the warpgroup holds rows 16w..16w+15, lane 4g + t the elements (g,
 * 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1) of each 8 columns.
 * The layouts:
 * - K-major with the 128-, 64- or 32-byte swizzle: rows of 128, 64 or 32
 *   bytes of K, each 16-byte chunk XORed with the row's bits (address bits
 *   4.. with bits 7..), 8 rows 8 x width apart (SBO), the start address
 *   moved 32 bytes per step;
 * - K-major without swizzle: core matrices of 8 rows of 16 bytes, the next
 *   8 rows SBO bytes on, the next 16 bytes of K LBO bytes on;
 * - MN-major (imm-trans 1) with a swizzle: rows of 128, 64 or 32 bytes of
 *   M (or N), one per k, the next block of M LBO bytes on, 8 k-rows SBO;
 * - MN-major without swizzle: core matrices of 8 k-rows of 16 bytes of M,
 *   the next 16 bytes of M SBO bytes on, the next 8 k LBO bytes on.
 * Types: .f16 and .bf16 with N = 8, 64, 128, 256 and .f32 or .f16
 * accumulators, .tf32, .e4m3 x .e5m2, .s8 x .u8; scale-d 0 on the first
 * step (D starts as NaN, which it must not read). One program in static
 * shared memory. Then setmaxnreg, a register-count hint. Prints PASS.
 */
// CUEMU_OPTIONS: -arch=sm_90a
// NVCC_OPTIONS: -arch=sm_90a
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "../check.cuh"
#include "wgmma_ops.cuh"

namespace {

/* Where the program puts one matrix in shared memory: K-major or MN-major,
 * the swizzle's row width in bytes (0: none), and its extents. */
struct Layout {
  int k_major, width, mn, k;
};

__host__ __device__ int bits_of_width(int width) {
  return width == 128 ? 3 : width == 64 ? 2 : width == 32 ? 1 : 0;
}

/* The byte offset of element (mn, k) of `e`-byte elements, as a loader
 * writes it (the tile 1024-byte aligned). */
__host__ __device__ unsigned place(const Layout &l, int mn, int k, int e) {
  unsigned o;
  if (l.k_major && l.width)
    o = (k * e / l.width) * (l.mn * l.width) + mn * l.width + (k * e % l.width);
  else if (l.k_major)
    o = (mn / 8) * 128 + (k * e / 16) * (l.mn / 8 * 128) + (mn % 8) * 16 + (k * e % 16);
  else if (l.width)
    o = (mn * e / l.width) * (l.k * l.width) + k * l.width + (mn * e % l.width);
  else
    o = (mn * e / 16) * 128 + (k % 8) * 16 + (k / 8) * (l.mn * e / 16 * 128) + (mn * e % 16);
  const int b = bits_of_width(l.width);
  return o ^ (((o >> 7) & ((1u << b) - 1)) << 4);
}

/* The descriptor of the step that starts at k0: start address, LBO and SBO
 * (in 16-byte units) and the swizzle mode (1: 128 bytes, 2: 64, 3: 32). */
__device__ unsigned long long descriptor(const unsigned char *tile, const Layout &l, int k0, int e) {
  unsigned start = static_cast<unsigned>(__cvta_generic_to_shared(tile)), lbo, sbo;
  if (l.k_major && l.width) {
    start += (k0 * e / l.width) * (l.mn * l.width) + k0 * e % l.width;
    lbo = 16; /* not used */
    sbo = 8 * l.width;
  } else if (l.k_major) {
    start += (k0 * e / 16) * (l.mn / 8 * 128);
    lbo = l.mn / 8 * 128;
    sbo = 128;
  } else if (l.width) {
    start += k0 * l.width;
    lbo = l.k * l.width;
    sbo = 8 * l.width;
  } else {
    start += (k0 / 8) * (l.mn * e / 16 * 128);
    lbo = l.mn * e / 16 * 128;
    sbo = 128;
  }
  const unsigned long long mode = l.width == 128 ? 1 : l.width == 64 ? 2 : l.width == 32 ? 3 : 0;
  return ((start & 0x3ffff) >> 4) | (static_cast<unsigned long long>((lbo >> 4) & 0x3fff) << 16) |
         (static_cast<unsigned long long>((sbo >> 4) & 0x3fff) << 32) | (mode << 62);
}

/* The wgmma of a test: its D registers (packed: two .f16 each), the
 * element's bytes, the step along K in elements, and the call. */
template <int N> struct F16 {
  using D = float;
  static constexpr int regs = N / 2, e = 2, kstep = 16, packed = 0;
  template <int TA, int TB>
  __device__ static void run(D (&d)[regs], unsigned long long a, unsigned long long b, int s) {
    if constexpr (N == 8) wgmma_f16_n8<1, 1, TA, TB>(d, a, b, s);
    if constexpr (N == 64) wgmma_f16_n64<1, 1, TA, TB>(d, a, b, s);
    if constexpr (N == 128) wgmma_f16_n128<1, 1, TA, TB>(d, a, b, s);
    if constexpr (N == 256) wgmma_f16_n256<1, 1, TA, TB>(d, a, b, s);
  }
};
template <int N> struct BF16 {
  using D = float;
  static constexpr int regs = N / 2, e = 2, kstep = 16, packed = 0;
  template <int TA, int TB>
  __device__ static void run(D (&d)[regs], unsigned long long a, unsigned long long b, int s) {
    if constexpr (N == 8) wgmma_bf16_n8<1, 1, TA, TB>(d, a, b, s);
    if constexpr (N == 64) wgmma_bf16_n64<1, 1, TA, TB>(d, a, b, s);
    if constexpr (N == 128) wgmma_bf16_n128<1, 1, TA, TB>(d, a, b, s);
    if constexpr (N == 256) wgmma_bf16_n256<1, 1, TA, TB>(d, a, b, s);
  }
};
struct F16Acc {
  using D = unsigned;
  static constexpr int regs = 16, e = 2, kstep = 16, packed = 1;
  template <int TA, int TB>
  __device__ static void run(D (&d)[regs], unsigned long long a, unsigned long long b, int s) {
    wgmma_f16acc_n64<1, 1, TA, TB>(d, a, b, s);
  }
};
struct TF32 {
  using D = float;
  static constexpr int regs = 32, e = 4, kstep = 8, packed = 0;
  template <int, int>
  __device__ static void run(D (&d)[regs], unsigned long long a, unsigned long long b, int s) {
    wgmma_tf32_n64<1, 1>(d, a, b, s);
  }
};
struct FP8 {
  using D = float;
  static constexpr int regs = 32, e = 1, kstep = 32, packed = 0;
  template <int, int>
  __device__ static void run(D (&d)[regs], unsigned long long a, unsigned long long b, int s) {
    wgmma_e4m3_n64<1, 1>(d, a, b, s);
  }
};
struct S8 {
  using D = int;
  static constexpr int regs = 32, e = 1, kstep = 32, packed = 0;
  template <int, int>
  __device__ static void run(D (&d)[regs], unsigned long long a, unsigned long long b, int s) {
    wgmma_s8_n64(d, a, b, s);
  }
};

constexpr int kTileBytes = 48 * 1024, kStaticBytes = 32 * 1024, kBOffset = 16 * 1024;

/* One warpgroup: A (64 x kt, row-major, in the bytes of its type) and B
 * (n x kt: each column's K elements together) placed, D = A B over kt
 * with scale-d 0 on the first step, D's elements written to out
 * (row-major 64 x n, as floats). TA and TB: the layouts are MN-major. */
template <class Op, int N, bool Static, int TA, int TB>
__global__ void gemm(const unsigned char *a, const unsigned char *b, Layout la, Layout lb, int kt,
                     float *out) {
  extern __shared__ __align__(1024) unsigned char dynamic_tiles[];
  __shared__ __align__(1024) unsigned char static_tiles[Static ? kStaticBytes : 16];
  unsigned char *sa = Static ? static_tiles : dynamic_tiles;
  unsigned char *sb = sa + kBOffset;
  const int tid = threadIdx.x, e = Op::e;
  for (int i = tid; i < 64 * kt; i += blockDim.x)
    memcpy(sa + place(la, i / kt, i % kt, e), a + i * e, e);
  for (int i = tid; i < N * kt; i += blockDim.x)
    memcpy(sb + place(lb, i / kt, i % kt, e), b + i * e, e);
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  typename Op::D d[Op::regs];
  /* NaNs (two .f16 ones in a packed register), which scale-d 0 ignores. */
  const unsigned nan_bits = Op::packed ? 0x7e007e00u : 0x7fc00000u;
  for (int r = 0; r < Op::regs; ++r) memcpy(&d[r], &nan_bits, 4);
#if CUEMU_TEST_WGMMA
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
  for (int k0 = 0; k0 < kt; k0 += Op::kstep)
    Op::template run<TA, TB>(d, descriptor(sa, la, k0, e), descriptor(sb, lb, k0, e), k0 > 0);
#if CUEMU_TEST_WGMMA
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#endif
#if CUEMU_TEST_WGMMA
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#endif
  const int warp = tid / 32, g = tid % 32 / 4, t = tid % 4;
  for (int r = 0; r < Op::regs; ++r) {
    if constexpr (Op::packed) {
      /* Register r: row g + 8 (r % 2), columns 8 (r / 2) + 2t and + 1. */
      const int row = 16 * warp + g + 8 * (r % 2), col = 8 * (r / 2) + 2 * t;
      __half2 h;
      memcpy(&h, &d[r], 4);
      out[row * N + col] = __low2float(h);
      out[row * N + col + 1] = __high2float(h);
    } else {
      const int row = 16 * warp + g + 8 * (r % 4 / 2), col = 8 * (r / 4) + 2 * t + r % 2;
      out[row * N + col] = static_cast<float>(d[r]);
    }
  }
}

enum Kind { kF16, kBF16, kTF32, kFP8, kS8 };

/* Value v as an element of the kind (FP8 and 8-bit: A e4m3 or s8, B e5m2
 * or u8). */
void encode(Kind kind, bool is_b, float v, unsigned char *dst) {
  if (kind == kF16) {
    __half h = __float2half(v);
    memcpy(dst, &h, 2);
  } else if (kind == kBF16) {
    __nv_bfloat16 h = __float2bfloat16(v);
    memcpy(dst, &h, 2);
  } else if (kind == kTF32) {
    memcpy(dst, &v, 4);
  } else if (kind == kFP8) {
    *dst = is_b ? __nv_fp8_e5m2(v).__x : __nv_fp8_e4m3(v).__x;
  } else {
    *dst = static_cast<unsigned char>(static_cast<int>(v));
  }
}

/* A small value that changes along rows and along K (a swizzle or a
 * layout that moves elements within a row changes the product). */
int mix(unsigned i) { return static_cast<int>((i * 2654435761u) >> 20); }

/* Runs one GEMM of 64 x n x kt and checks every element of D. */
template <class Op, int N, bool Static = false, int TA = 0, int TB = 0>
void test(const char *name, Kind kind, Layout la, Layout lb, int kt) {
  const int e = Op::e;
  std::vector<float> av(64 * kt), bv(N * kt), want(64 * N, 0.0f), got(64 * N, -1.0f);
  std::vector<unsigned char> abytes(64 * kt * e), bbytes(N * kt * e);
  for (int i = 0; i < 64 * kt; ++i) {
    av[i] = static_cast<float>(mix(i) % 7 - 3);
    encode(kind, false, av[i], &abytes[i * e]);
  }
  for (int i = 0; i < N * kt; ++i) {
    bv[i] = static_cast<float>(mix(i + 12345) % 7 - (kind == kS8 ? 0 : 3));
    encode(kind, true, bv[i], &bbytes[i * e]);
  }
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < kt; ++k) want[m * N + n] += av[m * kt + k] * bv[n * kt + k];
  unsigned char *da, *db;
  float *dout;
  CHECK(cudaMalloc(&da, abytes.size()) == cudaSuccess);
  CHECK(cudaMalloc(&db, bbytes.size()) == cudaSuccess);
  CHECK(cudaMalloc(&dout, got.size() * sizeof(float)) == cudaSuccess);
  cudaMemcpy(da, abytes.data(), abytes.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(db, bbytes.data(), bbytes.size(), cudaMemcpyHostToDevice);
  cudaFuncSetAttribute(gemm<Op, N, Static, TA, TB>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       kTileBytes);
  gemm<Op, N, Static, TA, TB><<<1, 128, Static ? 0 : kTileBytes>>>(da, db, la, lb, kt, dout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(got.data(), dout, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < 64 * N; ++i)
    if (got[i] != want[i] && wrong++ < 3)
      std::fprintf(stderr, "%s: D[%d][%d] = %g, not %g\n", name, i / N, i % N, got[i], want[i]);
  CHECK(wrong == 0);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dout);
}

__global__ void hint_registers(int *out) {
  if (threadIdx.x < 128) {
#if CUEMU_TEST_WGMMA
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
#endif
  } else {
#if CUEMU_TEST_WGMMA
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
#endif
  }
  out[threadIdx.x] = threadIdx.x;
}

}  // namespace

int main() {
  /* K-major A and B with the 128-byte swizzle, 4 steps of K 16. */
  test<F16<256>, 256>("f16 n256 sw128", kF16, Layout{1, 128, 64, 64}, Layout{1, 128, 256, 64}, 64);
  /* Without swizzle (A in static shared memory) and the 64-byte one. */
  test<BF16<128>, 128, true>("bf16 n128 none/sw64", kBF16, Layout{1, 0, 64, 32},
                             Layout{1, 64, 128, 32}, 32);
  /* MN-major (imm-trans 1) with the 128- and 32-byte swizzles. */
  test<F16<64>, 64, false, 1, 1>("f16 n64 mn sw128/sw32", kF16, Layout{0, 128, 64, 32},
                                 Layout{0, 32, 64, 32}, 32);
  /* MN-major without swizzle and the 64-byte one, K-major B with the 32-byte one. */
  test<BF16<8>, 8, false, 1, 0>("bf16 n8 mn none/sw32", kBF16, Layout{0, 0, 64, 32},
                                Layout{1, 32, 8, 32}, 32);
  test<F16<128>, 128, false, 1, 0>("f16 n128 mn sw64/none", kF16, Layout{0, 64, 64, 16},
                                   Layout{1, 0, 128, 16}, 16);
  test<F16Acc, 64>("f16 accumulators", kF16, Layout{1, 128, 64, 64}, Layout{1, 128, 64, 64}, 64);
  test<TF32, 64>("tf32", kTF32, Layout{1, 128, 64, 32}, Layout{1, 128, 64, 32}, 32);
  test<FP8, 64>("e4m3 x e5m2", kFP8, Layout{1, 128, 64, 128}, Layout{1, 64, 64, 128}, 128);
  test<S8, 64>("s8 x u8", kS8, Layout{1, 64, 64, 64}, Layout{1, 0, 64, 64}, 64);

  int *out;
  CHECK(cudaMalloc(&out, 256 * sizeof(int)) == cudaSuccess);
  hint_registers<<<1, 256>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int h[256];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 256; ++i) CHECK(h[i] == i);
  cudaFree(out);
  return finish();
}
