/*
 * rare_calls.cu: the last functions of the runtime, driver and NVRTC APIs
 * that cuemu lacked exist, with CUDA's declarations and statuses: the 1D
 * linear texture width limit (2^28 elements on compute capability 9.0,
 * CUDA_ERROR_INVALID_VALUE for a format a linear texture cannot have);
 * cuLaunchCooperativeKernelMultiDevice launches on the listed device after
 * its checks (CUDA_ERROR_INVALID_VALUE for a NULL or shared stream, an
 * unknown flag, differing shapes); the features the emulated platform
 * lacks are refused after their argument checks: NvSciSync attributes and
 * batch decompression (CUDA_ERROR_NOT_SUPPORTED), mipmapped arrays on
 * external memory (CUDA_ERROR_NOT_SUPPORTED), export tables
 * (CUDA_ERROR_NOT_FOUND, a NULL table); no program has OptiX IR (size 0). Prints
 * PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda -lnvrtc
// NVCC_OPTIONS: -lcuda -lnvrtc -Wno-deprecated-declarations
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <cstdint>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const char *kSource =
    "extern \"C\" __global__ void fill(int *out, int v) {\n"
    "  out[blockIdx.x * blockDim.x + threadIdx.x] = v;\n"
    "}\n";

/* The runtime's calls. */
static void runtime_calls() {
  size_t width = 0;
  cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
  CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&width, &f4, 0) == cudaSuccess);
  CHECK(width == (size_t(1) << 28));
  cudaChannelFormatDesc c3 = cudaCreateChannelDesc(8, 8, 8, 0,
                                                   cudaChannelFormatKindUnsigned);
  CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&width, &c3, 0) ==
        cudaErrorInvalidValue);
  CHECK(cudaDeviceGetTexture1DLinearMaxWidth(nullptr, &f4, 0) ==
        cudaErrorInvalidValue);
  CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&width, &f4, 99) ==
        cudaErrorInvalidDevice);
  int list = 0;
  CHECK(cudaDeviceGetNvSciSyncAttributes(&list, 0, cudaNvSciSyncAttrSignal) ==
        cudaErrorNotSupported);
  CHECK(cudaDeviceGetNvSciSyncAttributes(&list, 0, 0) == cudaErrorInvalidValue);
  CHECK(cudaDeviceGetNvSciSyncAttributes(&list, 99, cudaNvSciSyncAttrWait) ==
        cudaErrorInvalidDevice);
  cudaGetLastError();
  const void *table = &list;
  cudaUUID_t id = {};
  CHECK(cudaGetExportTable(&table, &id) == cudaErrorSymbolNotFound);
  CHECK(table == nullptr);
  cudaGetLastError();
}

/* The driver's device queries and refusals. */
static void driver_queries(CUdevice dev) {
  size_t width = 0;
  CU(cuDeviceGetTexture1DLinearMaxWidth(&width, CU_AD_FORMAT_FLOAT, 4, dev));
  CHECK(width == (size_t(1) << 28));
  CHECK(cuDeviceGetTexture1DLinearMaxWidth(&width, CU_AD_FORMAT_FLOAT, 3,
                                           dev) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuDeviceGetTexture1DLinearMaxWidth(nullptr, CU_AD_FORMAT_FLOAT, 1,
                                           dev) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuDeviceGetTexture1DLinearMaxWidth(&width, CU_AD_FORMAT_FLOAT, 1,
                                           99) == CUDA_ERROR_INVALID_DEVICE);
  int list = 0;
  CHECK(cuDeviceGetNvSciSyncAttributes(&list, dev, CUDA_NVSCISYNC_ATTR_WAIT) ==
        CUDA_ERROR_NOT_SUPPORTED);
  CHECK(cuDeviceGetNvSciSyncAttributes(&list, dev, 4) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuDeviceGetNvSciSyncAttributes(&list, 99, CUDA_NVSCISYNC_ATTR_WAIT) ==
        CUDA_ERROR_INVALID_DEVICE);
  const void *table = &list;
  CUuuid id = {};
  CHECK(cuGetExportTable(&table, &id) == CUDA_ERROR_NOT_FOUND);
  CHECK(table == nullptr);

  CUmemDecompressParams params = {};
  size_t index = 0;
  CHECK(cuMemBatchDecompressAsync(&params, 1, 0, &index, nullptr) ==
        CUDA_ERROR_NOT_SUPPORTED);
  CHECK(index == SIZE_MAX);
  CHECK(cuMemBatchDecompressAsync(nullptr, 1, 0, &index, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemBatchDecompressAsync(&params, 0, 0, &index, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);

  CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC desc = {};
  desc.arrayDesc.Width = 16;
  desc.arrayDesc.Format = CU_AD_FORMAT_FLOAT;
  desc.arrayDesc.NumChannels = 1;
  desc.numLevels = 1;
  CUmipmappedArray mipmap = nullptr;
  CHECK(cuExternalMemoryGetMappedMipmappedArray(&mipmap, nullptr, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuExternalMemoryGetMappedMipmappedArray(
            &mipmap, reinterpret_cast<CUexternalMemory>(&list), &desc) ==
        CUDA_ERROR_NOT_SUPPORTED);
}

/* A kernel of NVRTC's, and its OptiX IR (none). */
static CUfunction nvrtc_fill(CUmodule *module) {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, kSource, "fill.cu", 0, nullptr, nullptr) ==
        NVRTC_SUCCESS);
  const char *opts[] = {"--gpu-architecture=sm_90"};
  CHECK(nvrtcCompileProgram(prog, 1, opts) == NVRTC_SUCCESS);
  size_t size = 1;
  CHECK(nvrtcGetOptiXIRSize(prog, &size) == NVRTC_SUCCESS);
  CHECK(size == 0);
  CHECK(nvrtcGetOptiXIRSize(prog, nullptr) == NVRTC_ERROR_INVALID_INPUT);
  CHECK(nvrtcGetOptiXIRSize(nullptr, &size) == NVRTC_ERROR_INVALID_PROGRAM);
  char ir[16];
  CHECK(nvrtcGetOptiXIR(nullptr, ir) == NVRTC_ERROR_INVALID_PROGRAM);
  CHECK(nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS);
  char *cubin = new char[size];
  CHECK(nvrtcGetCUBIN(prog, cubin) == NVRTC_SUCCESS);
  CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);
  CU(cuModuleLoadData(module, cubin));
  delete[] cubin;
  CUfunction f = nullptr;
  CU(cuModuleGetFunction(&f, *module, "fill"));
  return f;
}

/* cuLaunchCooperativeKernelMultiDevice on one device, and its checks. */
static void multi_device_launch(CUfunction f) {
  CUdeviceptr out;
  CU(cuMemAlloc(&out, 64 * sizeof(int)));
  CU(cuMemsetD32(out, 0, 64));
  CUstream stream;
  CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  int v = 7;
  void *args[] = {&out, &v};
  CUDA_LAUNCH_PARAMS p = {};
  p.function = f;
  p.gridDimX = p.gridDimY = p.gridDimZ = 1;
  p.blockDimX = 64;
  p.blockDimY = p.blockDimZ = 1;
  p.hStream = stream;
  p.kernelParams = args;
  CU(cuLaunchCooperativeKernelMultiDevice(&p, 1, 0));
  int host[64] = {};
  CU(cuMemcpyDtoH(host, out, sizeof host));
  bool all = true;
  for (int i = 0; i < 64; ++i)
    all = all && host[i] == 7;
  CHECK(all);

  CHECK(cuLaunchCooperativeKernelMultiDevice(nullptr, 1, 0) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuLaunchCooperativeKernelMultiDevice(&p, 0, 0) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuLaunchCooperativeKernelMultiDevice(&p, 1, 4) ==
        CUDA_ERROR_INVALID_VALUE);
  CUDA_LAUNCH_PARAMS two[2] = {p, p};
  CHECK(cuLaunchCooperativeKernelMultiDevice(two, 2, 0) ==
        CUDA_ERROR_INVALID_VALUE);
  p.hStream = nullptr;
  CHECK(cuLaunchCooperativeKernelMultiDevice(&p, 1, 0) ==
        CUDA_ERROR_INVALID_VALUE);
  p.hStream = CU_STREAM_LEGACY;
  CHECK(cuLaunchCooperativeKernelMultiDevice(&p, 1, 0) ==
        CUDA_ERROR_INVALID_VALUE);
  CU(cuStreamDestroy(stream));
  CU(cuMemFree(out));
}

int main() {
  runtime_calls();
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  driver_queries(dev);
  CUmodule module;
  CUfunction f = nvrtc_fill(&module);
  multi_device_launch(f);
  CU(cuModuleUnload(module));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
