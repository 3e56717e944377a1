// nvrtc_variable_names.cu: a run-time-compiled module whose host code sets
// __device__ and __constant__ variables found by their name expressions,
// as the NVRTC User Guide's "Using Lowered Name" example does:
// nvrtcAddNameExpression("&V1"), nvrtcGetLoweredName, then
// cuModuleGetGlobal with the lowered name. The variables are at namespace
// scope, in nested namespaces, and a variable template's instance. cuemu
// once treated every name expression as a kernel, and the compile of any
// program that named a variable failed.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cstring>
#include <string>

#include "../check.cuh"

static const char *kSource = R"(
__device__ int base;
namespace table {
namespace consts {
__constant__ int offsets[4];
}
template <typename T> __device__ T factor;
template <typename T>
__global__ void apply(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = factor<T> * T(base + consts::offsets[i % 4] + i);
}
}
)";

int main() {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, kSource, "variables.cu", 0, nullptr,
                           nullptr) == NVRTC_SUCCESS);
  const char *names[] = {"&base", "&table::consts::offsets",
                         "&table::factor<float>", "&table::factor<double>",
                         "table::apply<float>", "table::apply<double>"};
  for (const char *name : names)
    CHECK(nvrtcAddNameExpression(prog, name) == NVRTC_SUCCESS);
  const char *options[] = {"--gpu-architecture=compute_90", "-std=c++17"};
  nvrtcResult compiled = nvrtcCompileProgram(prog, 2, options);
  CHECK(compiled == NVRTC_SUCCESS);
  if (compiled != NVRTC_SUCCESS) {
    size_t size = 0;
    nvrtcGetProgramLogSize(prog, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(prog, &log[0]);
    std::fprintf(stderr, "%s\n", log.c_str());
    return finish();
  }
  const char *lowered[6] = {};
  for (int i = 0; i < 6; ++i)
    CHECK(nvrtcGetLoweredName(prog, names[i], &lowered[i]) == NVRTC_SUCCESS &&
          lowered[i]);
  // The Itanium ABI's names, as NVRTC gives them.
  CHECK(std::strcmp(lowered[0], "base") == 0);
  CHECK(std::strcmp(lowered[1], "_ZN5table6consts7offsetsE") == 0);
  CHECK(std::strcmp(lowered[2], "_ZN5table6factorIfEE") == 0);
  CHECK(std::strcmp(lowered[4], "_ZN5table5applyIfEEvPT_i") == 0);
  size_t ptx_size = 0;
  CHECK(nvrtcGetPTXSize(prog, &ptx_size) == NVRTC_SUCCESS);
  std::string ptx(ptx_size, '\0');
  CHECK(nvrtcGetPTX(prog, &ptx[0]) == NVRTC_SUCCESS);

  CUdevice device;
  CUcontext context;
  CUmodule module;
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CHECK(cuDeviceGet(&device, 0) == CUDA_SUCCESS);
  CHECK(cuCtxCreate(&context, nullptr, 0, device) == CUDA_SUCCESS);
  CHECK(cuModuleLoadDataEx(&module, ptx.c_str(), 0, nullptr, nullptr) ==
        CUDA_SUCCESS);

  // Set the variables through their lowered names.
  const int base = 100;
  const int offsets[4] = {1, 2, 3, 4};
  const float factor_f = 0.5f;
  const double factor_d = 2.0;
  const void *values[4] = {&base, offsets, &factor_f, &factor_d};
  const size_t sizes[4] = {sizeof base, sizeof offsets, sizeof factor_f,
                           sizeof factor_d};
  for (int i = 0; i < 4; ++i) {
    CUdeviceptr address = 0;
    size_t bytes = 0;
    CHECK(cuModuleGetGlobal(&address, &bytes, module, lowered[i]) ==
          CUDA_SUCCESS);
    CHECK(bytes == sizes[i]);
    CHECK(cuMemcpyHtoD(address, values[i], sizes[i]) == CUDA_SUCCESS);
  }
  // A variable's name does not name a kernel.
  CUfunction none;
  CHECK(cuModuleGetFunction(&none, module, lowered[0]) ==
        CUDA_ERROR_NOT_FOUND);

  const int n = 64;
  CUdeviceptr out_f, out_d;
  CHECK(cuMemAlloc(&out_f, n * sizeof(float)) == CUDA_SUCCESS);
  CHECK(cuMemAlloc(&out_d, n * sizeof(double)) == CUDA_SUCCESS);
  CUfunction apply_f, apply_d;
  CHECK(cuModuleGetFunction(&apply_f, module, lowered[4]) == CUDA_SUCCESS);
  CHECK(cuModuleGetFunction(&apply_d, module, lowered[5]) == CUDA_SUCCESS);
  int count = n;
  void *args_f[] = {&out_f, &count};
  void *args_d[] = {&out_d, &count};
  CHECK(cuLaunchKernel(apply_f, 2, 1, 1, 32, 1, 1, 0, nullptr, args_f,
                       nullptr) == CUDA_SUCCESS);
  CHECK(cuLaunchKernel(apply_d, 2, 1, 1, 32, 1, 1, 0, nullptr, args_d,
                       nullptr) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  float got_f[n];
  double got_d[n];
  CHECK(cuMemcpyDtoH(got_f, out_f, sizeof got_f) == CUDA_SUCCESS);
  CHECK(cuMemcpyDtoH(got_d, out_d, sizeof got_d) == CUDA_SUCCESS);
  for (int i = 0; i < n; ++i) {
    const int v = base + offsets[i % 4] + i;
    CHECK(got_f[i] == 0.5f * float(v));
    CHECK(got_d[i] == 2.0 * double(v));
  }
  CHECK(cuMemFree(out_f) == CUDA_SUCCESS);
  CHECK(cuMemFree(out_d) == CUDA_SUCCESS);
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
  CHECK(cuCtxDestroy(context) == CUDA_SUCCESS);
  CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);
  return finish();
}
