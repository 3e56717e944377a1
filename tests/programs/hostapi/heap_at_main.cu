// heap_at_main.cu: main finds the heap as a program built by nvcc finds it,
// with no block freed by cuemu's start-up in it. Programs read what
// malloc() returns before writing it (a histogram cleared by
// `memset(bin, 0, num_bins)`, bytes for ints): in a fresh heap it is zero.
// cuemu's start-up looked for a second CUDA runtime in /proc/self/maps with
// stdio, whose freed 1 KiB buffer and FILE then came back, full of text,
// from the program's first malloc(1024) or malloc(472): a public counting
// sort's CPU reference wrote far past its output and crashed there. Its
// check for NVIDIA's libraries beside cuemu's then looked each one's first
// call up with dlsym(), whose failures left their freed error texts (72 and
// 88 bytes) for the program's first small malloc(). The first blocks of
// each size are checked before any other call, then a kernel runs.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void add_one(int *p) { p[threadIdx.x] += 1; }

/* Non-zero when some byte of the `n` bytes at `p` is not zero. */
static int dirty(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (p[i])
      return 1;
  return 0;
}

int main() {
  /* The sizes of stdio's buffer for a /proc file (its 1 KiB block size),
   * of glibc's FILE and of dlsym()'s error texts, then a few more, all held
   * until checked. */
  static const size_t sizes[] = {1024, 472, 72, 72, 72, 72, 72, 72, 88,
                                 64,   80,  96, 1000, 512, 4096};
  const int count = sizeof sizes / sizeof *sizes;
  unsigned char *blocks[count];
  for (int i = 0; i < count; ++i)
    blocks[i] = static_cast<unsigned char *>(std::malloc(sizes[i]));
  for (int i = 0; i < count; ++i) {
    CHECK(blocks[i] != nullptr);
    if (blocks[i] && dirty(blocks[i], sizes[i]))
      std::fprintf(stderr, "malloc(%zu) at main holds non-zero bytes\n",
                   sizes[i]);
    CHECK(blocks[i] && !dirty(blocks[i], sizes[i]));
  }
  for (int i = 0; i < count; ++i)
    std::free(blocks[i]);

  int host[32] = {0};
  int *device = nullptr;
  CHECK(cudaMalloc(&device, sizeof host) == cudaSuccess);
  CHECK(cudaMemcpy(device, host, sizeof host, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  add_one<<<1, 32>>>(device);
  CHECK(cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  for (int i = 0; i < 32; ++i)
    CHECK(host[i] == 1);
  CHECK(cudaFree(device) == cudaSuccess);
  return finish();
}
