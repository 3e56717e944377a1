/*
 * symbol_by_name.cu: a symbol that names no __device__ or __constant__
 * variable is cudaErrorInvalidSymbol, and nothing is written: the string of
 * a variable's name (CUDA before 5.0 took one; an old MD5 cracker still
 * passes "target_hash" from C) and a function's address. cuemu wrote the
 * 16 bytes into the string literal and died of SIGSEGV. The variable itself
 * still copies both ways afterwards, and so do const variables, which lie
 * in read-only memory too (a const __device__ variable, instances of const
 * variable templates).
 * Prints PASS and exits 0 when all is well.
 */
#include <cuda_runtime.h>

#include "../check.cuh"

__constant__ unsigned target_hash[4];
__device__ int hits;

__global__ void count_matches(const unsigned *words) {
  if (words[threadIdx.x] == target_hash[threadIdx.x % 4])
    atomicAdd(&hits, 1);
}

__device__ const int answer = 42;
template <class T> __device__ const T scale = T(3);
template <class T> __constant__ const T offset = T(4);

static void host_function() {}

int main() {
  const unsigned h[4] = {0x01234567u, 0x89abcdefu, 0xfedcba98u, 0x76543210u};
  /* The name as a C caller passes it: through const void *. */
  const void *by_name = "target_hash";
  CHECK(cudaMemcpyToSymbol(by_name, h, sizeof h, 0, cudaMemcpyHostToDevice) ==
        cudaErrorInvalidSymbol);
  CHECK(cudaGetLastError() == cudaErrorInvalidSymbol);
  unsigned back[4] = {0, 0, 0, 0};
  CHECK(cudaMemcpyFromSymbol(back, by_name, sizeof back) ==
        cudaErrorInvalidSymbol);
  cudaGetLastError();
  /* The same through the templates, which know the array's size. */
  CHECK(cudaMemcpyToSymbol("target_hash_name", h, sizeof h) ==
        cudaErrorInvalidSymbol);
  cudaGetLastError();
  CHECK(cudaMemcpyToSymbolAsync(by_name, h, sizeof h, 0,
                                cudaMemcpyHostToDevice, 0) ==
        cudaErrorInvalidSymbol);
  cudaGetLastError();
  void *address = nullptr;
  CHECK(cudaGetSymbolAddress(&address, by_name) == cudaErrorInvalidSymbol);
  cudaGetLastError();
  size_t size = 0;
  CHECK(cudaGetSymbolSize(&size, by_name) == cudaErrorInvalidSymbol);
  cudaGetLastError();
  /* A host function's address. */
  CHECK(cudaMemcpyToSymbol((const void *)&host_function, h, sizeof h, 0,
                           cudaMemcpyHostToDevice) == cudaErrorInvalidSymbol);
  cudaGetLastError();

  /* Const variables are symbols. */
  int a = 0;
  CHECK(cudaMemcpyFromSymbol(&a, answer, sizeof a) == cudaSuccess && a == 42);
  float f = 0, g = 0;
  CHECK(cudaMemcpyFromSymbol(&f, scale<float>, sizeof f) == cudaSuccess &&
        f == 3.0f);
  CHECK(cudaMemcpyFromSymbol(&g, (const void *)&offset<float>, sizeof g, 0,
                             cudaMemcpyDeviceToHost) == cudaSuccess &&
        g == 4.0f);
  CHECK(cudaGetSymbolAddress(&address, scale<double>) == cudaSuccess);

  /* The variable itself, by its address. */
  CHECK(cudaMemcpyToSymbol(target_hash, h, sizeof h) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol((const void *)&target_hash, h, sizeof h, 0,
                           cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaGetSymbolAddress(&address, target_hash) == cudaSuccess);
  CHECK(cudaGetSymbolSize(&size, target_hash) == cudaSuccess && size == 16);
  unsigned *words;
  CHECK(cudaMalloc(&words, 8 * sizeof(unsigned)) == cudaSuccess);
  unsigned host_words[8];
  for (int i = 0; i < 8; ++i)
    host_words[i] = i < 4 ? h[i] : 0;
  CHECK(cudaMemcpy(words, host_words, sizeof host_words,
                   cudaMemcpyHostToDevice) == cudaSuccess);
  count_matches<<<1, 8>>>(words);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int found = 0;
  CHECK(cudaMemcpyFromSymbol(&found, hits, sizeof found) == cudaSuccess);
  CHECK(found == 4);
  CHECK(cudaMemcpyFromSymbol(back, (const void *)&target_hash, sizeof back,
                             0, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back[3] == h[3]);
  CHECK(cudaFree(words) == cudaSuccess);
  return finish();
}
