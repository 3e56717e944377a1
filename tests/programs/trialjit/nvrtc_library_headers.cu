// nvrtc_library_headers.cu: NVRTC programs compiled the way a JIT library
// (jitify) compiles them. NVRTC has no C or C++ library, so the library
// passes headers of its own under the standard names (stdint.h, limits.h,
// time.h, ...) with every program, pre-includes a header that builds on
// CUDA's declarations (--pre-include), and, when a compile fails, reads
// the name of a missing header from NVRTC's log ("cannot open source file"),
// finds the header itself and compiles again with it. cuemu once let such
// a stdint.h replace the host's under its own CUDA headers, included the
// pre-include before them, and logged a missing header in GCC's words.
// The options that NVIDIA's cuda.core (ProgramOptions) writes, each one
// that CUDA 13's nvrtc.h documents, compile too; cuemu refused several.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "../check.cuh"
#include "primary_context.cuh"

// Headers a JIT library keeps for NVRTC, standing in for the C library.
static const char *kStdint =
    "#pragma once\n"
    "namespace jit_stdint { typedef signed char int8_t; typedef int int32_t;"
    " typedef unsigned int uint32_t; }\n"
    "namespace std { using namespace jit_stdint; }\n"
    "using namespace jit_stdint;\n";
static const char *kTime =
    "#pragma once\n"
    "#define CLOCKS_PER_SEC 1000000\n"
    "#define cudaDeviceSynchronize() cudaSuccess\n";
static const char *kPre =
    "#pragma once\n"
    "#define cudaDeviceSynchronize() cudaSuccess\n"
    "#ifdef __host__\n#undef __host__\n#endif\n#define __host__\n"
    "__device__ inline int pre_scale(int x) { return 7 * x; }\n";

// The program includes a header that the library finds only when NVRTC's
// log names it, and one of its own by both forms of #include.
static const char *kSource =
    "#include <stdint.h>\n"
    "#include \"lib/ops.cuh\"\n"
    "#include <lib/ops.cuh>\n"
    "#include \"found/later.cuh\"\n"
    "extern \"C\" __global__ void apply(int32_t *out, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) out[i] = later(pre_scale(twice(i)));\n"
    "}\n";
static const char *kOps =
    "#pragma once\n__device__ inline int twice(int x) { return 2 * x; }\n";
static const char *kLater =
    "#pragma once\n__device__ inline int later(int x) { return x + 5; }\n";

// The library's loop: compile; when the log names a missing header, add
// it and compile again. Returns the program, compiled, or nullptr.
static nvrtcProgram compile(std::map<std::string, std::string> &headers,
                            int *rounds, std::string *first_log) {
  const char *opts[] = {"--pre-include=jit_pre.h", "-std=c++17", "-arch=sm_90"};
  for (*rounds = 1; *rounds <= 3; ++*rounds) {
    std::vector<const char *> names, texts;
    for (auto &h : headers) {
      names.push_back(h.first.c_str());
      texts.push_back(h.second.c_str());
    }
    nvrtcProgram prog;
    if (nvrtcCreateProgram(&prog, kSource, "jit_prog.cu", (int)names.size(),
                           texts.data(), names.data()) != NVRTC_SUCCESS)
      return nullptr;
    nvrtcResult r = nvrtcCompileProgram(prog, 3, opts);
    size_t size = 0;
    nvrtcGetProgramLogSize(prog, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(prog, &log[0]);
    if (r == NVRTC_SUCCESS)
      return prog;
    if (first_log->empty())
      *first_log = log;
    nvrtcDestroyProgram(&prog);
    const std::string pattern = "cannot open source file \"";
    size_t at = log.find(pattern);
    if (r != NVRTC_ERROR_COMPILATION || at == std::string::npos) {
      std::fprintf(stderr, "%s\n", log.c_str());
      return nullptr;
    }
    at += pattern.size();
    std::string name = log.substr(at, log.find('"', at) - at);
    if (name != "found/later.cuh")
      return nullptr;
    headers[name] = kLater;
  }
  return nullptr;
}

// Options of CUDA 13's NVRTC as wrappers spell them: each compiles; an
// option NVRTC does not have is NVRTC_ERROR_INVALID_OPTION.
static void wrapper_options() {
  const char *ok[] = {"--no-cache", "--fdevice-time-trace=trace.json",
                      "--brief-diagnostics=true", "--device-stack-protector",
                      "--device-stack-protector=false", "--device-float128",
                      "--gen-opt-lto", "--device-w", "--minimal",
                      "--fdevice-syntax-only", "--Ofast-compile=min"};
  const char *src = "__global__ void k(float *x) { x[threadIdx.x] += 1; }\n";
  for (const char *opt : ok) {
    nvrtcProgram prog;
    CHECK(nvrtcCreateProgram(&prog, src, "opt.cu", 0, nullptr, nullptr) ==
          NVRTC_SUCCESS);
    nvrtcResult r = nvrtcCompileProgram(prog, 1, &opt);
    if (r != NVRTC_SUCCESS)
      std::fprintf(stderr, "option %s: %s\n", opt, nvrtcGetErrorString(r));
    CHECK(r == NVRTC_SUCCESS);
    nvrtcDestroyProgram(&prog);
  }
  nvrtcProgram prog;
  const char *bad = "--no-such-option";
  CHECK(nvrtcCreateProgram(&prog, src, "opt.cu", 0, nullptr, nullptr) ==
        NVRTC_SUCCESS);
  CHECK(nvrtcCompileProgram(prog, 1, &bad) == NVRTC_ERROR_INVALID_OPTION);
  nvrtcDestroyProgram(&prog);
}

int main() {
  wrapper_options();
  std::map<std::string, std::string> headers = {
      {"stdint.h", kStdint}, {"time.h", kTime}, {"jit_pre.h", kPre},
      {"lib/ops.cuh", kOps}};
  int rounds = 0;
  std::string first_log;
  nvrtcProgram prog = compile(headers, &rounds, &first_log);
  CHECK(prog != nullptr);
  CHECK(rounds == 2);
  // NVRTC's words, with the file and line of the #include.
  CHECK(first_log.find("jit_prog.cu(4): catastrophic error: cannot open "
                       "source file \"found/later.cuh\"") !=
        std::string::npos);
  if (!prog)
    return finish();

  size_t size = 0;
  CHECK(nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS);
  std::vector<char> image(size);
  CHECK(nvrtcGetCUBIN(prog, image.data()) == NVRTC_SUCCESS);
  nvrtcDestroyProgram(&prog);

  CUdevice dev = use_primary_context();
  CUmodule mod;
  CUfunction fn;
  CHECK(cuModuleLoadData(&mod, image.data()) == CUDA_SUCCESS);
  CHECK(cuModuleGetFunction(&fn, mod, "apply") == CUDA_SUCCESS);
  const int n = 100;
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, n * sizeof(int)) == CUDA_SUCCESS);
  int count = n;
  void *args[] = {&out, &count};
  CHECK(cuLaunchKernel(fn, 2, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr) ==
        CUDA_SUCCESS);
  int host[n];
  CHECK(cuMemcpyDtoH(host, out, sizeof host) == CUDA_SUCCESS);
  for (int i = 0; i < n; ++i)
    CHECK(host[i] == 14 * i + 5);
  cuMemFree(out);
  cuModuleUnload(mod);
  cuDevicePrimaryCtxRelease(dev);
  return finish();
}
