// Kernels whose own frame holds a local array larger than cuemu's default
// 64 KiB stack per thread, as per-thread scratch tables in teaching and
// benchmark code do: a GPU sizes each thread's local memory from the
// kernel's frame and its callees' (up to 512 KiB), so they run there.
// Without those frames in the stack's size each thread overflowed its stack
// ("hardware stack error").
#include <cstdio>

#define SCRATCH 24000 /* floats: 96000 bytes of local memory per thread */

// Barrier-free: every thread fills its table and sums it in another order.
__global__ void scratch_sum(int n, float *out) {
  float table[SCRATCH];
  for (int i = 0; i < n; ++i)
    table[i] = (float)(i % 97) + threadIdx.x;
  float s = 0.0f;
  for (int i = 0; i < n; ++i)
    s += table[(i * 7) % n];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// With a barrier between filling and reading, so that the threads are
// suspended with their tables live.
__global__ void scratch_shared(int n, float *out) {
  __shared__ float firsts[64];
  float table[SCRATCH];
  for (int i = 0; i < n; ++i)
    table[i] = (float)(i % 89) + blockIdx.x;
  firsts[threadIdx.x] = table[threadIdx.x + 1];
  __syncthreads();
  float s = firsts[(threadIdx.x + 1) % blockDim.x];
  for (int i = 0; i < n; i += 3)
    s += table[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// The table in a device function that is not inlined: a GPU's local memory
// holds the kernel's call chain (ptxas's "cumulative stack size"), and so
// does the emulated thread's stack.
__device__ __noinline__ float callee_table(int n, int salt) {
  float table[SCRATCH];
  for (int i = 0; i < n; ++i)
    table[i] = (float)(i % 61) + salt;
  float s = 0.0f;
  for (int i = 0; i < n; i += 2)
    s += table[i];
  return s;
}

__global__ void scratch_callee(int n, float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = callee_table(n, threadIdx.x);
}

const int blocks = 2, threads = 64;

// Waits for the kernel `name` and copies its results into h; 0 on success.
static int results(const char *name, const float *d, float *h) {
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("%s: %s\n", name, cudaGetErrorString(err));
    return 1;
  }
  cudaMemcpy(h, d, blocks * threads * sizeof(float), cudaMemcpyDeviceToHost);
  return 0;
}

int main() {
  const int n = SCRATCH;
  float *d, h[blocks * threads];
  cudaMalloc(&d, sizeof h);
  int bad = 0;

  scratch_sum<<<blocks, threads>>>(n, d);
  if (results("scratch_sum", d, h))
    return 1;
  for (int t = 0; t < blocks * threads; ++t) {
    float want = 0.0f;
    for (int i = 0; i < n; ++i)
      want += (float)(((i * 7) % n) % 97) + t % threads;
    if (h[t] != want)
      ++bad;
  }

  scratch_shared<<<blocks, threads>>>(n, d);
  if (results("scratch_shared", d, h))
    return 1;
  for (int t = 0; t < blocks * threads; ++t) {
    int b = t / threads, x = t % threads;
    float want = (float)((((x + 1) % threads) + 1) % 89) + b;
    for (int i = 0; i < n; i += 3)
      want += (float)(i % 89) + b;
    if (h[t] != want)
      ++bad;
  }

  scratch_callee<<<blocks, threads>>>(n, d);
  if (results("scratch_callee", d, h))
    return 1;
  for (int t = 0; t < blocks * threads; ++t) {
    float want = 0.0f;
    for (int i = 0; i < n; i += 2)
      want += (float)(i % 61) + t % threads;
    if (h[t] != want)
      ++bad;
  }

  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, scratch_sum);
  if (attr.localSizeBytes < SCRATCH * sizeof(float))
    ++bad;
  cudaFree(d);
  printf(bad ? "FAIL (%d)\n" : "PASS\n", bad);
  return bad != 0;
}
