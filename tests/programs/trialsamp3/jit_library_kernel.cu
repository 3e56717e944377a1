// jit_library_kernel.cu: a JIT path of CUDA 12's library API. NVRTC
// compiles a templated kernel for two instantiations named with
// nvrtcAddNameExpression (lowered names read back with
// nvrtcGetLoweredName); the CUBIN is loaded as a context-independent
// library with JIT options (cuLibraryLoadData), each kernel found with
// cuLibraryGetKernel and launched with cuLaunchKernelEx on a
// cuKernelGetFunction handle. The same image also loads through
// cuModuleLoadDataEx with an info-log buffer.
// CUEMU_OPTIONS: -lcuda -lnvrtc
// NVCC_OPTIONS: -lcuda -lnvrtc
#include <cmath>
#include <cstring>
#include <string>
#include <vector>
#include "drv_check.h"

static const char *kSource = R"(
template <typename T, int UNROLL>
__global__ void scaleAdd(T *y, const T *x, T a, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
#pragma unroll
  for (int k = 0; k < UNROLL; ++k)
    if (base + k < n) y[base + k] = a * x[base + k] + y[base + k];
}
__device__ int launches;
extern "C" __global__ void countLaunch() { atomicAdd(&launches, 1); }
)";

template <typename T, int UNROLL>
static bool runOne(CUkernel kernel, const char *what) {
  const int n = 1000;
  std::vector<T> hx(n), hy(n);
  for (int i = 0; i < n; ++i) hx[i] = (T)i, hy[i] = (T)(2 * i);
  CUdeviceptr dx, dy;
  checkCuErrors(cuMemAlloc(&dx, n * sizeof(T)));
  checkCuErrors(cuMemAlloc(&dy, n * sizeof(T)));
  checkCuErrors(cuMemcpyHtoD(dx, hx.data(), n * sizeof(T)));
  checkCuErrors(cuMemcpyHtoD(dy, hy.data(), n * sizeof(T)));
  CUfunction f;
  checkCuErrors(cuKernelGetFunction(&f, kernel));
  T a = (T)3;
  int nn = n;
  void *args[] = {&dy, &dx, &a, &nn};
  CUlaunchConfig cfg = {};
  cfg.blockDimX = 64;
  cfg.gridDimX = (n + 64 * UNROLL - 1) / (64 * UNROLL);
  cfg.gridDimY = cfg.gridDimZ = cfg.blockDimY = cfg.blockDimZ = 1;
  CUlaunchAttribute attr[1];
  attr[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
  attr[0].value.priority = 0;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  checkCuErrors(cuLaunchKernelEx(&cfg, f, args, nullptr));
  checkCuErrors(cuCtxSynchronize());
  checkCuErrors(cuMemcpyDtoH(hy.data(), dy, n * sizeof(T)));
  bool ok = true;
  for (int i = 0; i < n && ok; ++i)
    if (hy[i] != (T)(3 * i + 2 * i)) {
      printf("%s: y[%d] = %g\n", what, i, (double)hy[i]);
      ok = false;
    }
  checkCuErrors(cuMemFree(dx));
  checkCuErrors(cuMemFree(dy));
  return ok;
}

int main() {
  checkCuErrors(cuInit(0));
  CUdevice dev;
  CUcontext ctx;
  checkCuErrors(cuDeviceGet(&dev, 0));
  checkCuErrors(cuDevicePrimaryCtxRetain(&ctx, dev));
  checkCuErrors(cuCtxSetCurrent(ctx));

  nvrtcProgram prog;
  checkNvrtc(nvrtcCreateProgram(&prog, kSource, "scale_add.cu", 0, nullptr, nullptr));
  const char *names[] = {"scaleAdd<float, 4>", "scaleAdd<double, 1>"};
  for (const char *nm : names) checkNvrtc(nvrtcAddNameExpression(prog, nm));
  const char *opts[] = {"--std=c++17", "-default-device"};
  size_t size = 0;
  char *cubin = jit_compile(prog, opts, 2, true, &size);
  std::string lowered[2];
  for (int i = 0; i < 2; ++i) {
    const char *l = nullptr;
    checkNvrtc(nvrtcGetLoweredName(prog, names[i], &l));
    lowered[i] = l;
    printf("%s -> %s\n", names[i], l);
  }
  checkNvrtc(nvrtcDestroyProgram(&prog));
  bool ok = lowered[0].rfind("_Z", 0) == 0 && lowered[0] != lowered[1];

  // The library, with JIT options as a framework passes them.
  char infoLog[1024] = "";
  CUjit_option jitOpts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_LOG_VERBOSE};
  void *jitVals[] = {infoLog, (void *)(size_t)sizeof infoLog, (void *)(size_t)1};
  CUlibrary lib;
  checkCuErrors(cuLibraryLoadData(&lib, cubin, jitOpts, jitVals, 3, nullptr, nullptr, 0));
  CUkernel kf, kd, kc;
  checkCuErrors(cuLibraryGetKernel(&kf, lib, lowered[0].c_str()));
  checkCuErrors(cuLibraryGetKernel(&kd, lib, lowered[1].c_str()));
  checkCuErrors(cuLibraryGetKernel(&kc, lib, "countLaunch"));
  unsigned int count = 0;
  checkCuErrors(cuLibraryGetKernelCount(&count, lib));
  ok = ok && count == 3;
  const char *kname = nullptr;
  checkCuErrors(cuKernelGetName(&kname, kc));
  ok = ok && kname && std::strcmp(kname, "countLaunch") == 0;
  ok = runOne<float, 4>(kf, "float x4") && ok;
  ok = runOne<double, 1>(kd, "double x1") && ok;
  CUfunction fc;
  checkCuErrors(cuKernelGetFunction(&fc, kc));
  for (int i = 0; i < 3; ++i)
    checkCuErrors(cuLaunchKernel(fc, 2, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr));
  CUdeviceptr gptr;
  size_t gsize = 0;
  checkCuErrors(cuLibraryGetGlobal(&gptr, &gsize, lib, "launches"));
  int launches = 0;
  checkCuErrors(cuMemcpyDtoH(&launches, gptr, sizeof launches));
  printf("countLaunch counted %d (global of %zu bytes)\n", launches, gsize);
  ok = ok && launches == 3 * 64 && gsize == sizeof(int);

  // The same image as a module, with JIT options again.
  CUmodule mod;
  checkCuErrors(cuModuleLoadDataEx(&mod, cubin, 3, jitOpts, jitVals));
  CUfunction mf;
  checkCuErrors(cuModuleGetFunction(&mf, mod, lowered[0].c_str()));
  int maxThreads = 0;
  checkCuErrors(cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, mf));
  ok = ok && maxThreads > 0;
  checkCuErrors(cuModuleUnload(mod));
  checkCuErrors(cuLibraryUnload(lib));
  free(cubin);
  checkCuErrors(cuDevicePrimaryCtxRelease(dev));
  printf("jitLibraryKernel %s\n%s\n", ok ? "completed, result OK" : "FAILED", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
