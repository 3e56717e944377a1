// nvrtc_fmad.cu: NVRTC's -fmad and --use_fast_math, honoured as cuemu-nvcc
// honours them (docs/nvcc-checks.md): a kernel computes a*b+c for
// a = b = 1 + 2^-12 and c = -(1 + 2^-11), whose result is 2^-24 when the
// multiply and the add are fused (one rounding) and 0 when the product is
// rounded first. -fmad=true and --use_fast_math fuse (on a GPU, and with
// cuemu where the CPU has FMA), -fmad=false rounds, and so does
// --use_fast_math -fmad=false; -fmad=maybe is an invalid option. Without
// either option the result is printed, not checked: NVRTC's default fuses,
// cuemu's rounds each operation (the decision in docs/nvcc-checks.md).
// Prints PASS.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

const char *contract_source = R"(
extern "C" __global__ void contract(const float *v, float *r) {
  r[0] = v[0] * v[1] + v[2];
}
)";

// Compiles the kernel with `options`; the image, empty when it did not
// compile; *result the compile's result.
std::vector<char> compile(const std::vector<const char *> &options,
                          nvrtcResult *result) {
  nvrtcProgram prog;
  std::vector<char> image;
  *result = nvrtcCreateProgram(&prog, contract_source, "contract.cu", 0,
                               nullptr, nullptr);
  if (*result != NVRTC_SUCCESS)
    return image;
  std::vector<const char *> all = {"-arch=compute_90"};
  all.insert(all.end(), options.begin(), options.end());
  *result = nvrtcCompileProgram(prog, (int)all.size(), all.data());
  size_t size = 0;
  if (*result == NVRTC_SUCCESS &&
      nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS) {
    image.resize(size);
    nvrtcGetPTX(prog, image.data());
  }
  nvrtcDestroyProgram(&prog);
  return image;
}

// Runs the kernel of `image` on the values above; NAN when it cannot.
float run(const std::vector<char> &image) {
  CUmodule mod;
  CUfunction f;
  CUdeviceptr v, r;
  float result = NAN;
  const float values[3] = {1.0f + std::ldexp(1.0f, -12),
                           1.0f + std::ldexp(1.0f, -12),
                           -(1.0f + std::ldexp(1.0f, -11))};
  if (image.empty() || cuModuleLoadData(&mod, image.data()) != CUDA_SUCCESS)
    return result;
  if (cuModuleGetFunction(&f, mod, "contract") == CUDA_SUCCESS &&
      cuMemAlloc(&v, sizeof values) == CUDA_SUCCESS &&
      cuMemAlloc(&r, sizeof result) == CUDA_SUCCESS) {
    cuMemcpyHtoD(v, values, sizeof values);
    void *args[] = {&v, &r};
    if (cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) ==
        CUDA_SUCCESS)
      cuMemcpyDtoH(&result, r, sizeof result);
    cuMemFree(v);
    cuMemFree(r);
  }
  cuModuleUnload(mod);
  return result;
}

} // namespace

int main() {
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
      cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS ||
      cuCtxSetCurrent(ctx) != CUDA_SUCCESS)
    return 1;
  const float fused = std::ldexp(1.0f, -24);
#if defined(__x86_64__)
  // cuemu fuses with the CPU's FMA instructions only (a GPU always can).
  const bool can_fuse = __builtin_cpu_supports("fma");
#else
  const bool can_fuse = true;
#endif
  nvrtcResult r;
  const float by_default = run(compile({}, &r));
  const float fmad_true = run(compile({"-fmad=true"}, &r));
  const float fmad_false = run(compile({"--fmad=false"}, &r));
  const float fast = run(compile({"--use_fast_math"}, &r));
  const float fast_unfused = run(compile({"--use_fast_math", "-fmad=false"}, &r));
  compile({"-fmad=maybe"}, &r);
  check(r == NVRTC_ERROR_INVALID_OPTION, "-fmad=maybe is an invalid option");
  check(fmad_false == 0.0f, "-fmad=false rounds the product");
  check(fast_unfused == 0.0f, "--use_fast_math -fmad=false rounds it");
  if (can_fuse) {
    check(fmad_true == fused, "-fmad=true fuses");
    check(fast == fused, "--use_fast_math fuses");
  }
  std::printf("default %a, -fmad=true %a, -fmad=false %a, --use_fast_math "
              "%a, with -fmad=false %a\n",
              by_default, fmad_true, fmad_false, fast, fast_unfused);
  cuDevicePrimaryCtxRelease(dev);
  if (failures == 0)
    std::printf("PASS\n");
  return failures;
}
