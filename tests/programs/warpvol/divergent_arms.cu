// divergent_arms.cu: warp-synchronous code through volatile shared memory
// whose branches make more accesses on one side than on the other, in the
// two forms of pre-Volta libraries: an insertion sort of up to 32 keys by
// one warp (the lanes above the key being inserted shift it up, in an arm
// of four accesses that the others skip), and a segmented warp scan whose
// lanes at a segment head skip the read of their neighbour (`t = head ? t :
// t + s[at - k]`). A GPU warp that a branch masks off waits while the
// others execute the arm; before, in cuemu, the lanes that skipped it ran
// ahead by the accesses they skipped, read before the others had stored,
// and the sort lost keys (12 keys: 5 and 7 gone, three 0s). The segmented
// scan was right even so (a lane at a head that runs ahead stores the value
// already there); it checks that the padding of a conditional expression
// keeps it right.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../check.cuh"

/* Sorts the first n (at most 32) keys by insertion, one lane per key. */
__global__ void warp_insertion_sort(unsigned *keys, unsigned n) {
  volatile __shared__ unsigned k[32];
  volatile __shared__ unsigned moved[32];
  const unsigned t = threadIdx.x;
  k[t] = keys[t];
  for (unsigned i = 1; i < n; ++i) {
    unsigned key = k[i];
    moved[t] = 0;
    if (t < i && k[t] > key) {
      unsigned up = k[t];
      moved[t] = 1;
      k[t + 1] = up;
      moved[t + 1] = 0;
    }
    if (moved[t] == 1) k[t] = key;
  }
  keys[t] = k[t];
}

/* Inclusive sums of the segments of each warp's values; a segment starts at
 * a lane whose head flag is set (and at lane 0). */
__global__ void warp_segmented_sums(const int *in, const unsigned *heads,
                                    int *out) {
  volatile __shared__ int s[2 * 64];
  volatile __shared__ unsigned f[2 * 64];
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  int at = 2 * threadIdx.x - (threadIdx.x & 31);
  s[at] = 0;
  f[at] = 1;
  at += 32;
  int t = s[at] = in[g];
  unsigned h = f[at] = heads[g] | ((threadIdx.x & 31) == 0);
  for (int k = 1; k < 32; k <<= 1) {
    s[at] = t = h ? t : t + s[at - k];
    f[at] = h = f[at - k] | h;
  }
  out[g] = t;
}

static void check_sort() {
  for (unsigned n = 2; n <= 32; ++n) {
    std::vector<unsigned> h(32), want;
    for (unsigned i = 0; i < 32; ++i) h[i] = (i * 17 + 5) % 32 + (i & 4);
    want = h;
    std::sort(want.begin(), want.begin() + n);
    unsigned *d;
    cudaMalloc(&d, 32 * sizeof(unsigned));
    cudaMemcpy(d, h.data(), 32 * sizeof(unsigned), cudaMemcpyHostToDevice);
    warp_insertion_sort<<<1, 32>>>(d, n);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    cudaMemcpy(h.data(), d, 32 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaFree(d);
    bool same = std::equal(want.begin(), want.begin() + n, h.begin());
    if (!same) std::fprintf(stderr, "sort of %u keys wrong\n", n);
    CHECK(same);
  }
}

static void check_segmented() {
  const unsigned n = 2 * 64;
  std::vector<int> in(n), got(n);
  std::vector<unsigned> heads(n);
  for (unsigned i = 0; i < n; ++i) {
    in[i] = int(i % 5) + 1;
    heads[i] = (i * 7) % 11 == 3;
  }
  int *din, *dout;
  unsigned *dheads;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, n * sizeof(int));
  cudaMalloc(&dheads, n * sizeof(unsigned));
  cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dheads, heads.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  warp_segmented_sums<<<2, 64>>>(din, dheads, dout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(got.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0, run = 0;
  for (unsigned i = 0; i < n; ++i) {
    run = (heads[i] || i % 32 == 0) ? in[i] : run + in[i];
    wrong += got[i] != run;
  }
  if (wrong) std::fprintf(stderr, "segmented sums: %d of %u wrong\n", wrong, n);
  CHECK(wrong == 0);
  cudaFree(din);
  cudaFree(dout);
  cudaFree(dheads);
}

int main() {
  check_sort();
  check_segmented();
  return finish();
}
