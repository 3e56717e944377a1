/*
 * device_properties.cu: cudaGetDeviceProperties fills every field of CUDA
 * 13's cudaDeviceProp consistently with cudaDeviceGetAttribute (each
 * attribute that has a field gives the field's value) and with what the
 * emulated device does (its limits are the ones launches are held to);
 * cudaDeviceGetAttribute answers every cudaDeviceAttr and refuses values
 * that name none; cudaFuncGetAttributes gives a kernel's launch bounds and
 * static shared memory. Prints PASS when all is well.
 */
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

#include "../check.cuh"

template <int Tile> __global__ void __launch_bounds__(256)
    tile_sum(const float *in, float *out) {
  __shared__ float tile[Tile];
  __shared__ int count;
  tile[threadIdx.x % Tile] = in[threadIdx.x];
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int i = 0; i < Tile; ++i)
      s += tile[i];
    out[0] = s + count;
  }
}

__global__ void __launch_bounds__(128) stage(const float *in, float *out) {
  __shared__ float staged[128];
  staged[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = staged[127 - threadIdx.x];
}

static int attribute(cudaDeviceAttr a) {
  int v = -12345;
  CHECK(cudaDeviceGetAttribute(&v, a, 0) == cudaSuccess);
  return v;
}

int main() {
  cudaDeviceProp p;
  std::memset(&p, 0x5a, sizeof p);
  CHECK(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
  CHECK(std::strlen(p.name) > 0 && std::strlen(p.name) < sizeof p.name);

  /* Every attribute with a field of its own gives that field. */
  struct {
    cudaDeviceAttr attr;
    long long field;
  } same[] = {
      {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock},
      {cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0]},
      {cudaDevAttrMaxBlockDimY, p.maxThreadsDim[1]},
      {cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2]},
      {cudaDevAttrMaxGridDimX, p.maxGridSize[0]},
      {cudaDevAttrMaxGridDimY, p.maxGridSize[1]},
      {cudaDevAttrMaxGridDimZ, p.maxGridSize[2]},
      {cudaDevAttrMaxSharedMemoryPerBlock, (long long)p.sharedMemPerBlock},
      {cudaDevAttrTotalConstantMemory, (long long)p.totalConstMem},
      {cudaDevAttrWarpSize, p.warpSize},
      {cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock},
      {cudaDevAttrMultiProcessorCount, p.multiProcessorCount},
      {cudaDevAttrComputeCapabilityMajor, p.major},
      {cudaDevAttrComputeCapabilityMinor, p.minor},
      {cudaDevAttrL2CacheSize, p.l2CacheSize},
      {cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor},
      {cudaDevAttrMaxSharedMemoryPerMultiprocessor,
       (long long)p.sharedMemPerMultiprocessor},
      {cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor},
      {cudaDevAttrMaxSharedMemoryPerBlockOptin,
       (long long)p.sharedMemPerBlockOptin},
      {cudaDevAttrReservedSharedMemoryPerBlock,
       (long long)p.reservedSharedMemPerBlock},
      {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor},
      {cudaDevAttrManagedMemory, p.managedMemory},
      {cudaDevAttrConcurrentManagedAccess, p.concurrentManagedAccess},
      {cudaDevAttrCooperativeLaunch, p.cooperativeLaunch},
      {cudaDevAttrMaxTexture1DWidth, p.maxTexture1D},
      {cudaDevAttrMaxTexture2DWidth, p.maxTexture2D[0]},
      {cudaDevAttrMaxTexture2DHeight, p.maxTexture2D[1]},
      {cudaDevAttrMaxTexture3DDepth, p.maxTexture3D[2]},
      {cudaDevAttrMaxTexture2DLayeredLayers, p.maxTexture2DLayered[2]},
      {cudaDevAttrMaxSurface2DWidth, p.maxSurface2D[0]},
      {cudaDevAttrMaxSurfaceCubemapLayeredLayers,
       p.maxSurfaceCubemapLayered[1]},
      {cudaDevAttrMaxTexture2DLinearPitch, p.maxTexture2DLinear[2]},
      {cudaDevAttrMaxPersistingL2CacheSize, p.persistingL2CacheMaxSize},
      {cudaDevAttrMaxAccessPolicyWindowSize, p.accessPolicyMaxWindowSize},
      {cudaDevAttrMemoryPoolsSupported, p.memoryPoolsSupported},
      {cudaDevAttrMemoryPoolSupportedHandleTypes,
       (long long)p.memoryPoolSupportedHandleTypes},
      {cudaDevAttrClusterLaunch, p.clusterLaunch},
      {cudaDevAttrHostNativeAtomicSupported, p.hostNativeAtomicSupported},
      {cudaDevAttrUnifiedAddressing, p.unifiedAddressing},
      {cudaDevAttrCanMapHostMemory, p.canMapHostMemory},
      {cudaDevAttrAsyncEngineCount, p.asyncEngineCount},
      {cudaDevAttrNumaId, p.deviceNumaId},
      {cudaDevAttrHostNumaId, p.hostNumaId},
  };
  for (const auto &s : same)
    if (attribute(s.attr) != s.field) {
      std::fprintf(stderr, "attribute %d: %d, field %lld\n", (int)s.attr,
                   attribute(s.attr), s.field);
      CHECK(false);
    }

  /* The device as it behaves. */
  CHECK(p.major == 9 && p.minor == 0); /* the default emulated device */
  CHECK(p.warpSize == 32);
  CHECK(p.sharedMemPerBlock <= p.sharedMemPerBlockOptin &&
        p.sharedMemPerBlockOptin <= p.sharedMemPerMultiprocessor);
  CHECK(p.maxThreadsPerMultiProcessor % p.warpSize == 0);
  CHECK(p.persistingL2CacheMaxSize > 0 &&
        p.persistingL2CacheMaxSize <= p.l2CacheSize);
  CHECK(p.accessPolicyMaxWindowSize > 0);
  CHECK(p.memoryPoolsSupported == 1 && p.clusterLaunch == 1);
  CHECK(p.reserved[0] == 0 && p.reserved[55] == 0);
  size_t free_bytes = 0, total = 0;
  CHECK(cudaMemGetInfo(&free_bytes, &total) == cudaSuccess);
  CHECK(total == p.totalGlobalMem);
  CHECK(attribute(cudaDevAttrClockRate) > 0);
  CHECK(attribute(cudaDevAttrMemSyncDomainCount) >= 1);
  /* The limits hold: one thread too many is refused. */
  int *sink = nullptr;
  CHECK(cudaMalloc(&sink, sizeof *sink) == cudaSuccess);
  float *fin = nullptr, *fout = nullptr;
  CHECK(cudaMalloc(&fin, 1024 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMalloc(&fout, sizeof(float)) == cudaSuccess);
  tile_sum<64><<<1, p.maxThreadsPerBlock + 1>>>(fin, fout);
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);

  /* Every cudaDeviceAttr is answered; values naming none are refused. */
  for (int a = 1; a < cudaDevAttrMax; ++a) {
    int v = 0;
    cudaError_t e = cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(a),
                                           0);
    bool gap = a == 44 || (a >= 102 && a <= 105) || a == 107 || a == 110 ||
               a == 136 || a == 137 || a == 146;
    CHECK(e == (gap ? cudaErrorInvalidValue : cudaSuccess));
  }
  cudaGetLastError();
  int count = 0, v = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, count) ==
        cudaErrorInvalidDevice);
  CHECK(cudaGetDeviceProperties(&p, count) == cudaErrorInvalidDevice);
  cudaGetLastError();

  /* A kernel's attributes: its launch bounds, and its static shared
   * memory (64 floats and an int) once the kernel is known to have run. */
  tile_sum<64><<<1, 256>>>(fin, fout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, tile_sum<64>) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 64 * sizeof(float) + sizeof(int));
  stage<<<1, 128>>>(fin, fin + 128);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaFuncGetAttributes(&fa, stage) == cudaSuccess);
  CHECK(fa.maxThreadsPerBlock == 128);
  CHECK(fa.sharedSizeBytes == 128 * sizeof(float));
  stage<<<1, 256>>>(fin, fin + 128); /* past its launch bounds */
  CHECK(cudaGetLastError() == cudaErrorLaunchOutOfResources);
  CHECK(fa.maxDynamicSharedSizeBytes == 48 * 1024);
  CHECK(fa.binaryVersion == p.major * 10 + p.minor);
  return finish();
}
