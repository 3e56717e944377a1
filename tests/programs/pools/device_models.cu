/*
 * device_models.cu: each device has its own properties. Under cuemu,
 * CUEMU_DEVICE gives device 1 its own model (N:key=value items: sm_80,
 * 4 SMs, 512 threads per block, 99 KiB of opt-in shared memory), and
 * cudaGetDeviceProperties, cudaDeviceGetAttribute, the occupancy API and
 * the launch limits follow the device asked about or the current one.
 * On other systems it checks that each device's attributes, occupancy and
 * launch limits agree with its own properties. Kernel code asks the device
 * runtime which device it runs on and what that device has. Prints PASS
 * when all is well. Built for both devices' architectures: a GPU does not
 * run an sm_90-only build on an sm_80 device (cudaErrorNoKernelImageForDevice).
 * CUEMU_OPTIONS: -rdc=true -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90
 * NVCC_OPTIONS: -rdc=true -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90
 */
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "../check.cuh"
#include "pool_kernels.cuh"

/* A kernel that asks for dynamic shared memory. */
__global__ void stage(const int *in, int *out, int n) {
  extern __shared__ int tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  if (i < n)
    out[i] = tile[blockDim.x - 1 - threadIdx.x];
}

/* Counts the threads that see another device than `device` with `sms`
 * SMs when they ask the device runtime. */
__global__ void count_wrong_device(int device, int sms, int *wrong) {
  int mine = -1, count = -1;
  cudaGetDevice(&mine);
  cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, mine);
  if (mine != device || count != sms)
    atomicAdd(wrong, 1);
}

static int attribute(cudaDeviceAttr a, int device) {
  int v = -1;
  CHECK(cudaDeviceGetAttribute(&v, a, device) == cudaSuccess);
  return v;
}

/* The device's properties, attributes, occupancy and launch limit agree. */
static void check_device(int d, const cudaDeviceProp &p) {
  CHECK(attribute(cudaDevAttrMultiProcessorCount, d) ==
        p.multiProcessorCount);
  CHECK(attribute(cudaDevAttrComputeCapabilityMajor, d) == p.major);
  CHECK(attribute(cudaDevAttrComputeCapabilityMinor, d) == p.minor);
  CHECK(attribute(cudaDevAttrMaxThreadsPerBlock, d) == p.maxThreadsPerBlock);
  CHECK(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, d) ==
        static_cast<int>(p.sharedMemPerBlockOptin));
  CHECK(cudaSetDevice(d) == cudaSuccess);
  int min_grid = 0, block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fill<int>) ==
        cudaSuccess);
  CHECK(block > 0 && block <= p.maxThreadsPerBlock);
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fill<int>,
                                                      block, 0) ==
        cudaSuccess);
  CHECK(min_grid == per_sm * p.multiProcessorCount);
  /* The largest block launches; one thread more does not. */
  int *data = nullptr, *out = nullptr;
  const int n = p.maxThreadsPerBlock;
  CHECK(cudaMalloc(&data, 2 * n * sizeof(int)) == cudaSuccess);
  out = data + n;
  fill<int><<<1, p.maxThreadsPerBlock>>>(data, n, 0);
  CHECK(cudaGetLastError() == cudaSuccess);
  fill<int><<<1, p.maxThreadsPerBlock + 1>>>(data, n, 0);
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  /* Opting in to all the device's shared memory works, past it not. */
  int optin = static_cast<int>(p.sharedMemPerBlockOptin);
  CHECK(cudaFuncSetAttribute(stage, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             optin) == cudaSuccess);
  CHECK(cudaFuncSetAttribute(stage, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             optin + 1024) == cudaErrorInvalidValue);
  cudaGetLastError();
  stage<<<1, 256, 256 * sizeof(int)>>>(data, out, 256);
  int host[2] = {};
  CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(host[0] == 255 && host[1] == 254);
  CHECK(cudaMemset(out, 0, sizeof(int)) == cudaSuccess);
  count_wrong_device<<<64, 32>>>(d, p.multiProcessorCount, out);
  CHECK(cudaMemcpy(host, out, sizeof(int), cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(host[0] == 0);
  CHECK(cudaFree(data) == cudaSuccess);
}

int main() {
#ifdef __CUEMU__
  setenv("CUEMU_DEVICE", "count=2,sms=8,1:sm=80,1:sms=4,1:threads=512,1:smem=99",
         1);
#endif
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, d) == cudaSuccess);
    check_device(d, p);
  }
#ifdef __CUEMU__
  CHECK(count == 2);
  cudaDeviceProp p0, p1;
  CHECK(cudaGetDeviceProperties(&p0, 0) == cudaSuccess);
  CHECK(cudaGetDeviceProperties(&p1, 1) == cudaSuccess);
  CHECK(p0.major == 9 && p0.minor == 0 && p0.multiProcessorCount == 8);
  CHECK(p0.maxThreadsPerBlock == 1024);
  CHECK(p1.major == 8 && p1.minor == 0 && p1.multiProcessorCount == 4);
  CHECK(p1.maxThreadsPerBlock == 512);
  CHECK(p1.sharedMemPerBlockOptin == 99 * 1024);
  /* Device 1 is current: a block of 1024 threads fails on it. */
  fill<int><<<1, 1024>>>(nullptr, 0, 0);
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  int *data = nullptr;
  CHECK(cudaMalloc(&data, 1024 * sizeof(int)) == cudaSuccess);
  fill<int><<<1, 1024>>>(data, 1024, 0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaFree(data) == cudaSuccess);
#endif
  return finish();
}
