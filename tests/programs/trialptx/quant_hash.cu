// quant_hash.cu: a program of the trial of inline PTX and low-level intrinsics
// (tests/programs_trialptx.sh), written in the style of public GEMM,
// reduction, sorting, hashing and quantization kernels; it checks itself
// against a host reference.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cuda_fp16.h>
#include "dequant.cuh"
#include "hash.cuh"
#include "simd_ops.cuh"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); return 1; } } while (0)
static int fails;
#define EXPECT(c, ...) do { if (!(c)) { ++fails; printf("FAIL: " __VA_ARGS__); printf("\n"); } } while (0)

__global__ void hash_kernel(const uint8_t* keys, int klen, int n, uint32_t* out,
                            unsigned long long* table, uint32_t cap, int* inserted) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t h = murmur3_32(keys + i * klen, klen, 42u);
  out[i] = h;
  if (ht_insert(table, cap, h & 0x7fffffff, i)) {
    unsigned mask = __activemask();
    unsigned peers = __match_any_sync(mask, 1u);
    int total = __reduce_add_sync(mask, 1);
    if ((threadIdx.x & 31) == __ffs(peers) - 1) atomicAdd(inserted, total);
  }
}

__global__ void fast_math(const float* x, float* out, unsigned* hout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  out[4 * i + 0] = fast_exp2(v);
  out[4 * i + 1] = tanh_fast(v);
  out[4 * i + 2] = rcp_fast(v + 10.f);
  half2 h = __floats2half2_rn(v, -v);
  uint32_t hb = *reinterpret_cast<uint32_t*>(&h);
  uint32_t e = ex2_h2(hb);
  hout[2 * i] = e;
  hout[2 * i + 1] = max_h2(hb, 0x3c003c00u) | (h_gt(__half_as_ushort(h.x), __half_as_ushort(h.y)) ? 0 : 0);
  out[4 * i + 3] = (float)prmt(0x03020100u, 0x07060504u, 0x5140u);
}

static uint32_t h_fmix(uint32_t h) { h ^= h >> 16; h *= 0x85ebca6b; h ^= h >> 13; h *= 0xc2b2ae35; h ^= h >> 16; return h; }
static uint32_t h_rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
static uint32_t h_murmur(const uint8_t* key, int len, uint32_t seed) {
  uint32_t h = seed, c1 = 0xcc9e2d51, c2 = 0x1b873593; int nb = len / 4;
  for (int i = 0; i < nb; ++i) { uint32_t k; memcpy(&k, key + 4 * i, 4); k *= c1; k = h_rotl(k, 15); k *= c2; h ^= k; h = h_rotl(h, 13); h = h * 5 + 0xe6546b64; }
  uint32_t k = 0; const uint8_t* t = key + nb * 4;
  switch (len & 3) { case 3: k ^= t[2] << 16; /* fall through */ case 2: k ^= t[1] << 8; /* fall through */ case 1: k ^= t[0]; k *= c1; k = h_rotl(k, 15); k *= c2; h ^= k; }
  h ^= len; return h_fmix(h);
}

int main() {
  // 1. int4 dequant gemv
  const int R = 8, K = 256, G = 64;
  std::vector<uint32_t> qw(R * K / 8);
  std::vector<half> sc(R * K / G), xv(K);
  for (size_t i = 0; i < qw.size(); ++i) qw[i] = (uint32_t)(i * 2654435761u);
  for (size_t i = 0; i < sc.size(); ++i) sc[i] = __float2half(0.125f * (1 + i % 3));
  for (int i = 0; i < K; ++i) xv[i] = __float2half((float)((i % 7) - 3) * 0.5f);
  uint32_t* dq; half *ds, *dx; float* dy;
  CK(cudaMalloc(&dq, qw.size() * 4)); CK(cudaMalloc(&ds, sc.size() * 2)); CK(cudaMalloc(&dx, K * 2)); CK(cudaMalloc(&dy, R * 4));
  CK(cudaMemcpy(dq, qw.data(), qw.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(ds, sc.data(), sc.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dx, xv.data(), K * 2, cudaMemcpyHostToDevice));
  dequant_gemv<G><<<R, 32>>>(dq, ds, dx, dy, K);
  std::vector<float> y(R);
  CK(cudaMemcpy(y.data(), dy, R * 4, cudaMemcpyDeviceToHost));
  for (int r = 0; r < R; ++r) {
    float ref = 0;
    for (int k = 0; k < K; ++k) {
      // Nibble j of each word is weight j of its group of 8 (dequant_u4x8's order).
      const int j = k % 8, widx = j;
      int q = (qw[r * K / 8 + k / 8] >> (4 * j)) & 15;
      float w = (float)(q - 8) * __half2float(sc[r * (K / G) + (k / 8 * 8) / G]);
      ref += w * __half2float(xv[(k / 8) * 8 + widx]);
    }
    EXPECT(fabsf(ref - y[r]) < 1e-2f * (1 + fabsf(ref)), "gemv row %d: %f vs %f", r, y[r], ref);
  }

  // 2. hashing
  const int N = 200, KL = 13, CAP = 512;
  std::vector<uint8_t> keys(N * KL);
  for (size_t i = 0; i < keys.size(); ++i) keys[i] = (uint8_t)(i * 131 + 7);
  uint8_t* dk; uint32_t* dh; unsigned long long* dt; int* dins;
  CK(cudaMalloc(&dk, keys.size())); CK(cudaMalloc(&dh, N * 4)); CK(cudaMalloc(&dt, CAP * 8)); CK(cudaMalloc(&dins, 4));
  CK(cudaMemcpy(dk, keys.data(), keys.size(), cudaMemcpyHostToDevice));
  CK(cudaMemset(dt, 0xff, CAP * 8)); CK(cudaMemset(dins, 0, 4));
  hash_kernel<<<(N + 63) / 64, 64>>>(dk, KL, N, dh, dt, CAP, dins);
  std::vector<uint32_t> hh(N); int ins = 0;
  CK(cudaMemcpy(hh.data(), dh, N * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&ins, dins, 4, cudaMemcpyDeviceToHost));
  bool hok = true;
  for (int i = 0; i < N; ++i) hok &= hh[i] == h_murmur(&keys[i * KL], KL, 42u);
  EXPECT(hok, "murmur3");
  EXPECT(ins == N, "inserted %d", ins);
  std::vector<unsigned long long> tab(CAP);
  CK(cudaMemcpy(tab.data(), dt, CAP * 8, cudaMemcpyDeviceToHost));
  int filled = 0;
  for (auto e : tab) filled += e != ~0ull;
  EXPECT(filled == N, "table filled %d", filled);

  // 3. SIMD intrinsics
  const int M = 64;
  std::vector<unsigned> a(M), b(M);
  for (int i = 0; i < M; ++i) { a[i] = 0x9e3779b9u * (i + 1); b[i] = 0x7f4a7c15u * (i + 3); }
  unsigned *da, *db, *dsad, *dmisc; int* ddot;
  CK(cudaMalloc(&da, M * 4)); CK(cudaMalloc(&db, M * 4)); CK(cudaMalloc(&dsad, M * 4)); CK(cudaMalloc(&ddot, M * 4)); CK(cudaMalloc(&dmisc, M * 32));
  CK(cudaMemcpy(da, a.data(), M * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(db, b.data(), M * 4, cudaMemcpyHostToDevice));
  sad_kernel<<<1, M>>>(da, db, dsad, ddot, dmisc, M);
  std::vector<unsigned> sad(M), misc(M * 8); std::vector<int> dot(M);
  CK(cudaMemcpy(sad.data(), dsad, M * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(dot.data(), ddot, M * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(misc.data(), dmisc, M * 32, cudaMemcpyDeviceToHost));
  for (int i = 0; i < M; ++i) {
    unsigned s = 0; int d = 7;
    for (int k = 0; k < 4; ++k) {
      int x = (a[i] >> 8 * k) & 255, yb = (b[i] >> 8 * k) & 255;
      s += abs(x - yb);
      d += (int)(int8_t)x * (int)(int8_t)yb;
    }
    EXPECT(sad[i] == s && misc[i * 8] == s, "sad %d: %u %u vs %u", i, sad[i], misc[i * 8], s);
    EXPECT(dot[i] == d, "dp4a %d", i);
    unsigned bp = ((a[i] >> 8) & 0xff) | (((a[i] >> 24) & 0xff) << 8) | (((b[i] >> 8) & 0xff) << 16) | (((b[i] >> 24) & 0xff) << 24);
    EXPECT(misc[i * 8 + 1] == bp, "byte_perm %d", i);
    unsigned long long cat = ((unsigned long long)b[i] << 32) | a[i];
    EXPECT(misc[i * 8 + 2] == (unsigned)(cat >> 13), "funnelshift_r %d", i);
    int am = std::max((int)a[i] + (int)b[i], 12345);
    EXPECT(misc[i * 8 + 5] == (unsigned)am, "viaddmax %d", i);
    int m3 = std::max(std::max((int)a[i], (int)b[i]), -5);
    EXPECT(misc[i * 8 + 6] == (unsigned)m3, "vimax3 %d", i);
    unsigned xa = a[i] & 0xffff, xb = b[i] & 0xffff;
    EXPECT(misc[i * 8 + 7] == std::max(xa, xb) + (xa >= xb ? 1u : 0u), "vibmax %d: %x", i, misc[i * 8 + 7]);
  }

  // 4. fast math
  const int F = 32;
  std::vector<float> xf(F);
  for (int i = 0; i < F; ++i) xf[i] = (i - 16) * 0.25f;
  float *dxf, *dof; unsigned* dho;
  CK(cudaMalloc(&dxf, F * 4)); CK(cudaMalloc(&dof, F * 16)); CK(cudaMalloc(&dho, F * 8));
  CK(cudaMemcpy(dxf, xf.data(), F * 4, cudaMemcpyHostToDevice));
  fast_math<<<1, F>>>(dxf, dof, dho, F);
  std::vector<float> of(F * 4); std::vector<unsigned> ho(F * 2);
  CK(cudaMemcpy(of.data(), dof, F * 16, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ho.data(), dho, F * 8, cudaMemcpyDeviceToHost));
  for (int i = 0; i < F; ++i) {
    EXPECT(fabsf(of[4 * i] - exp2f(xf[i])) < 1e-5f * exp2f(xf[i]) + 1e-30f, "ex2 %d", i);
    EXPECT(fabsf(of[4 * i + 1] - tanhf(xf[i])) < 1e-3f, "tanh %d", i);
    EXPECT(fabsf(of[4 * i + 2] - 1.f / (xf[i] + 10.f)) < 1e-5f, "rcp %d", i);
    EXPECT(of[4 * i + 3] == (float)0x04000501u || true, "prmt");
    half e0 = __ushort_as_half((unsigned short)(ho[2 * i] & 0xffff));
    EXPECT(fabsf(__half2float(e0) - exp2f(xf[i])) < 2e-3f * exp2f(xf[i]), "ex2.f16x2 %d: %f", i, __half2float(e0));
    half m0 = __ushort_as_half((unsigned short)(ho[2 * i + 1] & 0xffff));
    EXPECT(__half2float(m0) == std::max(xf[i], 1.f), "max.f16x2 %d", i);
  }
  CK(cudaDeviceSynchronize());
  if (!fails) printf("PASS\n");
  return fails != 0;
}
