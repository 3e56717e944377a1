/*
 * wmma_gemm.cu: tensor-core fragments (nvcuda::wmma) for every shape and
 * element type of sm_90, in a tiled GEMM kernel template (one warp per
 * output tile, two warps per block, several k steps), with row- and
 * column-major multiplicands and accumulators stored and loaded in both
 * layouts, checked against a host GEMM: exactly for integers and for
 * small-integer-valued halves and bfloat16s, within a bound for tf32 and
 * double. Also __float_to_tf32's rounding and element-wise code over x[].
 */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "../check.cuh"

using namespace nvcuda;

/* The value of element i of a test matrix (small integers, or fractions
 * for tf32 and double), and its conversion to the element type. */
template <typename T> struct input_traits;
template <> struct input_traits<__half> {
  using store = __half;
  static double value(int i) { return (i * 7 + 3) % 9 - 4; }
  static store make(double v) { return __float2half(static_cast<float>(v)); }
};
template <> struct input_traits<__nv_bfloat16> {
  using store = __nv_bfloat16;
  static double value(int i) { return (i * 5 + 1) % 7 - 3; }
  static store make(double v) {
    return __float2bfloat16(static_cast<float>(v));
  }
};
template <> struct input_traits<signed char> {
  using store = signed char;
  static double value(int i) { return (i * 37 + 11) % 256 - 128; }
  static store make(double v) { return static_cast<signed char>(v); }
};
template <> struct input_traits<unsigned char> {
  using store = unsigned char;
  static double value(int i) { return (i * 53 + 7) % 256; }
  static store make(double v) { return static_cast<unsigned char>(v); }
};
template <> struct input_traits<wmma::precision::tf32> {
  using store = float;
  static double value(int i) { return ((i * 29 + 5) % 101) / 17.0 - 2.5; }
  static store make(double v) { return static_cast<float>(v); }
};
template <> struct input_traits<double> {
  using store = double;
  static double value(int i) { return ((i * 31 + 9) % 97) / 13.0 - 3.0; }
  static store make(double v) { return v; }
};

template <typename T> double acc_value(T v) { return static_cast<double>(v); }
template <> double acc_value<__half>(__half v) { return __half2float(v); }
template <> double acc_value<__nv_bfloat16>(__nv_bfloat16 v) {
  return __bfloat162float(v);
}

/* tf32 rounding on the host: to nearest with ties away from zero, at 10
 * bits after the point (11 significant bits). */
static float host_tf32(float x) {
  if (x == 0 || !std::isfinite(x))
    return x;
  int e;
  double m = std::frexp(static_cast<double>(x), &e); /* 0.5 <= |m| < 1 */
  return static_cast<float>(std::ldexp(std::round(std::ldexp(m, 11)), e - 11));
}

template <typename T, typename S> double reference_value(S v) {
  if constexpr (std::is_same<T, wmma::precision::tf32>::value)
    return host_tf32(v);
  else
    return acc_value(v);
}

__global__ void to_tf32(float *p, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    p[i] = wmma::__float_to_tf32(p[i]);
}

/* A warp of 16 threads cannot use the tensor cores. */
__global__ void partial_warp(float *out) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 1.0f);
  wmma::store_matrix_sync(out, c, 16, wmma::mem_row_major);
}

__global__ void tf32_cases(float *out) {
  out[0] = wmma::__float_to_tf32(1.0f + 1.0f / 2048); /* a tie: away */
  out[1] = wmma::__float_to_tf32(1.0f + 1.0f / 4096); /* below: down */
  out[2] = wmma::__float_to_tf32(-(1.0f + 3.0f / 2048));
}

template <typename T> T acc_make(double v) { return static_cast<T>(v); }
template <> __half acc_make<__half>(double v) {
  return __float2half(static_cast<float>(v));
}

/* C = alpha * (A * B + C0): A is (TM * M) x (KS * K), B (KS * K) x (TN * N);
 * warp w of the grid computes tile (w / TN, w % TN). */
template <typename TIn, typename TAcc, int M, int N, int K, typename LA,
          typename LB, int TM, int TN, int KS>
__global__ void gemm(const typename input_traits<TIn>::store *A,
                     const typename input_traits<TIn>::store *B, TAcc *C,
                     wmma::layout_t c_layout, TAcc alpha, int *num) {
  const int ld_a = std::is_same<LA, wmma::row_major>::value ? KS * K : TM * M;
  const int ld_b = std::is_same<LB, wmma::row_major>::value ? TN * N : KS * K;
  const int ld_c = c_layout == wmma::mem_row_major ? TN * N : TM * M;
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (warp >= TM * TN)
    return;
  int tm = warp / TN, tn = warp % TN;
  wmma::fragment<wmma::matrix_a, M, N, K, TIn, LA> a;
  wmma::fragment<wmma::matrix_b, M, N, K, TIn, LB> b;
  wmma::fragment<wmma::accumulator, M, N, K, TAcc> c;
  TAcc *tile = c_layout == wmma::mem_row_major ? C + tm * M * ld_c + tn * N
                                               : C + tn * N * ld_c + tm * M;
  wmma::load_matrix_sync(c, tile, ld_c, c_layout);
  for (int ks = 0; ks < KS; ++ks) {
    int k0 = ks * K;
    const auto *pa = std::is_same<LA, wmma::row_major>::value
                         ? A + tm * M * ld_a + k0
                         : A + k0 * ld_a + tm * M;
    const auto *pb = std::is_same<LB, wmma::row_major>::value
                         ? B + k0 * ld_b + tn * N
                         : B + tn * N * ld_b + k0;
    wmma::load_matrix_sync(a, pa, ld_a);
    wmma::load_matrix_sync(b, pb, ld_b);
    wmma::mma_sync(c, a, b, c);
  }
  for (int i = 0; i < c.num_elements; ++i)
    c.x[i] = c.x[i] * alpha;
  if (threadIdx.x % 32 == 0)
    num[warp] = c.num_elements;
  wmma::store_matrix_sync(tile, c, ld_c, c_layout);
}

template <typename TIn, typename TAcc, int M, int N, int K, typename LA,
          typename LB, int TM = 2, int TN = 2, int KS = 2>
static void run(const char *name, wmma::layout_t c_layout, double tolerance) {
  using S = typename input_traits<TIn>::store;
  const int rows = TM * M, cols = TN * N, depth = KS * K;
  const bool a_row = std::is_same<LA, wmma::row_major>::value;
  const bool b_row = std::is_same<LB, wmma::row_major>::value;
  const bool c_row = c_layout == wmma::mem_row_major;
  S *A, *B;
  TAcc *C;
  int *num;
  cudaMallocManaged(&A, rows * depth * sizeof(S));
  cudaMallocManaged(&B, depth * cols * sizeof(S));
  cudaMallocManaged(&C, rows * cols * sizeof(TAcc));
  cudaMallocManaged(&num, TM * TN * sizeof(int));
  std::vector<double> a(rows * depth), b(depth * cols), c0(rows * cols);
  /* tf32 inputs are rounded on the device, as programs do; the host's
   * reference rounds them with its own formula. */
  for (int i = 0; i < rows; ++i)
    for (int k = 0; k < depth; ++k) {
      S v = input_traits<TIn>::make(input_traits<TIn>::value(i * depth + k));
      A[a_row ? i * depth + k : k * rows + i] = v;
      a[i * depth + k] = reference_value<TIn>(v);
    }
  for (int k = 0; k < depth; ++k)
    for (int j = 0; j < cols; ++j) {
      S v = input_traits<TIn>::make(input_traits<TIn>::value(k * cols + j + 3));
      B[b_row ? k * cols + j : j * depth + k] = v;
      b[k * cols + j] = reference_value<TIn>(v);
    }
  if constexpr (std::is_same<TIn, wmma::precision::tf32>::value) {
    to_tf32<<<1, 256>>>(A, rows * depth);
    to_tf32<<<1, 256>>>(B, depth * cols);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (int i = 0; i < rows * depth; ++i)
      CHECK(A[i] == host_tf32(A[i]));
  }
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      double v = (i * 3 + j) % 5 - 2;
      c0[i * cols + j] = v;
      C[c_row ? i * cols + j : j * rows + i] = acc_make<TAcc>(v);
    }
  const TAcc alpha = acc_make<TAcc>(2);
  gemm<TIn, TAcc, M, N, K, LA, LB, TM, TN, KS>
      <<<(TM * TN + 1) / 2, 64>>>(A, B, C, c_layout, alpha, num);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      double want = c0[i * cols + j];
      for (int k = 0; k < depth; ++k)
        want += a[i * depth + k] * b[k * cols + j];
      want *= 2;
      double got = acc_value(C[c_row ? i * cols + j : j * rows + i]);
      double err = std::fabs(got - want);
      if (tolerance == 0 ? err != 0 : err > tolerance * (1 + std::fabs(want)))
        ++bad;
    }
  for (int w = 0; w < TM * TN; ++w)
    CHECK(num[w] == M * N / 32);
  if (bad)
    std::fprintf(stderr, "%s: %d elements differ\n", name, bad);
  CHECK(bad == 0);
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  cudaFree(num);
}

int main() {
  using R = wmma::row_major;
  using Cm = wmma::col_major;
  const auto row = wmma::mem_row_major, col = wmma::mem_col_major;
  /* Halves with float and half accumulators, the three shapes. */
  run<__half, float, 16, 16, 16, R, Cm>("half/float 16x16x16", row, 0);
  run<__half, float, 16, 16, 16, Cm, R>("half/float 16x16x16 cr", col, 0);
  run<__half, float, 32, 8, 16, R, R, 2, 1>("half/float 32x8x16", row, 0);
  run<__half, float, 8, 32, 16, Cm, Cm, 1, 2>("half/float 8x32x16", col, 0);
  run<__half, __half, 16, 16, 16, R, Cm>("half/half 16x16x16", row, 0);
  run<__half, __half, 32, 8, 16, Cm, R, 2, 1>("half/half 32x8x16", col, 0);
  run<__half, __half, 8, 32, 16, R, R, 1, 2>("half/half 8x32x16", row, 0);
  /* bfloat16. */
  run<__nv_bfloat16, float, 16, 16, 16, R, Cm>("bf16 16x16x16", row, 0);
  run<__nv_bfloat16, float, 32, 8, 16, Cm, R, 2, 1>("bf16 32x8x16", col, 0);
  run<__nv_bfloat16, float, 8, 32, 16, R, R, 1, 2>("bf16 8x32x16", row, 0);
  /* Tiles stay 256-bit aligned (CUDA's rule for mptr): 8-bit integers take
   * one k step, and the narrow shapes one tile across their narrow side. */
  run<signed char, int, 16, 16, 16, R, Cm, 2, 2, 1>("s8 16x16x16", row, 0);
  run<signed char, int, 32, 8, 16, R, Cm, 2, 1, 1>("s8 32x8x16", col, 0);
  run<signed char, int, 8, 32, 16, R, R, 1, 1, 1>("s8 8x32x16", row, 0);
  run<unsigned char, int, 16, 16, 16, Cm, R, 1, 1, 1>("u8 16x16x16", row, 0);
  run<unsigned char, int, 32, 8, 16, R, Cm, 1, 1, 1>("u8 32x8x16", col, 0);
  run<unsigned char, int, 8, 32, 16, R, Cm, 1, 2, 1>("u8 8x32x16", row, 0);
  /* tf32 and double. */
  run<wmma::precision::tf32, float, 16, 16, 8, R, Cm>("tf32 16x16x8", row,
                                                       1e-5);
  run<wmma::precision::tf32, float, 16, 16, 8, Cm, R>("tf32 16x16x8 cr", col,
                                                       1e-5);
  run<double, double, 8, 8, 4, R, Cm>("double 8x8x4", row, 1e-13);
  run<double, double, 8, 8, 4, Cm, R>("double 8x8x4 cr", col, 1e-13);
  /* __float_to_tf32 rounds to nearest, ties away from zero, to 10 bits. */
  float *t;
  cudaMallocManaged(&t, 3 * sizeof(float));
  tf32_cases<<<1, 1>>>(t);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(t[0] == 1.0f + 1.0f / 1024);
  CHECK(t[1] == 1.0f);
  CHECK(t[2] == -(1.0f + 2.0f / 1024));

  float *out;
  cudaMalloc(&out, 256 * sizeof(float));
  partial_warp<<<1, 16>>>(out);
  CHECK(cudaDeviceSynchronize() != cudaSuccess);
  cudaDeviceReset();
  return finish();
}
