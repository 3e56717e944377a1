// A kernel's fault is a sticky error that every later call of the runtime
// returns, and the blocking symbol copies are no exception: they wait for
// the kernels before them, then return the fault and copy nothing. A
// program that copied a string's bytes into a __device__ char * (its
// cudaMemcpyToSymbol took sizeof of a `char *` and the string itself) made
// its kernel read through eight bytes of text as an address; the
// cudaMemcpyFromSymbol after the launch returned cudaSuccess with the
// variable's old value, and only a later cudaDeviceSynchronize reported
// the fault. cudaMemcpyToSymbol had the same gap.
#include <cstdio>
#include "../check.cuh"

__device__ const char *dev_text;
__device__ int dev_found = 5;

__global__ void find_char(int n, char c) {
  int found = -1;
  for (int i = 0; i < n; ++i)
    if (dev_text[i] == c) found = i;
  dev_found = found;
}

int main() {
  const char *text = "FGHASDJKLASD";
  // The program's bug, kept: the text's first bytes become the pointer.
  CHECK(cudaMemcpyToSymbol(dev_text, text, sizeof(text)) == cudaSuccess);
  find_char<<<1, 1>>>(12, 'A');
  int found = 42;
  cudaError_t e = cudaMemcpyFromSymbol(&found, dev_found, sizeof found);
  CHECK(e != cudaSuccess);
  CHECK(found == 42);  // nothing copied
  CHECK(cudaMemcpyToSymbol(dev_found, &found, sizeof found) == e);
  CHECK(cudaDeviceSynchronize() == e);
  std::printf("error after the fault: %s\n", cudaGetErrorName(e));
  return finish();
}
