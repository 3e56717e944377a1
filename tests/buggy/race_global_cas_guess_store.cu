// race_global_cas_guess_store.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global RAW line 27 line 13
#include <cstdio>
#include <cuda_runtime.h>

/* A float atomicMax made with a compare-and-swap loop that leaves early
 * when the word is already larger. Its first guess (line 13) reads the word
 * that other threads' compare-and-swaps write: racecheck takes that read for
 * the relaxed atomic read it stands for (no report against the swaps), but
 * still against a plain store. */
__device__ float atomic_max_float(float *address, float value) {
  int *word = reinterpret_cast<int *>(address), old = *word, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value)
      break;
    old = atomicCAS(word, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}

/* Thread 0 resets the maximum with a plain store while the others take the
 * maximum into it: nothing orders the store with their reads. */
__global__ void block_max(const float *in, float *out) {
  if (threadIdx.x == 0)
    *out = 0.0f;
  atomic_max_float(out, in[threadIdx.x]);
}

int main() {
  float *in, *out;
  cudaMallocManaged(&in, 64 * sizeof(float));
  cudaMallocManaged(&out, sizeof(float));
  for (int i = 0; i < 64; ++i)
    in[i] = static_cast<float>(i % 17);
  block_max<<<1, 64>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s %g\n", cudaGetErrorName(e), *out);
  return 0;
}
