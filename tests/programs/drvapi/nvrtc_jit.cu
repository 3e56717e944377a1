// nvrtc_jit.cu: a program that JITs its kernels with NVRTC and runs them
// through the driver API, as run-time-compiling CUDA programs do: a kernel
// template instantiated by name expressions, a header given to
// nvrtcCreateProgram, NVRTC's options, lowered names, the PTX image loaded
// with cuModuleLoadDataEx; and NVRTC's errors (a bad option, a compile
// error with its log, the order of calls).
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cstring>
#include <string>
#include <vector>

#include "../check.cuh"

#define NVRTC(call) CHECK((call) == NVRTC_SUCCESS)
#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const char *ops_header = R"(
#pragma once
template <typename T> __device__ T twice(T v) { return v + v; }
)";

static const char *source = R"(
#include "ops/twice.cuh"
// y[i] = N * a * x[i] + twice(y[i]) + OFFSET
template <typename T, int N>
__global__ void axpyN(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = N * a * x[i] + twice(y[i]) + OFFSET;
}
extern "C" __global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
)";

static std::string log_of(nvrtcProgram prog) {
  size_t size = 0;
  NVRTC(nvrtcGetProgramLogSize(prog, &size));
  std::string log(size, '\0');
  NVRTC(nvrtcGetProgramLog(prog, &log[0]));
  CHECK(size >= 1 && log[size - 1] == '\0');
  log.resize(size ? size - 1 : 0);
  return log;
}

template <typename T>
static void run_axpy(CUmodule mod, const char *lowered, int factor) {
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, lowered));
  const int n = 300;
  std::vector<T> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) {
    x[i] = T(i % 17);
    y[i] = T(i % 5);
  }
  CUdeviceptr dx, dy;
  CU(cuMemAlloc(&dx, n * sizeof(T)));
  CU(cuMemAlloc(&dy, n * sizeof(T)));
  CU(cuMemcpyHtoD(dx, x.data(), n * sizeof(T)));
  CU(cuMemcpyHtoD(dy, y.data(), n * sizeof(T)));
  T a = T(2);
  int nn = n;
  void *args[] = {&a, &dx, &dy, &nn};
  CU(cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, args,
                    nullptr));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(out.data(), dy, n * sizeof(T)));
  for (int i = 0; i < n; ++i)
    CHECK(out[i] == T(factor) * a * x[i] + y[i] + y[i] + T(3));
  CU(cuMemFree(dx));
  CU(cuMemFree(dy));
}

int main() {
  int major = 0, minor = 0;
  NVRTC(nvrtcVersion(&major, &minor));
  CHECK(major >= 12);
  CHECK(std::strcmp(nvrtcGetErrorString(NVRTC_ERROR_COMPILATION),
                    "NVRTC_ERROR_COMPILATION") == 0);
  int narchs = 0;
  NVRTC(nvrtcGetNumSupportedArchs(&narchs));
  CHECK(narchs > 0);

  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));

  // The program, with its header and name expressions.
  nvrtcProgram prog;
  const char *headers[] = {ops_header};
  const char *names[] = {"ops/twice.cuh"};
  NVRTC(nvrtcCreateProgram(&prog, source, "axpy.cu", 1, headers, names));
  NVRTC(nvrtcAddNameExpression(prog, "&axpyN<float, 4>"));
  NVRTC(nvrtcAddNameExpression(prog, "axpyN<double,2>"));
  const char *lowered = nullptr;
  CHECK(nvrtcGetLoweredName(prog, "&axpyN<float, 4>", &lowered) ==
        NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  CHECK(nvrtcGetPTXSize(prog, nullptr) != NVRTC_SUCCESS);
  const char *options[] = {"--gpu-architecture=compute_90", "-std=c++17",
                           "-DOFFSET=3", "--use_fast_math", "-default-device",
                           "-lineinfo"};
  nvrtcResult r = nvrtcCompileProgram(prog, 6, options);
  CHECK(r == NVRTC_SUCCESS);
  if (r != NVRTC_SUCCESS)
    std::printf("%s\n", log_of(prog).c_str());
  CHECK(nvrtcAddNameExpression(prog, "fill") ==
        NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION);
  const char *lowered_float = nullptr, *lowered_double = nullptr;
  NVRTC(nvrtcGetLoweredName(prog, "&axpyN<float, 4>", &lowered_float));
  NVRTC(nvrtcGetLoweredName(prog, "axpyN<double,2>", &lowered_double));
  CHECK(lowered_float &&
        std::strcmp(lowered_float, "_Z5axpyNIfLi4EEvT_PKS0_PS0_i") == 0);
  CHECK(lowered_double &&
        std::strcmp(lowered_double, "_Z5axpyNIdLi2EEvT_PKS0_PS0_i") == 0);
  CHECK(nvrtcGetLoweredName(prog, "axpyN<int, 1>", &lowered) ==
        NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID);

  size_t ptx_size = 0;
  NVRTC(nvrtcGetPTXSize(prog, &ptx_size));
  std::vector<char> ptx(ptx_size);
  NVRTC(nvrtcGetPTX(prog, ptx.data()));
  size_t cubin_size = 0;
  NVRTC(nvrtcGetCUBINSize(prog, &cubin_size));
  CHECK(cubin_size == 0); // compute_90 is virtual: no cubin, as NVRTC

  // The image, loaded and run through the driver API.
  CUmodule mod;
  CU(cuModuleLoadDataEx(&mod, ptx.data(), 0, nullptr, nullptr));
  std::string f_name = lowered_float, d_name = lowered_double;
  NVRTC(nvrtcDestroyProgram(&prog));
  CHECK(prog == nullptr);
  run_axpy<float>(mod, f_name.c_str(), 4);
  run_axpy<double>(mod, d_name.c_str(), 2);
  CUfunction fill;
  CU(cuModuleGetFunction(&fill, mod, "fill"));
  CU(cuModuleUnload(mod));
#ifdef __CUEMU__
  // The handle of an unloaded module is refused, never read (CUDA leaves
  // its use undefined; cuemu names it).
  CHECK(cuModuleGetFunction(&fill, mod, "fill") == CUDA_ERROR_INVALID_HANDLE);
  unsigned nfunctions = 0;
  CHECK(cuModuleGetFunctionCount(&nfunctions, mod) ==
        CUDA_ERROR_INVALID_HANDLE);
  CHECK(cuModuleUnload(mod) == CUDA_ERROR_INVALID_HANDLE);
#endif

  // An option NVRTC does not have.
  NVRTC(nvrtcCreateProgram(&prog, source, "axpy.cu", 1, headers, names));
  const char *bad[] = {"--no-such-option"};
  CHECK(nvrtcCompileProgram(prog, 1, bad) == NVRTC_ERROR_INVALID_OPTION);
  CHECK(log_of(prog).find("unrecognized option --no-such-option") !=
        std::string::npos);
  const char *bad_arch[] = {"-arch=compute_20"};
  CHECK(nvrtcCompileProgram(prog, 1, bad_arch) == NVRTC_ERROR_INVALID_OPTION);
  NVRTC(nvrtcDestroyProgram(&prog));

  // A compile error: the log names the program and the line.
  const char *broken = "__global__ void k(int *p) {\n  p[0] = undeclared;\n}\n";
  NVRTC(nvrtcCreateProgram(&prog, broken, "broken.cu", 0, nullptr, nullptr));
  CHECK(nvrtcCompileProgram(prog, 0, nullptr) == NVRTC_ERROR_COMPILATION);
  std::string log = log_of(prog);
  CHECK(log.find("broken.cu") != std::string::npos);
  CHECK(log.find("undeclared") != std::string::npos);
  CHECK(nvrtcGetPTXSize(prog, &ptx_size) == NVRTC_ERROR_INVALID_PROGRAM);
  NVRTC(nvrtcDestroyProgram(&prog));
  CHECK(nvrtcDestroyProgram(&prog) == NVRTC_ERROR_INVALID_PROGRAM);

  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
