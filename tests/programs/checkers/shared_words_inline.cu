// shared_words_inline.cu: a correct program built with racecheck and initcheck
// (the other programs here add memcheck), where the checked module decides
// most accesses to shared memory itself (cuemu/cuemu_check_fast.h: the static array or dynamic buffer
// touched last, whole words, no lock) and must agree with the whole check in
// libcuemu: nothing to report here. Two static arrays accessed in turn, the
// dynamic buffer, 4-, 8- and 16-byte accesses, words written byte by byte
// and then whole (their records are per byte from then on), words read after
// the barrier that orders them, and many blocks on one worker, each starting
// with empty shared memory.
// CUEMU_OPTIONS: --check=race,init
#include <cstring>

#include <cuda_runtime.h>

#include "../check.cuh"

constexpr unsigned kThreads = 128;

/* Thread t writes word t of `a` and of `b`, then (after a barrier) reads its
 * neighbours' words in both, in turn. */
__device__ unsigned neighbours(const unsigned *a, const unsigned *b,
                               unsigned t) {
  unsigned left = (t + kThreads - 1) % kThreads, right = (t + 1) % kThreads;
  return a[left] + b[right] + a[right] + b[left];
}

__global__ void static_arrays(unsigned *out) {
  __shared__ unsigned a[kThreads];
  __shared__ unsigned b[kThreads];
  __shared__ unsigned char packed[kThreads * 4];
  unsigned t = threadIdx.x, base = blockIdx.x * 1000u;
  a[t] = base + t;
  b[t] = base + 2 * t;
  /* Bytes 0..2 of word t by this thread, then the whole word again: the
   * word's record goes per byte, and the whole write must mark byte 3 too. */
  packed[4 * t] = 1;
  packed[4 * t + 1] = 2;
  packed[4 * t + 2] = 3;
  reinterpret_cast<unsigned *>(packed)[t] = 0x04030201u;
  __syncthreads();
  unsigned s = neighbours(a, b, t);
  /* Byte 3 of another thread's word, after the barrier. */
  s += packed[4 * ((t + 5) % kThreads) + 3];
  __syncthreads();
  /* Each thread rewrites its own words after everyone read them. */
  a[t] = s;
  b[t] = s + 1;
  __syncthreads();
  out[blockIdx.x * kThreads + t] = a[(t + 3) % kThreads] + b[t];
}

/* The dynamic buffer as 4-, 8- and 16-byte words. */
__global__ void dynamic_words(float *out) {
  extern __shared__ float4 quads[];
  unsigned t = threadIdx.x;
  quads[t] = make_float4((float)t, (float)(t + 1), (float)(t + 2),
                         (float)blockIdx.x);
  __syncthreads();
  const double *pairs = reinterpret_cast<const double *>(quads);
  const float *floats = reinterpret_cast<const float *>(quads);
  double d = pairs[2 * ((t + 1) % kThreads)];
  float4 q = quads[(t + 7) % kThreads];
  float f = floats[4 * ((t + 2) % kThreads) + 3];
  double expect_d;
  float first[2] = {(float)((t + 1) % kThreads), (float)((t + 1) % kThreads + 1)};
  memcpy(&expect_d, first, sizeof expect_d);
  out[blockIdx.x * kThreads + t] =
      (d == expect_d ? 1.0f : 0.0f) + q.x + q.w + f;
}

int main() {
  const unsigned blocks = 24;
  unsigned *out;
  float *fout;
  cudaMalloc(&out, blocks * kThreads * sizeof(unsigned));
  cudaMalloc(&fout, blocks * kThreads * sizeof(float));
  static_arrays<<<blocks, kThreads>>>(out);
  dynamic_words<<<blocks, kThreads, kThreads * sizeof(float4)>>>(fout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  unsigned *h = new unsigned[blocks * kThreads];
  float *hf = new float[blocks * kThreads];
  cudaMemcpy(h, out, blocks * kThreads * sizeof(unsigned),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, fout, blocks * kThreads * sizeof(float),
             cudaMemcpyDeviceToHost);
  bool ok = true, fok = true;
  for (unsigned blk = 0; blk < blocks; ++blk) {
    unsigned base = blk * 1000u, s[kThreads];
    for (unsigned t = 0; t < kThreads; ++t) {
      unsigned l = (t + kThreads - 1) % kThreads, r = (t + 1) % kThreads;
      s[t] = (base + l) + (base + 2 * r) + (base + r) + (base + 2 * l) + 4;
    }
    for (unsigned t = 0; t < kThreads; ++t) {
      ok = ok && h[blk * kThreads + t] == s[(t + 3) % kThreads] + s[t] + 1;
      float expect = 1.0f + (float)((t + 7) % kThreads) + (float)blk + (float)blk;
      fok = fok && hf[blk * kThreads + t] == expect;
    }
  }
  CHECK(ok);
  CHECK(fok);
  delete[] h;
  delete[] hf;
  cudaFree(out);
  cudaFree(fout);
  return finish();
}
