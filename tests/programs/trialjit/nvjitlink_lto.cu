// nvjitlink_lto.cu: link-time optimisation at run time, as NVIDIA's JIT
// LTO samples do it: NVRTC compiles a library of device functions and a
// kernel that calls them as separate programs with -dlto, gets their LTO
// IR (nvrtcGetLTOIR), nvJitLink links the two with -lto into a cubin, and
// the driver loads and launches it. cuemu had neither nvrtcGetLTOIR nor
// nvJitLink.h, and such programs did not compile.
// CUEMU_OPTIONS: -lnvrtc -lnvJitLink -lcuda
// NVCC_OPTIONS: -lnvrtc -lnvJitLink -lcuda
#include <cuda.h>
#include <nvJitLink.h>
#include <nvrtc.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../check.cuh"
#include "primary_context.cuh"

static const char *kLibrary = R"(
__device__ float scale = 2.0f;
__device__ float blend(float a, float b) { return scale * a + b; }
)";

static const char *kKernel = R"(
extern __device__ float blend(float a, float b);
extern __device__ float scale;
extern "C" __global__ void combine(const float *a, const float *b, float *out,
                                   int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = blend(a[i], b[i]) + scale;
}
)";

// The LTO IR of one program compiled with `option` (empty on failure).
static std::vector<char> lto_ir(const char *src, const char *name,
                                const char *option) {
  nvrtcProgram prog;
  std::vector<char> ir;
  if (nvrtcCreateProgram(&prog, src, name, 0, nullptr, nullptr) !=
      NVRTC_SUCCESS)
    return ir;
  const char *opts[] = {"-arch=sm_90", option};
  if (nvrtcCompileProgram(prog, 2, opts) == NVRTC_SUCCESS) {
    size_t size = 0;
    if (nvrtcGetLTOIRSize(prog, &size) == NVRTC_SUCCESS && size > 0) {
      ir.resize(size);
      if (nvrtcGetLTOIR(prog, ir.data()) != NVRTC_SUCCESS)
        ir.clear();
    }
  }
  nvrtcDestroyProgram(&prog);
  return ir;
}

static std::string error_log(nvJitLinkHandle h) {
  size_t size = 0;
  std::string log;
  if (nvJitLinkGetErrorLogSize(h, &size) == NVJITLINK_SUCCESS && size > 0) {
    log.resize(size);
    nvJitLinkGetErrorLog(h, &log[0]);
  }
  return log;
}

int main() {
  unsigned major = 0, minor = 0;
  CHECK(nvJitLinkVersion(&major, &minor) == NVJITLINK_SUCCESS);
  CHECK(major >= 12);

  std::vector<char> lib = lto_ir(kLibrary, "library.cu", "-dlto");
  std::vector<char> ker = lto_ir(kKernel, "kernel.cu", "-dlto");
  CHECK(!lib.empty() && !ker.empty());
  // Without -dlto there is no LTO IR.
  CHECK(lto_ir(kLibrary, "library.cu", "-rdc=true").empty());

  // -arch is required; LTO IR needs -lto.
  nvJitLinkHandle h = nullptr;
  const char *no_arch[] = {"-lto"};
  CHECK(nvJitLinkCreate(&h, 1, no_arch) == NVJITLINK_ERROR_MISSING_ARCH);
  const char *no_lto[] = {"-arch=sm_90"};
  CHECK(nvJitLinkCreate(&h, 1, no_lto) == NVJITLINK_SUCCESS);
  CHECK(nvJitLinkAddData(h, NVJITLINK_INPUT_LTOIR, lib.data(), lib.size(),
                         "library") == NVJITLINK_ERROR_LTO_NOT_ENABLED);
  CHECK(nvJitLinkDestroy(&h) == NVJITLINK_SUCCESS && h == nullptr);
  const char *bad[] = {"-arch=sm_90", "-no-such-option"};
  CHECK(nvJitLinkCreate(&h, 2, bad) == NVJITLINK_ERROR_UNRECOGNIZED_OPTION);

  // The kernel alone leaves blend and scale undefined.
  const char *opts[] = {"-arch=sm_90", "-lto", "-O3"};
  CHECK(nvJitLinkCreate(&h, 3, opts) == NVJITLINK_SUCCESS);
  CHECK(nvJitLinkAddData(h, NVJITLINK_INPUT_LTOIR, ker.data(), ker.size(),
                         "kernel") == NVJITLINK_SUCCESS);
  CHECK(nvJitLinkComplete(h) != NVJITLINK_SUCCESS);
  CHECK(error_log(h).size() > 1);
  nvJitLinkDestroy(&h);

  // What is not a module is refused, the log naming the call and why.
  CHECK(nvJitLinkCreate(&h, 3, opts) == NVJITLINK_SUCCESS);
  const char junk[] = "junk that is no module";
  CHECK(nvJitLinkAddData(h, NVJITLINK_INPUT_CUBIN, junk, sizeof junk,
                         "junk") == NVJITLINK_ERROR_INVALID_INPUT);
  CHECK(error_log(h).find("nvJitLinkAddData: not a cuemu module: junk") !=
        std::string::npos);
  CHECK(nvJitLinkAddFile(h, NVJITLINK_INPUT_ANY, "/nonexistent/x.cubin") ==
        NVJITLINK_ERROR_INVALID_INPUT);
  nvJitLinkDestroy(&h);

  // Both, with the device runtime library as NVIDIA's samples add it (the
  // emulator once refused it here, though cuLinkAddFile took it): a cubin
  // that the driver loads.
  const char *cuda = std::getenv("CUDA_PATH");
  std::string devrt = std::string(cuda ? cuda : "/usr/local/cuda") +
                      "/lib64/libcudadevrt.a";
  CHECK(nvJitLinkCreate(&h, 3, opts) == NVJITLINK_SUCCESS);
  nvJitLinkResult added =
      nvJitLinkAddFile(h, NVJITLINK_INPUT_LIBRARY, devrt.c_str());
  if (added != NVJITLINK_SUCCESS)
    std::fprintf(stderr, "%s\n", error_log(h).c_str());
  CHECK(added == NVJITLINK_SUCCESS);
  CHECK(nvJitLinkAddData(h, NVJITLINK_INPUT_LTOIR, lib.data(), lib.size(),
                         "library") == NVJITLINK_SUCCESS);
  CHECK(nvJitLinkAddData(h, NVJITLINK_INPUT_LTOIR, ker.data(), ker.size(),
                         "kernel") == NVJITLINK_SUCCESS);
  CHECK(nvJitLinkComplete(h) == NVJITLINK_SUCCESS);
  size_t size = 0;
  CHECK(nvJitLinkGetLinkedCubinSize(h, &size) == NVJITLINK_SUCCESS);
  std::vector<char> cubin(size);
  CHECK(size > 0 &&
        nvJitLinkGetLinkedCubin(h, cubin.data()) == NVJITLINK_SUCCESS);
  CHECK(nvJitLinkDestroy(&h) == NVJITLINK_SUCCESS);
  if (size == 0)
    return finish();

  CUdevice dev = use_primary_context();
  CUmodule mod;
  CUfunction fn;
  CHECK(cuModuleLoadData(&mod, cubin.data()) == CUDA_SUCCESS);
  CHECK(cuModuleGetFunction(&fn, mod, "combine") == CUDA_SUCCESS);
  const int n = 200;
  std::vector<float> a(n), b(n), out(n, 0.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = 0.5f * i;
    b[i] = 3.0f - i;
  }
  CUdeviceptr da, db, dout;
  CHECK(cuMemAlloc(&da, n * sizeof(float)) == CUDA_SUCCESS);
  CHECK(cuMemAlloc(&db, n * sizeof(float)) == CUDA_SUCCESS);
  CHECK(cuMemAlloc(&dout, n * sizeof(float)) == CUDA_SUCCESS);
  CHECK(cuMemcpyHtoD(da, a.data(), n * sizeof(float)) == CUDA_SUCCESS);
  CHECK(cuMemcpyHtoD(db, b.data(), n * sizeof(float)) == CUDA_SUCCESS);
  int count = n;
  void *args[] = {&da, &db, &dout, &count};
  CHECK(cuLaunchKernel(fn, 2, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr) ==
        CUDA_SUCCESS);
  CHECK(cuMemcpyDtoH(out.data(), dout, n * sizeof(float)) == CUDA_SUCCESS);
  for (int i = 0; i < n; ++i)
    CHECK(out[i] == 2.0f * a[i] + b[i] + 2.0f);
  cuMemFree(da);
  cuMemFree(db);
  cuMemFree(dout);
  cuModuleUnload(mod);
  cuDevicePrimaryCtxRelease(dev);
  return finish();
}
