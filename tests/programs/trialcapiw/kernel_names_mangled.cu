// kernel_names_mangled.cu: CUDA names a kernel by its symbol, mangled for a
// C++ kernel: cuFuncGetName of cudaGetFuncBySymbol's function and
// cudaFuncGetName give "_Z5scalePfif" for `scale(float *, int, float)`,
// which a program demangles to show "scale(float*, int, float)" (the
// kernel_t::mangled_name() of cuda-api-wrappers, whose execution_control
// example compares the demangled name); an extern "C" kernel keeps its
// plain name, and so does a kernel of an NVRTC module reached by its
// lowered name. cuemu gave the name as written ("scale").
// CUEMU_OPTIONS: -lcuda -lnvrtc
// NVCC_OPTIONS: -lcuda -lnvrtc
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstring>
#include <cxxabi.h>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

namespace shapes {
__global__ void scale(float *p, int n, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= f;
}
} // namespace shapes

extern "C" __global__ void plain_fill(int *p, int v) { p[threadIdx.x] = v; }

static const char *rtc_source =
    "template <typename T> __global__ void twice(T *p) { p[threadIdx.x] *= 2; }\n"
    "__global__ void bump(int *p) { p[threadIdx.x] += 1; }\n";

static bool demangles_to(const char *symbol, const char *wanted) {
  int status = 0;
  char *d = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
  bool same = d && std::strcmp(d, wanted) == 0;
  std::free(d);
  return same;
}

int main() {
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CUfunction f = nullptr;
  CHECK(cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&f),
                            reinterpret_cast<const void *>(shapes::scale)) ==
        cudaSuccess);
  const char *name = nullptr;
  CHECK(cuFuncGetName(&name, f) == CUDA_SUCCESS);
  CHECK(name && std::strcmp(name, "_ZN6shapes5scaleEPfif") == 0);
  CHECK(demangles_to(name, "shapes::scale(float*, int, float)"));
  const char *rname = nullptr;
  CHECK(cudaFuncGetName(&rname, reinterpret_cast<const void *>(shapes::scale)) ==
        cudaSuccess);
  CHECK(rname && std::strcmp(rname, name) == 0);
  CHECK(cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&f),
                            reinterpret_cast<const void *>(plain_fill)) ==
        cudaSuccess);
  CHECK(cuFuncGetName(&name, f) == CUDA_SUCCESS);
  CHECK(name && std::strcmp(name, "plain_fill") == 0);

  // A kernel of an NVRTC module, by its lowered name.
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, rtc_source, "names.cu", 0, nullptr,
                           nullptr) == NVRTC_SUCCESS);
  CHECK(nvrtcAddNameExpression(prog, "twice<float>") == NVRTC_SUCCESS);
  const char *opts[] = {"-arch=sm_90"};
  CHECK(nvrtcCompileProgram(prog, 1, opts) == NVRTC_SUCCESS);
  const char *lowered = nullptr;
  CHECK(nvrtcGetLoweredName(prog, "twice<float>", &lowered) == NVRTC_SUCCESS);
  size_t size = 0;
  CHECK(nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS && size > 0);
  std::vector<char> cubin(size);
  CHECK(nvrtcGetCUBIN(prog, cubin.data()) == NVRTC_SUCCESS);
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, cubin.data()) == CUDA_SUCCESS);
  CUfunction twice = nullptr, bump = nullptr;
  CHECK(cuModuleGetFunction(&twice, mod, lowered) == CUDA_SUCCESS);
  CHECK(cuFuncGetName(&name, twice) == CUDA_SUCCESS);
  CHECK(name && std::strcmp(name, lowered) == 0);
  CHECK(demangles_to(name, "void twice<float>(float*)"));
  CHECK(cuModuleGetFunction(&bump, mod, "_Z4bumpPi") == CUDA_SUCCESS);
  CHECK(cuFuncGetName(&name, bump) == CUDA_SUCCESS);
  CHECK(name && std::strcmp(name, "_Z4bumpPi") == 0);
  CHECK(cuModuleUnload(mod) == CUDA_SUCCESS);
  CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);
  std::printf("PASS\n");
  return 0;
}
