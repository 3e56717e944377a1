// NVCC_OPTIONS: -I../common -Xcompiler -fopenmp
// library_mgmt.cu - CUDA 12 context-independent loading: a module compiled
// at run time is loaded once as a library (driver and runtime flavours), its
// kernels are fetched as CUkernel / cudaKernel_t and launched on every
// device without reloading, and a __device__ global is read through
// cuLibraryGetGlobal in each device's context.
#define MGPU_USE_DRIVER
#define MGPU_USE_NVRTC
#include <string>
#include <vector>
#include "mgpu_check.h"

static const char *kLib = R"(
__device__ int launches;
__constant__ float gain = 2.5f;
extern "C" __global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= gain;
  if (i == 0) atomicAdd(&launches, 1);
}
extern "C" __global__ void fill(float *x, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v + i;
}
)";

static std::string compile_ptx() {
  nvrtcProgram prog;
  NVRTC_CHECK(nvrtcCreateProgram(&prog, kLib, "lib.cu", 0, nullptr, nullptr));
  const char *opts[] = {"--gpu-architecture=compute_90"};
  nvrtcResult r = nvrtcCompileProgram(prog, 1, opts);
  if (r != NVRTC_SUCCESS) {
    size_t n;
    nvrtcGetProgramLogSize(prog, &n);
    std::string log(n, '\0');
    nvrtcGetProgramLog(prog, &log[0]);
    std::fprintf(stderr, "%s\n", log.c_str());
    std::exit(1);
  }
  size_t n;
  NVRTC_CHECK(nvrtcGetPTXSize(prog, &n));
  std::string ptx(n, '\0');
  NVRTC_CHECK(nvrtcGetPTX(prog, &ptx[0]));
  NVRTC_CHECK(nvrtcDestroyProgram(&prog));
  return ptx;
}

int main() {
  std::string ptx = compile_ptx();
  CU_CHECK(cuInit(0));
  int ndev = 0;
  CU_CHECK(cuDeviceGetCount(&ndev));
  bool ok = true;
  const int n = 4096;

  // Driver flavour: loaded before any context exists.
  CUlibrary lib;
  CU_CHECK(cuLibraryLoadData(&lib, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  unsigned count = 0;
  CU_CHECK(cuLibraryGetKernelCount(&count, lib));
  std::vector<CUkernel> all(count);
  CU_CHECK(cuLibraryEnumerateKernels(all.data(), count, lib));
  std::printf("library has %u kernels:", count);
  for (CUkernel k : all) {
    const char *name = nullptr;
    CU_CHECK(cuKernelGetName(&name, k));
    std::printf(" %s", name);
  }
  std::printf("\n");
  ok = ok && count == 2;
  CUkernel kscale, kfill;
  CU_CHECK(cuLibraryGetKernel(&kscale, lib, "scale"));
  CU_CHECK(cuLibraryGetKernel(&kfill, lib, "fill"));
  CUlibrary back;
  CU_CHECK(cuKernelGetLibrary(&back, kscale));
  ok = ok && back == lib;

  std::vector<CUcontext> ctxs(ndev);
  for (int d = 0; d < ndev; ++d) {
    CUdevice dev;
    CU_CHECK(cuDeviceGet(&dev, d));
    CU_CHECK(cuDevicePrimaryCtxRetain(&ctxs[d], dev));
    CU_CHECK(cuCtxSetCurrent(ctxs[d]));
    int maxthreads = 0;
    CU_CHECK(cuKernelGetAttribute(&maxthreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kscale, dev));
    ok = ok && maxthreads > 0;
    CUdeviceptr x;
    CU_CHECK(cuMemAlloc(&x, n * sizeof(float)));
    CUfunction ffill, fscale;
    CU_CHECK(cuKernelGetFunction(&ffill, kfill));
    CU_CHECK(cuKernelGetFunction(&fscale, kscale));
    int nn = n;
    float v = (float)d;
    void *fargs[] = {&x, &nn, &v};
    CU_CHECK(cuLaunchKernel(ffill, n / 256, 1, 1, 256, 1, 1, 0, 0, fargs, nullptr));
    void *sargs[] = {&x, &nn};
    // A CUkernel may be launched directly, cast to CUfunction.
    CU_CHECK(cuLaunchKernel((CUfunction)kscale, n / 256, 1, 1, 256, 1, 1, 0, 0, sargs, nullptr));
    CU_CHECK(cuLaunchKernel(fscale, n / 256, 1, 1, 256, 1, 1, 0, 0, sargs, nullptr));
    std::vector<float> h(n);
    CU_CHECK(cuCtxSynchronize());
    CU_CHECK(cuMemcpyDtoH(h.data(), x, n * sizeof(float)));
    int bad = 0;
    for (int i = 0; i < n; ++i)
      if (h[i] != (d + i) * 6.25f) bad++;
    // The device global of this context.
    CUdeviceptr g;
    size_t gsize = 0;
    CU_CHECK(cuLibraryGetGlobal(&g, &gsize, lib, "launches"));
    int launches = -1;
    CU_CHECK(cuMemcpyDtoH(&launches, g, sizeof launches));
    std::printf("device %d: %d mismatches, launches=%d (size %zu)\n", d, bad, launches, gsize);
    ok = ok && bad == 0 && gsize == sizeof(int) && launches == 2;
    CU_CHECK(cuMemFree(x));
  }
  CU_CHECK(cuLibraryUnload(lib));

  // Runtime flavour.
  cudaLibrary_t rlib;
  CUDA_CHECK(cudaLibraryLoadData(&rlib, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  cudaKernel_t rk;
  CUDA_CHECK(cudaLibraryGetKernel(&rk, rlib, "fill"));
  for (int d = 0; d < ndev; ++d) {
    CUDA_CHECK(cudaSetDevice(d));
    float *x;
    CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
    int nn = n;
    float v = 100.0f * (d + 1);
    void *args[] = {&x, &nn, &v};
    CUDA_CHECK(cudaLaunchKernel((const void *)rk, dim3(n / 128), dim3(128), args, 0, 0));
    // And through cudaLaunchKernelExC with a config.
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(n / 256);
    cfg.blockDim = dim3(256);
    CUDA_CHECK(cudaLaunchKernelExC(&cfg, (const void *)rk, args));
    std::vector<float> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i)
      if (h[i] != v + i) bad++;
    void *gp = nullptr;
    size_t gsz = 0;
    CUDA_CHECK(cudaLibraryGetGlobal(&gp, &gsz, rlib, "gain"));
    float gain = 0;
    CUDA_CHECK(cudaMemcpy(&gain, gp, sizeof gain, cudaMemcpyDeviceToHost));
    std::printf("runtime device %d: %d mismatches, gain %.2f\n", d, bad, gain);
    ok = ok && bad == 0 && gain == 2.5f;
    CUDA_CHECK(cudaFree(x));
  }
  CUDA_CHECK(cudaLibraryUnload(rlib));
  for (int d = 0; d < ndev; ++d) {
    CUdevice dev;
    CU_CHECK(cuDeviceGet(&dev, d));
    CU_CHECK(cuDevicePrimaryCtxRelease(dev));
  }
  return mgpu_report(ok, "library_mgmt");
}
