// plain_name_lookup.cu: cuModuleGetFunction finds a kernel by its symbol,
// as CUDA does. A program that loads the output of `nvcc --ptx` and asks for
// a C++ kernel by its plain name (a Python loader calling pycuda's
// get_function("compute_distances") on a kernel declared without
// extern "C") gets CUDA_ERROR_NOT_FOUND on a GPU, because the module's entry
// is the mangled name; the extern "C" kernel is found by its plain name, the
// C++ kernel by its mangled name, and a template instance by the lowered
// name of its name expression, never by the expression's text.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cstdio>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const char *source = R"(
extern "C" __global__ void fill_c(int *out) { out[threadIdx.x] = 1; }
__global__ void fill_cpp(int *out) { out[threadIdx.x] = 2; }
template <typename T> __global__ void fill_tpl(T *out) { out[threadIdx.x] = 3; }
)";

// Launches `f` with one block of four threads and returns out[3].
static int run(CUfunction f, CUdeviceptr out) {
  void *args[] = {&out};
  CU(cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr));
  CU(cuCtxSynchronize());
  int host[4] = {0, 0, 0, 0};
  CU(cuMemcpyDtoH(host, out, sizeof host));
  return host[3];
}

int main() {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, source, "lookup.cu", 0, nullptr, nullptr) ==
        NVRTC_SUCCESS);
  CHECK(nvrtcAddNameExpression(prog, "fill_tpl<int>") == NVRTC_SUCCESS);
  CHECK(nvrtcCompileProgram(prog, 0, nullptr) == NVRTC_SUCCESS);
  size_t size = 0;
  CHECK(nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS);
  std::vector<char> ptx(size);
  CHECK(nvrtcGetPTX(prog, ptx.data()) == NVRTC_SUCCESS);
  const char *lowered = nullptr;
  CHECK(nvrtcGetLoweredName(prog, "fill_tpl<int>", &lowered) == NVRTC_SUCCESS);

  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CU(cuInit(0));
  CU(cuDeviceGet(&dev, 0));
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CU(cuModuleLoadData(&mod, ptx.data()));
  CUdeviceptr out;
  CU(cuMemAlloc(&out, 4 * sizeof(int)));

  CUfunction f = nullptr;
  CU(cuModuleGetFunction(&f, mod, "fill_c"));
  CHECK(f && run(f, out) == 1);

  f = nullptr;
  CHECK(cuModuleGetFunction(&f, mod, "fill_cpp") == CUDA_ERROR_NOT_FOUND);
  CU(cuModuleGetFunction(&f, mod, "_Z8fill_cppPi"));
  CHECK(f && run(f, out) == 2);

  f = nullptr;
  CHECK(cuModuleGetFunction(&f, mod, "fill_tpl<int>") == CUDA_ERROR_NOT_FOUND);
  CHECK(lowered && cuModuleGetFunction(&f, mod, lowered) == CUDA_SUCCESS);
  CHECK(f && run(f, out) == 3);

  CU(cuMemFree(out));
  CU(cuModuleUnload(mod));
  CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
