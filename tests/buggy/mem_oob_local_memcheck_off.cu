// mem_oob_local_memcheck_off.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// ENV: CUEMU_CHECK=none
// EXPECT: mem out-of-bounds index -65 kernel memcheck is off line 21
#include <cstdio>
#include <cuda_runtime.h>

/* A wavefront kernel in the manner of an edit-distance program: each thread
 * keeps a table of the last position of each letter, and looks its row's
 * letter up in it at every step; at step 0 the letter is not read yet (0),
 * so the index is 0 - 'A'. Built with memcheck but run with it turned off
 * (CUEMU_CHECK=none), the index is still said, once, and the kernel goes on;
 * it was said to be host code's. */
__global__ void last_seen(const char *word, int n, unsigned short *out) {
  unsigned short table[26];
  for (int c = 0; c < 26; ++c)
    table[c] = c + threadIdx.x;
  char letter = 0;
  unsigned short sum = 0;
  for (int i = 0; i <= n; ++i) {
    unsigned short x = table[letter - 'A'];
    if (i > 0)
      sum += x;
    if (i < n)
      letter = word[i];
  }
  out[threadIdx.x] = sum;
}

int main() {
  char *word;
  unsigned short *out;
  cudaMalloc(&word, 4);
  cudaMalloc(&out, 32 * sizeof(unsigned short));
  cudaMemcpy(word, "ACGT", 4, cudaMemcpyHostToDevice);
  last_seen<<<1, 32>>>(word, 4, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
