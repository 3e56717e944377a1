// volatile_device_flags.cu: flags declared `__device__ volatile int`, as
// Lonestar-style graph codes declare the "done"/"changed" flags of their
// persistent kernels, and volatile __managed__, __constant__ and static
// __device__ variables. cuemu-nvcc refused every one of them with an error
// from inside a shim header ("invalid conversion from 'volatile void*' to
// 'const void*'", cuemu_qualifiers.h's notes of the variable); nvcc accepts
// them. A persistent kernel on a non-blocking stream spins on the device
// flag until the host raises it with cudaMemcpyToSymbol, and counts its
// rounds in a volatile __device__ counter read back with
// cudaMemcpyFromSymbol and through cudaGetSymbolAddress.
// CUEMU_OPTIONS: --expt-extended-lambda
// NVCC_OPTIONS: -std=c++17 --expt-extended-lambda
#include <cstdio>
#include <cuda_runtime.h>

__device__ volatile int g_stop;
__device__ volatile unsigned g_rounds;
__device__ volatile float g_levels[4];
__managed__ volatile int m_seen;
__constant__ volatile int c_scale = 3;
static __device__ volatile long long s_total;

__global__ void persistent_until_stopped() {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  while (g_stop == 0) {
    g_rounds = g_rounds + 1;
    __nanosleep(100);
  }
  g_levels[1] = 1.5f * c_scale;
  s_total = s_total + g_stop * c_scale;
  m_seen = g_stop;
}

__global__ void read_back(long long *out) { *out = s_total; }

int main() {
  int zero = 0, stop = 7;
  unsigned rounds0 = 0;
  if (cudaMemcpyToSymbol(g_stop, &zero, sizeof zero) != cudaSuccess ||
      cudaMemcpyToSymbol(g_rounds, &rounds0, sizeof rounds0) != cudaSuccess)
    return 1;
  m_seen = 0;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  persistent_until_stopped<<<2, 32, 0, s>>>();
  // The legacy stream's copy does not wait for a non-blocking stream.
  cudaError_t e1 = cudaMemcpyToSymbol(g_stop, &stop, sizeof stop);
  cudaError_t e2 = cudaStreamSynchronize(s);
  unsigned rounds = 0;
  float levels[4] = {0, 0, 0, 0};
  cudaMemcpyFromSymbol(&rounds, g_rounds, sizeof rounds);
  cudaMemcpyFromSymbol(levels, g_levels, sizeof levels);
  long long *total;
  cudaMallocManaged(&total, sizeof *total);
  read_back<<<1, 1>>>(total);
  void *addr = nullptr;
  cudaError_t e3 = cudaGetSymbolAddress(&addr, g_stop);
  int stop_back = 0;
  cudaMemcpy(&stop_back, addr, sizeof stop_back, cudaMemcpyDeviceToHost);
  cudaError_t e4 = cudaDeviceSynchronize();
  bool ok = e1 == cudaSuccess && e2 == cudaSuccess && e3 == cudaSuccess && e4 == cudaSuccess &&
            m_seen == 7 && levels[1] == 4.5f && *total == 21 && stop_back == 7;
  std::printf("persistent kernel stopped by the host: %s (%u rounds before the stop, %s)\n",
              ok ? "PASS" : "FAIL", rounds, cudaGetErrorString(e2));
  cudaStreamDestroy(s);
  cudaFree(total);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
