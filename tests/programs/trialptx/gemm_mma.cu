// gemm_mma.cu: a program of the trial of inline PTX and low-level intrinsics
// (tests/programs_trialptx.sh), written in the style of public GEMM,
// reduction, sorting, hashing and quantization kernels; it checks itself
// against a host reference.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include "gemm_kernel.cuh"

#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

template <typename T>
static bool run_gemm(int M, int N, int K, const char* name) {
  std::vector<T> hA(M * K), hB(N * K);
  std::vector<float> fA(M * K), fB(N * K);
  for (int i = 0; i < M * K; ++i) { hA[i] = T((float)((i * 7) % 13 - 6) / 8.0f); fA[i] = (float)hA[i]; }
  for (int i = 0; i < N * K; ++i) { hB[i] = T((float)((i * 5) % 11 - 5) / 4.0f); fB[i] = (float)hB[i]; }
  T *dA, *dB; float* dC;
  CUDA_CHECK(cudaMalloc(&dA, M * K * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&dB, N * K * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&dC, M * N * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dA, hA.data(), M * K * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, hB.data(), N * K * sizeof(T), cudaMemcpyHostToDevice));
  size_t smem = 2 * (64 * 32 + 64 * 32) * sizeof(T);
  dim3 grid((N + 63) / 64, (M + 63) / 64);
  gemm_tn<T><<<grid, 128, smem>>>(dA, dB, dC, M, N, K);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> hC(M * N);
  CUDA_CHECK(cudaMemcpy(hC.data(), dC, M * N * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float r = 0;
      for (int k = 0; k < K; ++k) r += fA[i * K + k] * fB[j * K + k];
      if (fabsf(r - hC[i * N + j]) > 1e-3f * (1 + fabsf(r)) && bad++ < 5)
        printf("%s C[%d,%d] = %f, want %f\n", name, i, j, hC[i * N + j], r);
    }
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  return bad == 0;
}

int main() {
  bool ok = true;
  ok &= run_gemm<half>(96, 128, 64, "f16");
  ok &= run_gemm<__nv_bfloat16>(64, 64, 96, "bf16");

  // int8 tile
  std::vector<int8_t> a(16 * 32), b(8 * 32);
  for (int i = 0; i < 16 * 32; ++i) a[i] = (int8_t)((i * 37) % 255 - 127);
  for (int i = 0; i < 8 * 32; ++i) b[i] = (int8_t)((i * 91) % 251 - 125);
  int8_t *da, *db; int* dc;
  CUDA_CHECK(cudaMalloc(&da, 512)); CUDA_CHECK(cudaMalloc(&db, 256)); CUDA_CHECK(cudaMalloc(&dc, 512));
  CUDA_CHECK(cudaMemcpy(da, a.data(), 512, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, b.data(), 256, cudaMemcpyHostToDevice));
  int8_tile<<<1, 32>>>(da, db, dc);
  std::vector<int> c(128);
  CUDA_CHECK(cudaMemcpy(c.data(), dc, 512, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      int r = 0;
      for (int k = 0; k < 32; ++k) r += a[i * 32 + k] * b[j * 32 + k];
      if (r != c[i * 8 + j]) { if (ok) printf("int8 C[%d,%d] = %d, want %d\n", i, j, c[i * 8 + j], r); ok = false; }
    }

  // transposed ldmatrix
  std::vector<half> t(128);
  for (int i = 0; i < 128; ++i) t[i] = __float2half((float)i);
  half* dt; uint32_t* dout;
  CUDA_CHECK(cudaMalloc(&dt, 256)); CUDA_CHECK(cudaMalloc(&dout, 256));
  CUDA_CHECK(cudaMemcpy(dt, t.data(), 256, cudaMemcpyHostToDevice));
  ldsm_trans_kernel<<<1, 32>>>(dt, dout);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<uint32_t> o(64);
  CUDA_CHECK(cudaMemcpy(o.data(), dout, 256, cudaMemcpyDeviceToHost));
  // Matrix m (rows 8m..8m+7), transposed: lane l holds elements (row 2*(l%4)+{0,1}, col l/4) of matrix m.
  for (int m = 0; m < 2 && ok; ++m)
    for (int l = 0; l < 32; ++l) {
      uint32_t w = o[l * 2 + m];
      float lo = __half2float(__ushort_as_half((unsigned short)(w & 0xffff)));
      float hi = __half2float(__ushort_as_half((unsigned short)(w >> 16)));
      float elo = (float)((8 * m + 2 * (l % 4)) * 8 + l / 4), ehi = (float)((8 * m + 2 * (l % 4) + 1) * 8 + l / 4);
      if (lo != elo || hi != ehi) { printf("ldmatrix.trans m%d lane %d: %g %g want %g %g\n", m, l, lo, hi, elo, ehi); ok = false; break; }
    }
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
