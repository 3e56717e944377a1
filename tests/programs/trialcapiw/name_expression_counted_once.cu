// name_expression_counted_once.cu: a kernel that is no template, named by a
// name expression as well (NVRTC programs register every kernel they will
// look up, as cuda-api-wrappers' module_management example does), is one
// kernel of the module: cuModuleGetFunctionCount counts it once,
// cuModuleEnumerateFunctions lists it once, and every way of naming it
// gives the same CUfunction. cuemu's module listed it twice (3 kernels for
// 2), one of them never the function that cuModuleGetFunction gave.
// CUEMU_OPTIONS: -lcuda -lnvrtc
// NVCC_OPTIONS: -lcuda -lnvrtc
#include <cuda.h>
#include <nvrtc.h>

#include <cstdio>
#include <vector>

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static const char *source =
    "__constant__ int offset;\n"
    "__global__ void add_offset(int *p) { p[threadIdx.x] += offset; }\n"
    "template <int N> __global__ void times(int *p) { p[threadIdx.x] *= N; }\n"
    "template __global__ void times<3>(int *);\n";

int main() {
  CUdevice dev;
  CUcontext ctx;
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS);
  CHECK(cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, source, "count.cu", 0, nullptr, nullptr) ==
        NVRTC_SUCCESS);
  const char *names[] = {"add_offset", "times<3>", "&offset"};
  for (const char *n : names)
    CHECK(nvrtcAddNameExpression(prog, n) == NVRTC_SUCCESS);
  const char *opts[] = {"-arch=sm_90"};
  CHECK(nvrtcCompileProgram(prog, 1, opts) == NVRTC_SUCCESS);
  const char *lowered[3];
  for (int i = 0; i < 3; ++i)
    CHECK(nvrtcGetLoweredName(prog, names[i], &lowered[i]) == NVRTC_SUCCESS);
  size_t size = 0;
  CHECK(nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS && size > 0);
  std::vector<char> cubin(size);
  CHECK(nvrtcGetCUBIN(prog, cubin.data()) == NVRTC_SUCCESS);
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, cubin.data()) == CUDA_SUCCESS);

  unsigned count = 0;
  CHECK(cuModuleGetFunctionCount(&count, mod) == CUDA_SUCCESS);
  std::printf("%u kernels\n", count);
  CHECK(count == 2);
  CUfunction all[2] = {nullptr, nullptr};
  CHECK(cuModuleEnumerateFunctions(all, 2, mod) == CUDA_SUCCESS);
  CHECK(all[0] && all[1] && all[0] != all[1]);
  CUfunction add = nullptr, times = nullptr;
  CHECK(cuModuleGetFunction(&add, mod, lowered[0]) == CUDA_SUCCESS);
  CHECK(cuModuleGetFunction(&times, mod, lowered[1]) == CUDA_SUCCESS);
  CHECK((all[0] == add && all[1] == times) || (all[0] == times && all[1] == add));

  // The kernel runs with the variable set through its lowered name.
  CUdeviceptr off;
  size_t off_size = 0;
  CHECK(cuModuleGetGlobal(&off, &off_size, mod, lowered[2]) == CUDA_SUCCESS);
  CHECK(off_size == sizeof(int));
  int five = 5;
  CHECK(cuMemcpyHtoD(off, &five, sizeof five) == CUDA_SUCCESS);
  CUdeviceptr p;
  CHECK(cuMemAlloc(&p, 32 * sizeof(int)) == CUDA_SUCCESS);
  CHECK(cuMemsetD32(p, 1, 32) == CUDA_SUCCESS);
  void *args[] = {&p};
  CHECK(cuLaunchKernel(add, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr) ==
        CUDA_SUCCESS);
  CHECK(cuLaunchKernel(times, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr) ==
        CUDA_SUCCESS);
  int h[32];
  CHECK(cuMemcpyDtoH(h, p, sizeof h) == CUDA_SUCCESS);
  for (int v : h)
    CHECK(v == 18);
  CHECK(cuMemFree(p) == CUDA_SUCCESS);
  CHECK(cuModuleUnload(mod) == CUDA_SUCCESS);
  CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);
  CHECK(cuDevicePrimaryCtxRelease(dev) == CUDA_SUCCESS);
  std::printf("PASS\n");
  return 0;
}
