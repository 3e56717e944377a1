// memory_across_barriers.cu: memory ordered by __syncthreads().
//
// On x86-64, g++ builds call the barrier from an asm statement that does not
// name memory as clobbered: compiler fences before and after it order the
// kernel's memory accesses, as a call would, while the read-only blockIdx
// and gridDim stay what they were (so that a barrier that only some blocks
// reach can be unswitched out of the loop over threads). These kernels
// check that nothing a thread reads after a barrier was read before it,
// nothing it writes before one is written after it, and that a barrier that
// only the last block reaches still orders that block's memory:
//
// - rotate: each round, every thread writes its value to shared memory,
//   and after a barrier reads its neighbour's; the same shared word is read
//   and written round after round, in a loop the compiler can see whole.
// - publish: thread 0 writes a global flag and a shared value; after the
//   barrier the others read both, having read them once before it.
// - rare_barrier: the saxpy-like update of every block, and in the last
//   block alone an exchange through shared memory across a barrier.
#include <cstdio>
#include <vector>

#include "../check.cuh"

constexpr int kThreads = 128;
constexpr int kRounds = 7;

__global__ void rotate(const int *in, int *out) {
  __shared__ int s[kThreads];
  unsigned t = threadIdx.x;
  int v = in[blockIdx.x * kThreads + t];
  for (int r = 0; r < kRounds; ++r) {
    s[t] = v;
    __syncthreads();
    v = v * 3 + s[(t + 1) % kThreads];
    __syncthreads();
  }
  out[blockIdx.x * kThreads + t] = v;
}

__global__ void publish(int *flag, int *seen) {
  __shared__ int word;
  unsigned t = threadIdx.x;
  if (t == 0)
    word = -1;
  __syncthreads();
  int before = word, flag_before = *flag;
  __syncthreads();
  if (t == 0) {
    word = 1000 + blockIdx.x;
    *flag = 7;
  }
  __syncthreads();
  seen[(blockIdx.x * kThreads + t) * 4 + 0] = before;
  seen[(blockIdx.x * kThreads + t) * 4 + 1] = word;
  seen[(blockIdx.x * kThreads + t) * 4 + 2] = flag_before;
  seen[(blockIdx.x * kThreads + t) * 4 + 3] = *flag;
}

__global__ void rare_barrier(int n, int a, const int *x, int *y) {
  __shared__ int s[kThreads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
  if (blockIdx.x == gridDim.x - 1) {
    s[threadIdx.x] = i;
    __syncthreads();
    y[i] += s[kThreads - 1 - threadIdx.x];
  }
}

int main() {
  const int blocks = 5, n = blocks * kThreads;
  std::vector<int> in(n), out(n), host(n);
  for (int i = 0; i < n; ++i)
    in[i] = i % 11 - 3;
  int *d_in, *d_out, *d_flag, *d_seen;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMalloc(&d_flag, blocks * sizeof(int));
  cudaMalloc(&d_seen, n * 4 * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);

  rotate<<<blocks, kThreads>>>(d_in, d_out);
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  // Host reference: the rounds of every block, all threads in step.
  for (int b = 0; b < blocks; ++b) {
    std::vector<int> v(in.begin() + b * kThreads,
                       in.begin() + (b + 1) * kThreads);
    for (int r = 0; r < kRounds; ++r) {
      std::vector<int> s = v;
      for (int t = 0; t < kThreads; ++t)
        v[t] = v[t] * 3 + s[(t + 1) % kThreads];
    }
    for (int t = 0; t < kThreads; ++t)
      host[b * kThreads + t] = v[t];
  }
  int rotate_bad = 0;
  for (int i = 0; i < n; ++i)
    rotate_bad += out[i] != host[i];
  CHECK(rotate_bad == 0);

  // One flag per block, so that each block sees 0 before its own thread 0
  // writes it.
  for (int b = 0; b < blocks; ++b) {
    cudaMemset(d_flag, 0, sizeof(int));
    publish<<<1, kThreads>>>(d_flag, d_seen + b * kThreads * 4);
  }
  std::vector<int> seen(n * 4);
  cudaMemcpy(seen.data(), d_seen, n * 4 * sizeof(int), cudaMemcpyDeviceToHost);
  int publish_bad = 0;
  for (int i = 0; i < n; ++i)
    publish_bad += seen[i * 4] != -1 || seen[i * 4 + 1] != 1000 ||
                   seen[i * 4 + 2] != 0 || seen[i * 4 + 3] != 7;
  CHECK(publish_bad == 0);

  std::vector<int> y(n);
  for (int i = 0; i < n; ++i)
    y[i] = 2 * i + 1;
  cudaMemcpy(d_out, y.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  rare_barrier<<<blocks, kThreads>>>(n - 3, 5, d_in, d_out);
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int rare_bad = 0;
  for (int i = 0; i < n; ++i) {
    int want = i < n - 3 ? 5 * in[i] + y[i] : y[i];
    int b = i / kThreads, t = i % kThreads;
    if (b == blocks - 1)
      want += b * kThreads + (kThreads - 1 - t);
    rare_bad += out[i] != want;
  }
  CHECK(rare_bad == 0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_flag);
  cudaFree(d_seen);
  return finish();
}
