// fence_handshake.cu: the handshakes between blocks that CUDA allows and
// real programs use, which the racecheck of global memory must accept
// (tests/checkers_clean.sh runs this under --check=all):
// - the threadfence reduction: each block writes its partial sum,
//   __threadfence(), then takes a ticket with atomicInc; the block that
//   takes the last ticket reads every partial sum (the CUDA Programming
//   Guide's "Memory Fence Functions" example);
// - a producer and its consumer in other blocks: the producer writes the
//   data, __threadfence(), then raises a flag through a volatile pointer;
//   the consumer polls the flag through the volatile pointer, then reads
//   the data; then the roles turn, and the consumer lowers the flag.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      printf("FAIL: %s: %s\n", #call, cudaGetErrorString(err_));           \
      return 1;                                                            \
    }                                                                      \
  } while (0)

static const int kThreads = 128;
static const int kBlocks = 16;

__device__ unsigned int retired = 0;

__global__ void sum_single_pass(const float *in, float *partial, float *out,
                                int n) {
  __shared__ float s[kThreads];
  __shared__ bool last;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned int ticket = atomicInc(&retired, gridDim.x);
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last) {
    // The last block sums the partial sums, a thread each, then thread 0.
    s[threadIdx.x] = threadIdx.x < gridDim.x ? partial[threadIdx.x] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
      float total = 0.0f;
      for (unsigned b = 0; b < gridDim.x; ++b)
        total += s[b];
      out[0] = total;
      retired = 0;
    }
  }
}

// Block 1 produces a value for block 0, which answers with one of its own.
__global__ void ping_pong(volatile int *flag, int *data, int *seen) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 1) {
    data[0] = 1234;
    __threadfence();
    *flag = 1;
    while (*flag != 2) {
    }
    __threadfence();
    seen[1] = data[1];
  } else {
    while (*flag != 1) {
    }
    __threadfence();
    seen[0] = data[0];
    data[1] = 5678;
    __threadfence();
    *flag = 2;
  }
}

int main() {
  const int n = kBlocks * kThreads;
  float *in, *partial, *out;
  int *flag, *data, *seen;
  CHECK(cudaMallocManaged(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&partial, kBlocks * sizeof(float)));
  CHECK(cudaMallocManaged(&out, sizeof(float)));
  for (int i = 0; i < n; ++i)
    in[i] = (float)(i % 7);
  float want = 0.0f;
  for (int i = 0; i < n; ++i)
    want += (float)(i % 7);
  for (int run = 0; run < 2; ++run) {
    *out = -1.0f;
    sum_single_pass<<<kBlocks, kThreads>>>(in, partial, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    if (*out != want) {
      printf("FAIL: run %d: sum %f, expected %f\n", run, *out, want);
      return 1;
    }
  }
  CHECK(cudaMalloc(&flag, sizeof(int)));
  CHECK(cudaMemset(flag, 0, sizeof(int)));
  CHECK(cudaMalloc(&data, 2 * sizeof(int)));
  CHECK(cudaMallocManaged(&seen, 2 * sizeof(int)));
  seen[0] = seen[1] = 0;
  ping_pong<<<2, 32>>>(flag, data, seen);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  if (seen[0] != 1234 || seen[1] != 5678) {
    printf("FAIL: ping-pong saw %d and %d, expected 1234 and 5678\n", seen[0],
           seen[1]);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
