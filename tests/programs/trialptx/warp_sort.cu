// warp_sort.cu: a program of the trial of inline PTX and low-level intrinsics
// (tests/programs_trialptx.sh), written in the style of public GEMM,
// reduction, sorting, hashing and quantization kernels; it checks itself
// against a host reference.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include "radix.cuh"
#include "reduce.cuh"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); exit(1);} } while (0)

static int fails = 0;
#define EXPECT(c, ...) do { if (!(c)) { ++fails; printf("FAIL: " __VA_ARGS__); printf("\n"); } } while (0)

__global__ void misc_kernel(unsigned long long* clk, unsigned* lanes, int* shfl_out, unsigned* act) {
  unsigned long long c0 = wp::clock64();
  lanes[threadIdx.x] = wp::lane_id() | (wp::warp_id() << 8);
  bool ok;
  int v = wp::shfl_up_pred((int)threadIdx.x * 10, 3, ok);
  shfl_out[threadIdx.x] = ok ? v : -1;
  if (threadIdx.x % 3 == 0) act[threadIdx.x / 32] = __activemask();
  unsigned long long c1 = wp::clock64();
  if (threadIdx.x == 0) clk[0] = c1 - c0;
  // bfi round trip
  unsigned x = wp::bfi(0xABu, 0x12345678u, 8, 8);
  if (x != 0x1234AB78u) asm volatile("trap;");
}

int main() {
  const int N = 1 << 14;
  std::vector<unsigned> h(N);
  srand(7);
  for (auto& x : h) x = (unsigned)rand() & 0x0fffffffu;

  unsigned *dk, *dhist, *dcopy, *dpart, *dlock, *dmax, *dsm;
  unsigned long long *dtotal, *dlocked;
  int* ddone;
  CK(cudaMalloc(&dk, N * 4));
  CK(cudaMalloc(&dcopy, N * 4));
  CK(cudaMalloc(&dhist, 16 * 4));
  CK(cudaMalloc(&dpart, 64 * 4));
  CK(cudaMalloc(&dlock, 4));
  CK(cudaMalloc(&dmax, 4));
  CK(cudaMalloc(&dsm, 4));
  CK(cudaMalloc(&dtotal, 8));
  CK(cudaMalloc(&dlocked, 8));
  CK(cudaMalloc(&ddone, 4));
  CK(cudaMemcpy(dk, h.data(), N * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dhist, 0, 64));
  CK(cudaMemset(dlock, 0, 4));
  CK(cudaMemset(dmax, 0, 4));
  CK(cudaMemset(dsm, 0, 4));
  CK(cudaMemset(dtotal, 0, 8));
  CK(cudaMemset(dlocked, 0, 8));
  CK(cudaMemset(ddone, 0, 4));

  // Histogram of digit 1 (bits 4..7).
  digit_histogram<128, 4><<<(N + 511) / 512, 128>>>(dk, N, 4, dhist);
  CK(cudaGetLastError());
  std::vector<unsigned> hist(16);
  CK(cudaMemcpy(hist.data(), dhist, 64, cudaMemcpyDeviceToHost));
  std::vector<unsigned> ref(16, 0);
  for (auto x : h) ref[(x >> 4) & 15]++;
  EXPECT(hist == ref, "digit histogram");

  // Reduction.
  reduce_streaming<256><<<16, 256>>>((const uint4*)dk, (uint4*)dcopy, N / 4, dtotal, dpart, ddone,
                                     dlock, dlocked, dmax, dsm);
  CK(cudaDeviceSynchronize());
  unsigned long long tot = 0, locked = 0;
  unsigned mx = 0;
  CK(cudaMemcpy(&tot, dtotal, 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&locked, dlocked, 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&mx, dmax, 4, cudaMemcpyDeviceToHost));
  unsigned long long rt = 0;
  unsigned rmx = 0;
  unsigned rwrap = 0;
  for (auto x : h) { rwrap += x; rmx = std::max(rmx, x); }
  std::vector<unsigned> part(16);
  CK(cudaMemcpy(part.data(), dpart, 64, cudaMemcpyDeviceToHost));
  unsigned psum = 0;
  for (auto p : part) { rt += p; psum += p; }
  EXPECT(psum == rwrap, "block partials sum %u vs %u", psum, rwrap);
  EXPECT(tot == rt && locked == rt, "totals %llu %llu %llu", tot, locked, rt);
  EXPECT(mx == rmx, "max %u vs %u", mx, rmx);
  std::vector<unsigned> copy(N);
  CK(cudaMemcpy(copy.data(), dcopy, N * 4, cudaMemcpyDeviceToHost));
  EXPECT(copy == h, "streaming copy");

  // Warp split sort of each 32-key group by digit 0.
  warp_split_sort<<<N / 32 / 8, 32>>>(dk, 0);
  CK(cudaGetLastError());
  std::vector<unsigned> sorted(N / 8);
  CK(cudaMemcpy(sorted.data(), dk, N / 8 * 4, cudaMemcpyDeviceToHost));
  bool sok = true;
  for (int b = 0; b < N / 8 / 32; ++b) {
    std::vector<unsigned> g(h.begin() + b * 32, h.begin() + b * 32 + 32);
    std::stable_sort(g.begin(), g.end(), [](unsigned a, unsigned c) { return (a & 15) < (c & 15); });
    for (int i = 0; i < 32; ++i) sok &= g[i] == sorted[b * 32 + i];
  }
  EXPECT(sok, "warp split sort");

  // Producer/consumer with named barriers.
  const int T = 5;
  std::vector<int> pin(T * 96);
  for (int i = 0; i < T * 96; ++i) pin[i] = i % 71;
  int *din, *dout;
  CK(cudaMalloc(&din, T * 96 * 4));
  CK(cudaMalloc(&dout, T * 96 * 4));
  CK(cudaMemcpy(din, pin.data(), T * 96 * 4, cudaMemcpyHostToDevice));
  producer_consumer<<<1, 128>>>(din, dout, T);
  CK(cudaDeviceSynchronize());
  std::vector<int> pout(T * 96);
  CK(cudaMemcpy(pout.data(), dout, T * 96 * 4, cudaMemcpyDeviceToHost));
  bool pok = true;
  for (int i = 0; i < T * 96; ++i) pok &= pout[i] == std::max(0, pin[i] * 3 - 100);
  EXPECT(pok, "producer/consumer");

  unsigned long long* dclk;
  unsigned *dlanes, *dact;
  int* dsh;
  CK(cudaMalloc(&dclk, 8));
  CK(cudaMalloc(&dlanes, 64 * 4));
  CK(cudaMalloc(&dact, 2 * 4));
  CK(cudaMalloc(&dsh, 64 * 4));
  misc_kernel<<<1, 64>>>(dclk, dlanes, dsh, dact);
  CK(cudaDeviceSynchronize());
  std::vector<unsigned> lanes(64);
  std::vector<int> sh(64);
  CK(cudaMemcpy(lanes.data(), dlanes, 256, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(sh.data(), dsh, 256, cudaMemcpyDeviceToHost));
  bool lok = true;
  for (int i = 0; i < 64; ++i) {
    lok &= (lanes[i] & 0xff) == (unsigned)(i % 32);
    lok &= sh[i] == ((i % 32) >= 3 ? (i - 3) * 10 : -1);
  }
  EXPECT(lok, "lane ids / shfl.up predicate");

  if (fails == 0) printf("PASS\n");
  return fails ? 1 : 0;
}
