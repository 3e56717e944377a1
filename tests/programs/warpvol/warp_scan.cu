// warp_scan.cu: warp-synchronous prefix sums through volatile shared memory
// without __syncwarp(), in the two forms older scan libraries used: the
// lane-guarded Hillis-Steele steps (`if (lane >= k) s[i] = s[i - k] + s[i]`,
// lanes dropping out as k grows) and the padded form whose 16 leading zeros
// per warp make every step uniform. Block scans are built from them, as in
// the classic two-level scan, and checked against a host scan.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../check.cuh"

enum ScanKind { inclusive, exclusive };

/* The scan of the 32 values of idx's warp in ptr, lane-guarded. */
template <ScanKind Kind, typename T>
__device__ T scan_warp(volatile T *ptr, unsigned idx) {
  const unsigned lane = idx & 31;
  if (lane >= 1) ptr[idx] = ptr[idx - 1] + ptr[idx];
  if (lane >= 2) ptr[idx] = ptr[idx - 2] + ptr[idx];
  if (lane >= 4) ptr[idx] = ptr[idx - 4] + ptr[idx];
  if (lane >= 8) ptr[idx] = ptr[idx - 8] + ptr[idx];
  if (lane >= 16) ptr[idx] = ptr[idx - 16] + ptr[idx];
  if (Kind == inclusive) return ptr[idx];
  return lane > 0 ? ptr[idx - 1] : T(0);
}

/* A block's scan from its warps' scans: the last lane of each warp posts
 * its warp's total, the first warp scans the totals, and each warp adds the
 * totals of the warps before it. */
template <ScanKind Kind, typename T>
__device__ T scan_block(volatile T *ptr, unsigned idx, T own) {
  const unsigned lane = idx & 31, warp = idx >> 5;
  T val = scan_warp<Kind>(ptr, idx);
  __syncthreads();
  if (lane == 31) ptr[warp] = Kind == inclusive ? val : val + own;
  __syncthreads();
  if (warp == 0) scan_warp<inclusive>(ptr, idx);
  __syncthreads();
  if (warp > 0) val = ptr[warp - 1] + val;
  __syncthreads();
  return val;
}

template <ScanKind Kind, typename T>
__global__ void block_scan(const T *in, T *out) {
  __shared__ T s[256];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  T own = in[i];
  s[threadIdx.x] = own;
  __syncthreads();
  out[i] = scan_block<Kind>(s, threadIdx.x, own);
}

/* The padded form: each warp's 32 values follow 16 zeros, so that every
 * lane makes every step. Inclusive. */
template <typename T> __global__ void padded_warp_scan(const T *in, T *out) {
  __shared__ T s[8 * 48];
  unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  volatile T *w = s + warp * 48;
  w[lane] = T(0);
  unsigned at = lane + 16;
  T val = in[blockIdx.x * blockDim.x + tid];
  w[at] = val;
  w[at] = val = val + w[at - 1];
  w[at] = val = val + w[at - 2];
  w[at] = val = val + w[at - 4];
  w[at] = val = val + w[at - 8];
  w[at] = val = val + w[at - 16];
  out[blockIdx.x * blockDim.x + tid] = val;
}

template <ScanKind Kind, typename T> static void check_block_scan() {
  const unsigned block = 256, blocks = 3, n = block * blocks;
  std::vector<T> h(n), got(n);
  for (unsigned i = 0; i < n; ++i) h[i] = T((i * 11u) % 9u) + T(1);
  T *in, *out;
  cudaMalloc(&in, n * sizeof(T));
  cudaMalloc(&out, n * sizeof(T));
  cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  block_scan<Kind, T><<<blocks, block>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (unsigned b = 0; b < blocks; ++b) {
    T run = 0;
    for (unsigned t = 0; t < block; ++t) {
      unsigned i = b * block + t;
      T before = run;
      run += h[i];
      wrong += got[i] != (Kind == inclusive ? run : before);
    }
  }
  if (wrong)
    std::fprintf(stderr, "block_scan<%s, %zu-byte type>: %d of %u wrong\n",
                 Kind == inclusive ? "inclusive" : "exclusive", sizeof(T),
                 wrong, n);
  CHECK(wrong == 0);
  cudaFree(in);
  cudaFree(out);
}

static void check_padded() {
  const unsigned block = 256, blocks = 2, n = block * blocks;
  std::vector<int> h(n), got(n);
  for (unsigned i = 0; i < n; ++i) h[i] = int(i % 7u) - 2;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  padded_warp_scan<int><<<blocks, block>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (unsigned w = 0; w < n / 32; ++w) {
    int run = 0;
    for (unsigned l = 0; l < 32; ++l) {
      run += h[w * 32 + l];
      wrong += got[w * 32 + l] != run;
    }
  }
  if (wrong) std::fprintf(stderr, "padded_warp_scan: %d of %u wrong\n", wrong, n);
  CHECK(wrong == 0);
  cudaFree(in);
  cudaFree(out);
}

int main() {
  check_block_scan<inclusive, int>();
  check_block_scan<exclusive, int>();
  check_block_scan<inclusive, float>();
  check_padded();
  return finish();
}
