// ldmatrix and mma.sync checked lane by lane against the PTX ISA's
// formulas, each on its own (tensor_core_ptx.cu feeds one into the other,
// where a layout wrong the same way in both passes). ldmatrix .x1, .x2.trans,
// .x4 and .x4.trans with rows addressed out of order, and a tile overwritten
// by other lanes right after the load (the warp's load completes first);
// mma.sync with fragments built from the ISA's tables, for m16n8k16 with
// .f32 and .f16 accumulators (a result the .f16 rounds) and bf16 m16n8k8.
#include "../check.cuh"

#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// Four 8 x 8 matrices of b16 values, stored matrix by matrix, row by row:
// stored[s][r][c] = 1000 s + 10 r + c (distinct, exact in b16).
__device__ __host__ inline unsigned short stored_value(int s, int r, int c) {
  return static_cast<unsigned short>(1000 * s + 10 * r + c);
}
// Lane 8m + r addresses stored matrix (m + 1) % 4, row (3 r + 5) % 8: the
// loaded matrix m's row r.
__device__ __host__ inline int stored_matrix(int m) { return (m + 1) % 4; }
__device__ __host__ inline int stored_row(int r) { return (3 * r + 5) % 8; }

template <int Form>
__global__ void load_fragments(uint32_t *out) {
  __shared__ __align__(16) unsigned short tile[4 * 64];
  const int lane = threadIdx.x;
  for (int i = lane; i < 4 * 64; i += 32) tile[i] = stored_value(i / 64, i / 8 % 8, i % 8);
  __syncwarp();
  const int m = lane / 8, r = lane % 8;
  const uint32_t row = static_cast<uint32_t>(
      __cvta_generic_to_shared(&tile[stored_matrix(m) * 64 + stored_row(r) * 8]));
  uint32_t d[4] = {0, 0, 0, 0};
  if (Form == 1)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(d[0]) : "r"(row));
  else if (Form == 2)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(d[0]), "=r"(d[1]) : "r"(row));
  else if (Form == 4)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(row));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(row));
  // The tile is reused at once: every lane overwrites a row another lane
  // addressed (no barrier needed, the warp's load has completed).
  for (int c = 0; c < 8; ++c)
    tile[stored_matrix((lane + 9) / 8 % 4) * 64 + stored_row((lane + 9) % 8) * 8 + c] = 0xffff;
  for (int i = 0; i < 4; ++i) out[lane * 4 + i] = d[i];
}

// The ISA's ldmatrix fragment: lane t holds, of matrix m, row t/4 and
// columns 2(t%4), 2(t%4)+1; .trans: rows 2(t%4), 2(t%4)+1 of column t/4.
static uint32_t expected_fragment(int lane, int m, bool trans) {
  const int s = stored_matrix(m);
  unsigned short lo, hi;
  if (!trans) {
    lo = stored_value(s, stored_row(lane / 4), 2 * (lane % 4));
    hi = stored_value(s, stored_row(lane / 4), 2 * (lane % 4) + 1);
  } else {
    lo = stored_value(s, stored_row(2 * (lane % 4)), lane / 4);
    hi = stored_value(s, stored_row(2 * (lane % 4) + 1), lane / 4);
  }
  return lo | (static_cast<uint32_t>(hi) << 16);
}

template <int Form>
static void check_ldmatrix(uint32_t *out, int count, bool trans) {
  CHECK(cudaMemset(out, 0, 32 * 4 * sizeof(uint32_t)) == cudaSuccess);
  load_fragments<Form><<<1, 32>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int m = 0; m < 4; ++m)
      bad += out[lane * 4 + m] != (m < count ? expected_fragment(lane, m, trans) : 0u);
  CHECK(bad == 0);
}

// Operands of mma.sync: A (16 x 16, row major), B (16 x 8, B[k][n]), C
// (16 x 8), all exact in f16 and bf16.
__device__ __host__ inline float a_value(int r, int k) { return ((r * 7 + k * 3) % 11 - 5) * 0.125f; }
__device__ __host__ inline float b_value(int k, int n) { return ((k * 5 + n * 3) % 9 - 4) * 0.25f; }
__device__ __host__ inline float c_value(int r, int n, bool big) {
  return (big ? 1000.0f : 0.0f) + r * 0.5f - n;
}

template <typename T> __device__ uint32_t pair(float lo, float hi);
template <> __device__ uint32_t pair<__half>(float lo, float hi) {
  return static_cast<uint32_t>(__half_as_ushort(__float2half_rn(lo))) |
         (static_cast<uint32_t>(__half_as_ushort(__float2half_rn(hi))) << 16);
}
template <> __device__ uint32_t pair<__nv_bfloat16>(float lo, float hi) {
  return static_cast<uint32_t>(__bfloat16_as_ushort(__float2bfloat16_rn(lo))) |
         (static_cast<uint32_t>(__bfloat16_as_ushort(__float2bfloat16_rn(hi))) << 16);
}

// The ISA's fragments ("Matrix fragments for mma.m16n8k16 / m16n8k8"),
// groupID g = lane / 4, threadID_in_group t = lane % 4: A's element i of
// m16n8k16 is at row g + 8 ((i / 2) % 2), column 2t + i % 2 + 8 (i / 4);
// B's element i at row 2t + i % 2 + 8 (i / 2), column g; C's and D's
// element i at row g + 8 (i / 2), column 2t + i % 2. m16n8k8 keeps the
// first half of A's and B's.
__global__ void mma_m16n8k16(float *d32, float *d16, int f16_variant) {
  const int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  uint32_t a[4], b[2];
  for (int i = 0; i < 8; i += 2)
    a[i / 2] = pair<__half>(a_value(g + 8 * (i / 2 % 2), 2 * t + 8 * (i / 4)),
                            a_value(g + 8 * (i / 2 % 2), 2 * t + 1 + 8 * (i / 4)));
  for (int i = 0; i < 4; i += 2)
    b[i / 2] = pair<__half>(b_value(2 * t + 8 * (i / 2), g), b_value(2 * t + 1 + 8 * (i / 2), g));
  float c[4];
  for (int i = 0; i < 4; ++i) c[i] = c_value(g + 8 * (i / 2), 2 * t + i % 2, false);
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  for (int i = 0; i < 4; ++i) d32[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = c[i];
  // .f16 accumulators near 1000, where f16's spacing is 0.5.
  uint32_t h[2];
  for (int p = 0; p < 2; ++p)
    h[p] = pair<__half>(c_value(g + 8 * p, 2 * t, true), c_value(g + 8 * p, 2 * t + 1, true));
  if (f16_variant)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, "
                 "{%2, %3, %4, %5}, {%6, %7}, {%0, %1};"
                 : "+r"(h[0]), "+r"(h[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  for (int i = 0; i < 4; ++i)
    d16[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] =
        __half2float(__ushort_as_half(static_cast<unsigned short>(h[i / 2] >> (16 * (i % 2)))));
}

__global__ void mma_bf16_m16n8k8(float *d) {
  const int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  const uint32_t a0 = pair<__nv_bfloat16>(a_value(g, 2 * t), a_value(g, 2 * t + 1));
  const uint32_t a1 = pair<__nv_bfloat16>(a_value(g + 8, 2 * t), a_value(g + 8, 2 * t + 1));
  const uint32_t b0 = pair<__nv_bfloat16>(b_value(2 * t, g), b_value(2 * t + 1, g));
  float c[4];
  for (int i = 0; i < 4; ++i) c[i] = c_value(g + 8 * (i / 2), 2 * t + i % 2, false);
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
               "{%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a0), "r"(a1), "r"(b0));
  for (int i = 0; i < 4; ++i) d[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = c[i];
}

// Sum of A B + C over the first k columns of A, in double (exact here).
static double product(int r, int n, int k, bool big) {
  double s = c_value(r, n, big);
  for (int j = 0; j < k; ++j) s += static_cast<double>(a_value(r, j)) * b_value(j, n);
  return s;
}

// Round to the nearest f16 with spacing 0.5 (the results lie in [512, 1024)).
static float nearest_half_step(double x) {
  const double lo = static_cast<double>(static_cast<long long>(x * 2)) / 2, hi = lo + 0.5;
  return static_cast<float>(x - lo < hi - x ? lo : x - lo > hi - x ? hi
                            : (static_cast<long long>(lo * 2) % 2 ? hi : lo));
}

int main() {
  uint32_t *frag = nullptr;
  CHECK(cudaMallocManaged(&frag, 32 * 4 * sizeof(uint32_t)) == cudaSuccess);
  check_ldmatrix<1>(frag, 1, false);
  check_ldmatrix<2>(frag, 2, true);
  check_ldmatrix<4>(frag, 4, false);
  check_ldmatrix<5>(frag, 4, true);

  float *d32 = nullptr, *d16 = nullptr, *dbf = nullptr;
  CHECK(cudaMallocManaged(&d32, 128 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&d16, 128 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&dbf, 128 * sizeof(float)) == cudaSuccess);
  mma_m16n8k16<<<1, 32>>>(d32, d16, 1);
  mma_bf16_m16n8k8<<<1, 32>>>(dbf);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad32 = 0, bad16 = 0, badbf = 0, rounded = 0;
  for (int r = 0; r < 16; ++r)
    for (int n = 0; n < 8; ++n) {
      bad32 += d32[r * 8 + n] != static_cast<float>(product(r, n, 16, false));
      badbf += dbf[r * 8 + n] != static_cast<float>(product(r, n, 8, false));
      const double exact = product(r, n, 16, true);
      bad16 += d16[r * 8 + n] != nearest_half_step(exact);
      rounded += static_cast<double>(d16[r * 8 + n]) != exact;
    }
  CHECK(bad32 == 0);
  CHECK(badbf == 0);
  CHECK(bad16 == 0);
  CHECK(rounded > 16); // the .f16 accumulator did round
  CHECK(cudaFree(frag) == cudaSuccess);
  CHECK(cudaFree(d32) == cudaSuccess);
  CHECK(cudaFree(d16) == cudaSuccess);
  CHECK(cudaFree(dbf) == cudaSuccess);
  return finish();
}
