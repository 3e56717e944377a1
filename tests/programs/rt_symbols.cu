/*
 * rt_symbols.cu: cudaMemcpyToSymbol, cudaMemcpyFromSymbol (with offsets,
 * kinds and streams), cudaGetSymbolAddress and cudaGetSymbolSize on
 * __constant__ and __device__ variables, a __constant__ table read by a
 * kernel, and the error paths (a copy past the symbol, the wrong kind).
 * Prints PASS and exits 0 when all is well.
 */
#include <cuda_runtime.h>

#include "check.cuh"

__constant__ float coeffs[16];
__constant__ int bias;
__device__ int table[64];
__device__ unsigned counter;

/* out[i] = coeffs[i % 16] * i + bias; counts the threads. */
__global__ void apply(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = coeffs[i % 16] * i + bias;
    atomicAdd(&counter, 1u);
  }
}

/* table[i] += i, through the symbol. */
__global__ void bump_table() { table[threadIdx.x] += threadIdx.x; }

/* data[i] *= 2, through a pointer. */
__global__ void twice(int *data) { data[threadIdx.x] *= 2; }

static const int N = 256;

int main() {
  float host_coeffs[16];
  for (int i = 0; i < 16; ++i)
    host_coeffs[i] = 0.5f * i;
  CHECK(cudaMemcpyToSymbol(coeffs, host_coeffs, sizeof host_coeffs) ==
        cudaSuccess);
  int b = 7;
  CHECK(cudaMemcpyToSymbol(bias, &b, sizeof b, 0, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  unsigned zero = 0;
  CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero) == cudaSuccess);

  /* A kernel reads the __constant__ table. */
  float *out;
  CHECK(cudaMalloc(&out, N * sizeof(float)) == cudaSuccess);
  apply<<<N / 64, 64>>>(out, N);
  CHECK(cudaGetLastError() == cudaSuccess);
  float host_out[N];
  CHECK(cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += host_out[i] != host_coeffs[i % 16] * i + b;
  CHECK(bad == 0);
  unsigned threads = 0;
  CHECK(cudaMemcpyFromSymbol(&threads, counter, sizeof threads) ==
        cudaSuccess);
  CHECK(threads == N);

  /* Reading back a constant, with an offset. */
  float back[4] = {0, 0, 0, 0};
  CHECK(cudaMemcpyFromSymbol(back, coeffs, sizeof back, 4 * sizeof(float),
                             cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back[0] == 2.0f && back[3] == 3.5f);

  /* Offsets into a __device__ array, and a copy from device memory. */
  int ones[64];
  for (int i = 0; i < 64; ++i)
    ones[i] = 1;
  CHECK(cudaMemcpyToSymbol(table, ones, sizeof ones) == cudaSuccess);
  int *d_src;
  CHECK(cudaMalloc(&d_src, 16 * sizeof(int)) == cudaSuccess);
  int hundreds[16];
  for (int i = 0; i < 16; ++i)
    hundreds[i] = 100 + i;
  CHECK(cudaMemcpy(d_src, hundreds, sizeof hundreds, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  CHECK(cudaMemcpyToSymbol(table, d_src, 16 * sizeof(int), 8 * sizeof(int),
                           cudaMemcpyDeviceToDevice) == cudaSuccess);
  bump_table<<<1, 64>>>();
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int host_table[64];
  CHECK(cudaMemcpyFromSymbol(host_table, table, sizeof host_table) ==
        cudaSuccess);
  bad = 0;
  for (int i = 0; i < 64; ++i)
    bad += host_table[i] != (i >= 8 && i < 24 ? 100 + (i - 8) : 1) + i;
  CHECK(bad == 0);

  /* The symbol's address and size. */
  void *address = nullptr;
  CHECK(cudaGetSymbolAddress(&address, table) == cudaSuccess);
  CHECK(address != nullptr);
  size_t size = 0;
  CHECK(cudaGetSymbolSize(&size, table) == cudaSuccess);
  CHECK(size == sizeof(int) * 64);
  CHECK(cudaGetSymbolSize(&size, bias) == cudaSuccess);
  CHECK(size == sizeof(int));
  twice<<<1, 64>>>(static_cast<int *>(address));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int pair[2] = {0, 0};
  CHECK(cudaMemcpyFromSymbol(pair, table, sizeof pair, 10 * sizeof(int)) ==
        cudaSuccess);
  CHECK(pair[0] == 2 * (102 + 10) && pair[1] == 2 * (103 + 11));

  /* Asynchronous copies on a stream. */
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream) == cudaSuccess);
  int fortytwo = 42, read = 0;
  CHECK(cudaMemcpyToSymbolAsync(table, &fortytwo, sizeof fortytwo,
                                63 * sizeof(int), cudaMemcpyHostToDevice,
                                stream) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbolAsync(&read, table, sizeof read, 63 * sizeof(int),
                                  cudaMemcpyDeviceToHost,
                                  stream) == cudaSuccess);
  CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(read == 42);
  CHECK(cudaStreamDestroy(stream) == cudaSuccess);

  /* Error paths: past the end of the symbol, and the wrong kind. */
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(coeffs, host_coeffs, sizeof host_coeffs,
                           sizeof(float)) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaMemcpyFromSymbol(host_table, table, sizeof host_table + 4) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemcpyFromSymbol(&read, bias, sizeof read, 4) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemcpyToSymbol(bias, &b, sizeof b, 0, cudaMemcpyDeviceToHost) ==
        cudaErrorInvalidMemcpyDirection);
  CHECK(cudaMemcpyFromSymbol(&read, bias, sizeof read, 0,
                             cudaMemcpyHostToDevice) ==
        cudaErrorInvalidMemcpyDirection);
  CHECK(cudaGetLastError() == cudaErrorInvalidMemcpyDirection);
  /* Nothing was written by the failed copies. */
  CHECK(cudaMemcpyFromSymbol(back, coeffs, sizeof back) == cudaSuccess);
  CHECK(back[0] == 0.0f && back[1] == 0.5f && back[3] == 1.5f);

  CHECK(cudaFree(out) == cudaSuccess);
  CHECK(cudaFree(d_src) == cudaSuccess);
  return finish();
}
