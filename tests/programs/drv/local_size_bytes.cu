// local_size_bytes.cu: cudaFuncAttributes::localSizeBytes (and the driver's
// CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES) is the kernel's stack frame (on a GPU,
// its local memory): a kernel
// with a private array indexed at run time needs at least the array's size
// of local memory (as ptxas puts such an array in local memory), a template
// instance with a larger array needs more, and a kernel without one needs
// none worth an array. Read through cudaFuncGetAttributes for kernels of the
// program and template instances, and through cuFuncGetAttribute,
// cuKernelGetAttribute and cudaFuncGetAttributes of a cudaKernel_t for the
// same kernels compiled at run time by NVRTC. With them, what else the
// runtime says about a kernel: cudaFuncGetParamInfo and cudaFuncGetName.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <cstring>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

// A table lookup through a private array: out[t] = in[idx[t] % N] * scale.
template <int N>
__global__ void gather_local(const float *in, const int *idx, float *out,
                             float scale) {
  float table[N];
  for (int i = 0; i < N; ++i)
    table[i] = in[i] * scale;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = table[idx[t] % N];
}

// The same through an over-aligned table: the compiler keeps a frame
// pointer and makes the frame with instructions the unwind table does not
// describe, which must be counted all the same.
template <int N>
__global__ void gather_aligned(const float *in, const int *idx, float *out) {
  __align__(64) float table[N];
  for (int i = 0; i < N; ++i)
    table[i] = in[i] + 1.0f;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = table[idx[t] % N];
}

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

static const char *jit_source = R"(
extern "C" __global__ void lookup(const float *in, const int *idx, float *out) {
  float table[300];
  for (int i = 0; i < 300; ++i)
    table[i] = in[i] + 1.0f;
  int t = threadIdx.x;
  out[t] = table[idx[t] % 300];
}
extern "C" __global__ void copy(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x];
}
)";

// On x86-64 any function may keep up to 128 bytes below its stack pointer
// (the ABI's red zone), which the figure counts always (docs/runtime.md).
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
static const long red_zone = 128;
#else
static const long red_zone = 0;
#endif

static size_t local_of(const void *kernel) {
  cudaFuncAttributes a;
  CHECK(cudaFuncGetAttributes(&a, kernel) == cudaSuccess);
  return a.localSizeBytes;
}

int main() {
  // The program's kernels.
  size_t small = local_of((const void *)saxpy);
  size_t g64 = local_of((const void *)gather_local<64>);
  size_t g512 = local_of((const void *)gather_local<512>);
  size_t a256 = local_of((const void *)gather_aligned<256>);
  CHECK((long)small >= red_zone && (long)small < 64 + red_zone);
  CHECK(g64 >= 64 * sizeof(float) && (long)g64 >= red_zone);
  CHECK(g512 >= 512 * sizeof(float));
  CHECK(g512 - g64 + 64 >= (512 - 64) * sizeof(float)); // the larger array
  CHECK(g512 < 512 * sizeof(float) + 1024); // the array and a little more
  CHECK(a256 >= 256 * sizeof(float) && a256 < 256 * sizeof(float) + 1024);

  // The parameter layout: three pointers, then the float.
  size_t offset = 1, psize = 0;
  CHECK(cudaFuncGetParamInfo((const void *)gather_local<512>, 3, &offset,
                             &psize) == cudaSuccess);
  CHECK(offset == 3 * sizeof(void *) && psize == sizeof(float));
  CHECK(cudaFuncGetParamInfo((const void *)saxpy, 1, &offset, nullptr) ==
        cudaSuccess);
  CHECK(offset == sizeof(void *)); // after the float, at the pointer's alignment
  CHECK(cudaFuncGetParamInfo((const void *)saxpy, 4, &offset, &psize) ==
        cudaErrorInvalidValue);
  cudaGetLastError();
  const char *name = nullptr;
  CHECK(cudaFuncGetName(&name, (const void *)saxpy) == cudaSuccess);
  CHECK(name && std::strstr(name, "saxpy"));

  // They run as they should.
  const int n = 128;
  std::vector<float> hin(512);
  std::vector<int> hidx(n);
  for (int i = 0; i < 512; ++i)
    hin[i] = static_cast<float>(i);
  for (int i = 0; i < n; ++i)
    hidx[i] = (i * 37) % 1000;
  float *in, *out;
  int *idx;
  cudaMalloc(&in, 512 * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&idx, n * sizeof(int));
  cudaMemcpy(in, hin.data(), 512 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(idx, hidx.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  gather_local<512><<<2, n / 2>>>(in, idx, out, 2.0f);
  std::vector<float> hout(n);
  cudaMemcpy(hout.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    CHECK(hout[i] == 2.0f * static_cast<float>(hidx[i] % 512));

  // The same through the driver API and a library, from NVRTC.
  CU(cuInit(0));
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, jit_source, "lookup.cu", 0, nullptr,
                           nullptr) == NVRTC_SUCCESS);
  const char *arch = "-arch=sm_90"; // a cubin needs a real architecture
  CHECK(nvrtcCompileProgram(prog, 1, &arch) == NVRTC_SUCCESS);
  size_t size = 0;
  nvrtcGetCUBINSize(prog, &size);
  std::vector<char> cubin(size);
  nvrtcGetCUBIN(prog, cubin.data());
  nvrtcDestroyProgram(&prog);

  CUlibrary lib;
  CU(cuLibraryLoadData(&lib, cubin.data(), nullptr, nullptr, 0, nullptr,
                       nullptr, 0));
  CUkernel lookup_k, copy_k;
  CU(cuLibraryGetKernel(&lookup_k, lib, "lookup"));
  CU(cuLibraryGetKernel(&copy_k, lib, "copy"));
  int lk = -1, ck = -1;
  CU(cuKernelGetAttribute(&lk, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, lookup_k,
                          0));
  CU(cuKernelGetAttribute(&ck, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, copy_k, 0));
  CHECK(lk >= 300 * 4 && lk < 300 * 4 + 1024);
  CHECK(ck >= red_zone && ck < 64 + red_zone);

  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CUfunction lookup_f;
  CU(cuKernelGetFunction(&lookup_f, lookup_k));
  int lf = -1;
  CU(cuFuncGetAttribute(&lf, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, lookup_f));
  CHECK(lf == lk);

  cudaLibrary_t rlib;
  CHECK(cudaLibraryLoadData(&rlib, cubin.data(), nullptr, nullptr, 0, nullptr,
                            nullptr, 0) == cudaSuccess);
  cudaKernel_t rk;
  CHECK(cudaLibraryGetKernel(&rk, rlib, "lookup") == cudaSuccess);
  cudaFuncAttributes ra;
  CHECK(cudaFuncGetAttributes(&ra, (const void *)rk) == cudaSuccess);
  CHECK(ra.localSizeBytes == static_cast<size_t>(lk));
  CHECK(cudaFuncGetParamInfo((const void *)rk, 2, &offset, &psize) ==
        cudaSuccess);
  CHECK(offset == 2 * sizeof(void *) && psize == sizeof(void *));
  CHECK(cudaFuncSetAttribute((const void *)rk,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             64 * 1024) == cudaSuccess);
  CHECK(cudaFuncGetAttributes(&ra, (const void *)rk) == cudaSuccess);
  CHECK(ra.maxDynamicSharedSizeBytes == 64 * 1024);
  CHECK(cudaLibraryUnload(rlib) == cudaSuccess);
  CU(cuLibraryUnload(lib));
  CU(cuDevicePrimaryCtxRelease(dev));
  cudaFree(in);
  cudaFree(out);
  cudaFree(idx);
  return finish();
}
