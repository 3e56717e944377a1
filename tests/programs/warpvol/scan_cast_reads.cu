// scan_cast_reads.cu: a padded warp scan whose stores go through a volatile
// pointer and whose reads cast the qualifier away with a reference cast,
// `op(t, (const T &)s[at - k])`, as the warp scans of pre-Volta scan
// libraries did, with the operator a functor that also gives the identity.
// The reads are of other lanes' stores of the step before: on a GPU the
// warp makes all its stores before any lane reads. Before, cuemu stepped
// only the volatile stores, so the lane that reached a step last went on
// and read before the others had stored, and the warp's last lanes got a
// wrong prefix (lane 31 of each warp: 21 for 31).
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../check.cuh"

template <typename T> struct Plus {
  __device__ T operator()(const T a, const T b) const { return a + b; }
  __device__ T identity() const { return T(0); }
};

template <typename T> struct Larger {
  __device__ T operator()(const T a, const T b) const { return a > b ? a : b; }
  __device__ T identity() const { return T(-1000000); }
};

/* The exclusive scan of the warp's values, each warp using 64 elements of
 * s: 32 identities, then its 32 values. */
template <typename T, typename Op>
__device__ T warp_scan_cast(T val, volatile T *s) {
  Op op;
  int at = 2 * threadIdx.x - (threadIdx.x & 31);
  s[at] = op.identity();
  at += 32;
  T t = s[at] = val;
  s[at] = t = op(t, (const T &)s[at - 1]);
  s[at] = t = op(t, (const T &)s[at - 2]);
  s[at] = t = op(t, (const T &)s[at - 4]);
  s[at] = t = op(t, (const T &)s[at - 8]);
  s[at] = t = op(t, (const T &)s[at - 16]);
  return s[at - 1];
}

template <typename T, typename Op>
__global__ void scan_warps(const T *in, T *out) {
  __shared__ T s[2 * 128];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = warp_scan_cast<T, Op>(in[i], s);
}

template <typename T, typename Op, typename Host>
static void check(Host host_op, T identity) {
  const unsigned block = 128, blocks = 2, n = block * blocks;
  std::vector<T> h(n), got(n);
  for (unsigned i = 0; i < n; ++i) h[i] = T((i * 7u) % 11u) - T(3);
  T *in, *out;
  cudaMalloc(&in, n * sizeof(T));
  cudaMalloc(&out, n * sizeof(T));
  cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  scan_warps<T, Op><<<blocks, block>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (unsigned w = 0; w < n / 32; ++w) {
    T run = identity;
    for (unsigned l = 0; l < 32; ++l) {
      wrong += got[w * 32 + l] != run;
      run = host_op(run, h[w * 32 + l]);
    }
  }
  if (wrong) std::fprintf(stderr, "%zu-byte scan: %d of %u wrong\n", sizeof(T), wrong, n);
  CHECK(wrong == 0);
  cudaFree(in);
  cudaFree(out);
}

int main() {
  check<int, Plus<int> >([](int a, int b) { return a + b; }, 0);
  check<float, Plus<float> >([](float a, float b) { return a + b; }, 0.0f);
  check<int, Larger<int> >([](int a, int b) { return a > b ? a : b; }, -1000000);
  return finish();
}
