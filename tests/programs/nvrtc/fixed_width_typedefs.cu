/*
 * fixed_width_typedefs.cu: an NVRTC program whose kernel declares its own
 * fixed-width types at file scope, as NVRTC sources do (NVRTC provides no
 * <stdint.h>): typedef unsigned long long uint64_t, unsigned int uint32_t
 * and long long int64_t, with uint64_t mixed with unsigned long long. The
 * program compiles, and the kernel's 64-bit arithmetic gives the values
 * computed here. Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cstdio>
#include <string>

#include "../check.cuh"

#define NVRTC(call) CHECK((call) == NVRTC_SUCCESS)
#define CU(call) CHECK((call) == CUDA_SUCCESS)

namespace {

const char *source = R"(typedef unsigned long long uint64_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
__device__ uint64_t step(unsigned long long state, uint32_t add) {
  uint64_t *alias = &state;
  return *alias * 6364136223846793005ull + add;
}
extern "C" __global__ void lcg(uint64_t *out, int64_t *negated, int n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (uint32_t)n) {
    out[i] = step(i + 1, i);
    negated[i] = -(int64_t)out[i];
  }
}
)";

} // namespace

int main() {
  nvrtcProgram prog;
  NVRTC(nvrtcCreateProgram(&prog, source, "lcg.cu", 0, nullptr, nullptr));
  const char *options[] = {"--gpu-architecture=compute_90"};
  nvrtcResult compiled = nvrtcCompileProgram(prog, 1, options);
  if (compiled != NVRTC_SUCCESS) {
    size_t size = 0;
    nvrtcGetProgramLogSize(prog, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(prog, &log[0]);
    std::fprintf(stderr, "%s\n", log.c_str());
    CHECK(compiled == NVRTC_SUCCESS);
    return finish();
  }
  size_t ptx_size = 0;
  NVRTC(nvrtcGetPTXSize(prog, &ptx_size));
  std::string ptx(ptx_size, '\0');
  NVRTC(nvrtcGetPTX(prog, &ptx[0]));
  NVRTC(nvrtcDestroyProgram(&prog));

  CU(cuInit(0));
  CUdevice dev;
  CUcontext ctx;
  CU(cuDeviceGet(&dev, 0));
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CUfunction f;
  CU(cuModuleLoadData(&mod, ptx.c_str()));
  CU(cuModuleGetFunction(&f, mod, "lcg"));

  const int n = 100;
  CUdeviceptr out, negated;
  CU(cuMemAlloc(&out, n * sizeof(unsigned long long)));
  CU(cuMemAlloc(&negated, n * sizeof(long long)));
  int count = n;
  void *args[] = {&out, &negated, &count};
  CU(cuLaunchKernel(f, 2, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr));
  CU(cuCtxSynchronize());
  unsigned long long got[n];
  long long got_negated[n];
  CU(cuMemcpyDtoH(got, out, sizeof got));
  CU(cuMemcpyDtoH(got_negated, negated, sizeof got_negated));
  for (int i = 0; i < n; ++i) {
    unsigned long long want =
        (unsigned long long)(i + 1) * 6364136223846793005ull + (unsigned)i;
    CHECK(got[i] == want);
    CHECK(got_negated[i] == (long long)(0ull - want));
  }
  CU(cuMemFree(out));
  CU(cuMemFree(negated));
  CU(cuModuleUnload(mod));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
