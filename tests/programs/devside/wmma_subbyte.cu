/*
 * wmma_subbyte.cu: the experimental sub-byte tensor-core fragments of
 * <mma.h> (present on sm_90): u4 and s4 GEMMs in the m8n8k32 shape with
 * int accumulators (and satf), and the 1-bit bmma_sync in m8n8k128 with
 * XOR and AND and POPC accumulation, each over several k steps, against a
 * host reference that unpacks the documented packing (element j of a row
 * of A or a column of B in bits 4 * (j % 8) of word j / 8, or bit j % 32
 * of word j / 32); fill_fragment, num_elements and num_storage_elements.
 */
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <mma.h>
#include <vector>

#include "../check.cuh"

using namespace nvcuda;
namespace sub = nvcuda::wmma::experimental::precision;

/* One warp computes the 8 x 8 tile D = A * B + C, K a multiple of the
 * shape's k. A is stored as K / k tiles of 8 x k elements (row-major) and
 * B as K / k tiles of k x 8 (column-major), each 128 bytes, so that every
 * tile starts 256-bit aligned as load_matrix_sync requires. */
template <typename T>
__global__ void int4_gemm(const unsigned *a, const unsigned *b, const int *c,
                          int *d, int K, bool satf) {
  wmma::fragment<wmma::matrix_a, 8, 8, 32, T, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, T, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> acc;
  wmma::load_matrix_sync(acc, c, 8, wmma::mem_row_major);
  for (int k = 0; k < K; k += 32) {
    /* A tile of 8 x 32 4-bit elements is 32 words. */
    wmma::load_matrix_sync(fa, a + k, 32);
    wmma::load_matrix_sync(fb, b + k, 32);
    wmma::mma_sync(acc, fa, fb, acc, satf);
  }
  wmma::store_matrix_sync(d, acc, 8, wmma::mem_row_major);
}

__global__ void bit_gemm(const unsigned *a, const unsigned *b, int *d, int K,
                         wmma::experimental::bmmaBitOp op) {
  wmma::fragment<wmma::matrix_a, 8, 8, 128, sub::b1, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, sub::b1, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> acc;
  wmma::fill_fragment(acc, 1000);
  for (int k = 0; k < K; k += 128) {
    /* A tile of 8 x 128 bits is 32 words. */
    wmma::load_matrix_sync(fa, a + k / 4, 128);
    wmma::load_matrix_sync(fb, b + k / 4, 128);
    wmma::bmma_sync(acc, fa, fb, acc, op,
                    wmma::experimental::bmmaAccumulateOpPOPC);
  }
  wmma::store_matrix_sync(d, acc, 8, wmma::mem_col_major);
}

/* Fragment sizes and fill_fragment's packing. */
__global__ void sizes(unsigned *out) {
  wmma::fragment<wmma::matrix_a, 8, 8, 32, sub::u4, wmma::row_major> fu;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, sub::s4, wmma::col_major> fs;
  wmma::fragment<wmma::matrix_a, 8, 8, 128, sub::b1, wmma::row_major> fb;
  wmma::fill_fragment(fu, 0x3au);
  wmma::fill_fragment(fs, -3);
  wmma::fill_fragment(fb, 3u);
  if (threadIdx.x == 0) {
    out[0] = fu.num_elements * 100 + fu.num_storage_elements;
    out[1] = fb.num_elements * 100 + fb.num_storage_elements;
    out[2] = fu.x[0];
    out[3] = static_cast<unsigned>(fs.x[0]);
    out[4] = fb.x[0];
  }
}

/* Packs element e (its low `bits`) at position j of a packed row. */
static void put(std::vector<unsigned> &w, size_t j, int bits, int e) {
  size_t per = 32 / bits;
  w[j / per] |= (static_cast<unsigned>(e) & ((1u << bits) - 1u))
                << (j % per * bits);
}

/* A managed copy of v, which kernels and the host both read. */
template <typename T> static T *shared_copy(const std::vector<T> &v) {
  T *d = nullptr;
  CHECK(cudaMallocManaged(&d, v.size() * sizeof(T)) == cudaSuccess);
  for (size_t i = 0; i < v.size(); ++i)
    d[i] = v[i];
  return d;
}

template <typename T>
static void check_int4(bool is_signed, bool satf, int c_base) {
  const int K = 96, bits = 4;
  std::vector<int> A(8 * K), B(K * 8), C(64);
  std::vector<unsigned> pa(8 * K / 8), pb(K * 8 / 8);
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < K; ++k) {
      int v = static_cast<int>((i * 7 + k * 3) % 16);
      A[i * K + k] = is_signed && v > 7 ? v - 16 : v;
      put(pa, static_cast<size_t>(k / 32 * 256 + i * 32 + k % 32), bits,
          A[i * K + k]);
    }
  for (int j = 0; j < 8; ++j)
    for (int k = 0; k < K; ++k) {
      int v = static_cast<int>((j * 5 + k * 11 + 1) % 16);
      B[k * 8 + j] = is_signed && v > 7 ? v - 16 : v;
      put(pb, static_cast<size_t>(k / 32 * 256 + j * 32 + k % 32), bits,
          B[k * 8 + j]);
    }
  for (int e = 0; e < 64; ++e)
    C[e] = c_base + e;
  unsigned *da = shared_copy(pa), *db = shared_copy(pb);
  int *dc = shared_copy(C), *D = shared_copy(std::vector<int>(64));
  int4_gemm<T><<<1, 32>>>(da, db, dc, D, K, satf);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int wrong = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      /* Saturation applies per mma_sync: each k step of 32. */
      long long acc = C[i * 8 + j];
      for (int k0 = 0; k0 < K; k0 += 32) {
        for (int k = k0; k < k0 + 32; ++k)
          acc += static_cast<long long>(A[i * K + k]) * B[k * 8 + j];
        if (satf)
          acc = acc > INT_MAX ? INT_MAX : acc < INT_MIN ? INT_MIN : acc;
        else
          acc = static_cast<int>(static_cast<unsigned>(acc));
      }
      wrong += D[i * 8 + j] != static_cast<int>(acc);
    }
  CHECK(wrong == 0);
  for (void *p : {(void *)da, (void *)db, (void *)dc, (void *)D})
    cudaFree(p);
}

static void check_bits(wmma::experimental::bmmaBitOp op) {
  const int K = 256;
  std::vector<int> A(8 * K), B(K * 8);
  std::vector<unsigned> pa(8 * K / 32), pb(K * 8 / 32);
  unsigned seed = 12345u;
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < K; ++k) {
      seed = seed * 1103515245u + 12345u;
      A[i * K + k] = (seed >> 16) & 1;
      put(pa, static_cast<size_t>(k / 128 * 1024 + i * 128 + k % 128), 1,
          A[i * K + k]);
    }
  for (int j = 0; j < 8; ++j)
    for (int k = 0; k < K; ++k) {
      seed = seed * 1103515245u + 12345u;
      B[k * 8 + j] = (seed >> 17) & 1;
      put(pb, static_cast<size_t>(k / 128 * 1024 + j * 128 + k % 128), 1,
          B[k * 8 + j]);
    }
  unsigned *da = shared_copy(pa), *db = shared_copy(pb);
  int *D = shared_copy(std::vector<int>(64));
  bit_gemm<<<1, 32>>>(da, db, D, K, op);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int wrong = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      int acc = 1000;
      for (int k = 0; k < K; ++k)
        acc += op == wmma::experimental::bmmaBitOpAND
                   ? (A[i * K + k] & B[k * 8 + j])
                   : (A[i * K + k] ^ B[k * 8 + j]);
      wrong += D[j * 8 + i] != acc; /* stored column-major */
    }
  CHECK(wrong == 0);
  for (void *p : {(void *)da, (void *)db, (void *)D})
    cudaFree(p);
}

int main() {
  check_int4<sub::u4>(false, false, -40);
  check_int4<sub::s4>(true, false, 7);
  check_int4<sub::s4>(true, true, INT_MAX - 2000); /* saturates */
  check_int4<sub::u4>(false, true, INT_MAX - 100);
  check_bits(wmma::experimental::bmmaBitOpXOR);
  check_bits(wmma::experimental::bmmaBitOpAND);

  unsigned *out;
  CHECK(cudaMallocManaged(&out, 5 * sizeof(unsigned)) == cudaSuccess);
  sizes<<<1, 32>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 801);
  CHECK(out[1] == 3201);
  CHECK(out[2] == 0xaaaaaaaau);
  CHECK(out[3] == 0xddddddddu);
  CHECK(out[4] == 0xffffffffu);
  return finish();
}
