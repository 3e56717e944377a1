// global_words_inline.cu: a correct program built with memcheck and
// initcheck, where the checked code decides most accesses to global memory
// inline, with no call (emulator/compile/cuemu_gcc_plugin_check.cc: the two
// allocations touched last, their "written" maps), and must agree with the
// whole check in libcuemu: nothing to report here. Accesses of 1, 2, 4, 8
// and 16 bytes; words written byte by byte or by halves and then read
// whole (each narrow write must mark exactly its own bytes); three arrays
// in turn, so that the two hot slots keep changing; memory set by
// cudaMemset; the last elements of each array (past the inline test's
// limit).
// CUEMU_OPTIONS: --check=mem,init
#include <cstdint>

#include <cuda_runtime.h>

#include "../check.cuh"

constexpr unsigned kThreads = 64, kBlocks = 12, kN = kThreads * kBlocks;

/* out[i] = a * x[i] + y[i] + z[i], three arrays of T in turn. */
template <typename T>
__global__ void axpyz(unsigned n, T a, const T *x, const T *y, const T *z,
                      T *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * x[i] + y[i] + z[i];
}

/* Word i of `bytes` written byte by byte (bytes 0 and 1) and by a half
 * (bytes 2 and 3), then read whole by the same thread; and a 16-byte
 * vector read of memory that cudaMemset wrote. */
__global__ void narrow_then_whole(unsigned char *bytes, uint32_t *sums,
                                  const uint4 *zeros) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  bytes[4 * i] = (unsigned char)i;
  bytes[4 * i + 1] = 7;
  *reinterpret_cast<uint16_t *>(bytes + 4 * i + 2) = 0x0505;
  uint32_t whole = reinterpret_cast<const uint32_t *>(bytes)[i];
  uint4 z = zeros[i % 16];
  sums[i] = whole + z.x + z.y + z.z + z.w;
}

template <typename T> bool run_axpyz(T a) {
  T *h[4];
  T *d[4];
  for (int k = 0; k < 4; ++k) {
    h[k] = new T[kN];
    cudaMalloc(&d[k], kN * sizeof(T));
  }
  for (unsigned i = 0; i < kN; ++i) {
    h[0][i] = (T)(i % 7);
    h[1][i] = (T)(i % 5);
    h[2][i] = (T)(i % 3);
  }
  for (int k = 0; k < 3; ++k)
    cudaMemcpy(d[k], h[k], kN * sizeof(T), cudaMemcpyHostToDevice);
  axpyz<T><<<kBlocks, kThreads>>>(kN, a, d[0], d[1], d[2], d[3]);
  bool ok = cudaDeviceSynchronize() == cudaSuccess;
  cudaMemcpy(h[3], d[3], kN * sizeof(T), cudaMemcpyDeviceToHost);
  for (unsigned i = 0; i < kN; ++i)
    ok = ok && h[3][i] == (T)(a * (T)(i % 7) + (T)(i % 5) + (T)(i % 3));
  for (int k = 0; k < 4; ++k) {
    delete[] h[k];
    cudaFree(d[k]);
  }
  return ok;
}

int main() {
  CHECK(run_axpyz<unsigned char>(3));
  CHECK(run_axpyz<short>(-2));
  CHECK(run_axpyz<float>(0.5f));
  CHECK(run_axpyz<double>(1.25));

  unsigned char *bytes;
  uint32_t *sums;
  uint4 *zeros;
  cudaMalloc(&bytes, 4 * kN);
  cudaMalloc(&sums, kN * sizeof(uint32_t));
  cudaMalloc(&zeros, 16 * sizeof(uint4));
  cudaMemset(zeros, 0, 16 * sizeof(uint4));
  narrow_then_whole<<<kBlocks, kThreads>>>(bytes, sums, zeros);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  uint32_t *h = new uint32_t[kN];
  cudaMemcpy(h, sums, kN * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (unsigned i = 0; i < kN; ++i)
    ok = ok && h[i] == ((uint32_t)(i & 0xff) | (7u << 8) | 0x05050000u);
  CHECK(ok);
  delete[] h;
  cudaFree(bytes);
  cudaFree(sums);
  cudaFree(zeros);
  return finish();
}
