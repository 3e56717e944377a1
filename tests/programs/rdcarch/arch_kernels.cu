// arch_kernels.cu: kernels that call arch_info.cu's device functions and
// read and write its variables (relocatable device code), with host
// launchers that main.cpp calls. Each kernel also tells its own unit's
// `#if __CUDA_ARCH__ >= 900` branch, and calls arch_info.cu's
// __host__ __device__ function from its kernel and from its host code.
// tests/programs_rdcarch.sh.
// NVCC_OPTIONS: -rdc=true
#include <cstdio>

#include "arch_hd.h"
#include "arch_info.cuh"
#include "arch_launch.h"

static __device__ int own_branch()
{
#if __CUDA_ARCH__ >= 900
  return 900;
#else
  return 800;
#endif
}

__global__ void report(int *out)
{
  out[0] = own_branch();
  out[1] = pass_arch();
  out[2] = host_device_arch();
  out[3] = ArchProbe{2}.branch();
  out[4] = scaled_arch(1);
  out[5] = static_cast<int>(scaled_arch(1.0f));
  out[6] = ArchPlus{}.plus(7);
}

// Writes tag * 1000 + the architecture of the code that runs.
__global__ void post(int tag)
{
  mailbox = tag * 1000 + pass_arch();
  count_post();
}

__global__ void fetch(int *out)
{
  out[0] = mailbox;
  out[1] = post_count();
}

static int check(cudaError_t e, const char *what)
{
  if (e != cudaSuccess)
    std::printf("FAIL: %s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : -1;
}

int launch_report(int *caller, int *callee, int *host_device, int *host,
                  int *templates)
{
  int *d = nullptr, h[7] = {-1, -1, -1, -1, -1, -1, -1};
  if (check(cudaMalloc(&d, sizeof h), "cudaMalloc"))
    return -1;
  report<<<1, 1>>>(d);
  int rc = check(cudaGetLastError(), "report") ||
           check(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost),
                 "cudaMemcpy");
  cudaFree(d);
  *caller = h[0];
  *callee = h[1];
  host_device[0] = h[2];
  host_device[1] = h[3];
  host[0] = host_device_arch() * 10 + host_only_mark();
  host[1] = ArchProbe{2}.branch();
  for (int k = 0; k < 3; ++k)
    templates[k] = h[4 + k];
  return rc ? -1 : 0;
}

int launch_post(int tag)
{
  post<<<1, 1>>>(tag);
  return check(cudaGetLastError(), "post") ||
                 check(cudaDeviceSynchronize(), "post")
             ? -1
             : 0;
}

int launch_fetch(int *value, int *count, int *symbol)
{
  int *d = nullptr, h[2] = {-1, -1};
  if (check(cudaMalloc(&d, sizeof h), "cudaMalloc"))
    return -1;
  fetch<<<1, 1>>>(d);
  int rc = check(cudaGetLastError(), "fetch") ||
           check(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost),
                 "cudaMemcpy") ||
           check(cudaMemcpyFromSymbol(symbol, mailbox, sizeof *symbol),
                 "cudaMemcpyFromSymbol");
  cudaFree(d);
  *value = h[0];
  *count = h[1];
  return rc ? -1 : 0;
}
