/*
 * jit_source_names.cu: a kernel compiled by NVRTC is named, wherever a
 * file name shows, by the name the program gave nvrtcCreateProgram (and a
 * header by its include name), as NVRTC names them: __FILE__ (which
 * printf and assert use), assert's message, the report of a fault, and the
 * compile log. The program also compiles with the variables that point a
 * build tree's tools at the shims (CUEMU_SHIMS_DIR, CUEMU_INCLUDE_DIR,
 * CUEMU_LIB_DIR) removed: libcuemu finds them itself. Prints PASS when all
 * is well.
 */
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../check.cuh"
#include "../stderr_capture.cuh"

#define NVRTC(call) CHECK((call) == NVRTC_SUCCESS)
#define CU(call) CHECK((call) == CUDA_SUCCESS)

namespace {

const char *guard_header = R"(#pragma once
#include <cassert>
__device__ inline const char *header_file() { return __FILE__; }
__device__ inline void guard(int v) {
  assert(v >= 0); // GUARD_LINE
}
)";

const char *scale_source = R"(#include "ops/guard.cuh"
// Copies the names of this file and of the header into out.
extern "C" __global__ void names(char *out) {
  const char *mine = __FILE__, *header = header_file();
  int i = 0;
  for (; mine[i]; ++i) out[i] = mine[i];
  out[i] = '\0';
  int j = 0;
  for (; header[j]; ++j) out[64 + j] = header[j];
  out[64 + j] = '\0';
}
template <typename T> __global__ void scale(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    guard(p[i]);
    p[i] *= 2;
  }
}
extern "C" __global__ void poke(int **where) {
  **where = 1; // POKE_LINE
}
)";

// The line of `text` on which `mark` is, counting from 1.
int line_of(const char *text, const char *mark) {
  const char *at = std::strstr(text, mark);
  int line = 1;
  for (const char *c = text; at && c < at; ++c)
    line += *c == '\n';
  return line;
}

std::string log_of(nvrtcProgram prog) {
  size_t size = 0;
  NVRTC(nvrtcGetProgramLogSize(prog, &size));
  std::string log(size, '\0');
  NVRTC(nvrtcGetProgramLog(prog, &log[0]));
  log.resize(size ? size - 1 : 0);
  return log;
}

// Compiles the scale program; returns its image and the lowered name of
// scale<int>.
std::vector<char> compile_scale(std::string *scale_int) {
  const char *headers[] = {guard_header};
  const char *names[] = {"ops/guard.cuh"};
  nvrtcProgram prog;
  NVRTC(nvrtcCreateProgram(&prog, scale_source, "kernels/scale.cu", 1,
                           headers, names));
  NVRTC(nvrtcAddNameExpression(prog, "scale<int>"));
  const char *options[] = {"-arch=compute_90", "-std=c++17"};
  nvrtcResult r = nvrtcCompileProgram(prog, 2, options);
  CHECK(r == NVRTC_SUCCESS);
  if (r != NVRTC_SUCCESS)
    std::fprintf(stderr, "%s\n", log_of(prog).c_str());
  std::vector<char> image;
  size_t size = 0;
  if (r == NVRTC_SUCCESS && nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS) {
    image.resize(size);
    NVRTC(nvrtcGetCUBIN(prog, image.data()));
    const char *lowered = nullptr;
    NVRTC(nvrtcGetLoweredName(prog, "scale<int>", &lowered));
    *scale_int = lowered ? lowered : "";
  }
  NVRTC(nvrtcDestroyProgram(&prog));
  return image;
}

// Runs names(); checks the two names it reports.
void check_file_names(CUmodule mod) {
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, "names"));
  CUdeviceptr out;
  CU(cuMemAlloc(&out, 128));
  CU(cuMemsetD8(out, 'x', 128));
  void *args[] = {&out};
  CU(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr));
  char text[128];
  CU(cuMemcpyDtoH(text, out, sizeof text));
  text[63] = text[127] = '\0';
  CHECK(std::strcmp(text, "kernels/scale.cu") == 0);
  CHECK(std::strcmp(text + 64, "ops/guard.cuh") == 0);
  CU(cuMemFree(out));
}

// Doubles 200 values, one of them negative: the header's assert fails, and
// its message names the header and the line.
void check_assert(CUmodule mod, const std::string &scale_int) {
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, scale_int.c_str()));
  std::vector<int> host(200);
  for (int i = 0; i < 200; ++i)
    host[i] = i == 137 ? -5 : i;
  CUdeviceptr p;
  CU(cuMemAlloc(&p, host.size() * sizeof(int)));
  CU(cuMemcpyHtoD(p, host.data(), host.size() * sizeof(int)));
  int n = 200;
  void *args[] = {&p, &n};
  CUresult sync = CUDA_SUCCESS;
  std::string text = stderr_of([&] {
    CU(cuLaunchKernel(f, 4, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr));
    sync = cuCtxSynchronize();
  });
  CHECK(sync == CUDA_ERROR_ASSERT);
  std::string where =
      "ops/guard.cuh:" + std::to_string(line_of(guard_header, "GUARD_LINE"));
  CHECK(text.find(where + ":") != std::string::npos);
  CHECK(text.find("block: [2,0,0], thread: [9,0,0]") != std::string::npos);
  CHECK(text.find("cuemu-nvrtc") == std::string::npos);
}

// A kernel that writes through a bad pointer: the fault's report names the
// program and the line.
void check_fault(CUmodule mod) {
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, "poke"));
  CUdeviceptr where;
  CU(cuMemAlloc(&where, sizeof(int *)));
  int *bad = reinterpret_cast<int *>(64);
  CU(cuMemcpyHtoD(where, &bad, sizeof bad));
  void *args[] = {&where};
  CUresult sync = CUDA_SUCCESS;
  unsetenv("CUEMU_QUIET");
  std::string text = stderr_of([&] {
    CU(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr));
    sync = cuCtxSynchronize();
  });
  CHECK(sync == CUDA_ERROR_ILLEGAL_ADDRESS);
  std::string line =
      "kernels/scale.cu:" + std::to_string(line_of(scale_source, "POKE_LINE"));
  CHECK(text.find(" " + line) != std::string::npos);
  CHECK(text.find("cuemu-nvrtc") == std::string::npos);
}

// A compile error: the log names the program as given, folders and all.
void check_log() {
  const char *broken =
      "__global__ void k(int *p) {\n  p[0] = 1;\n  p[1] = undeclared;\n}\n";
  nvrtcProgram prog;
  NVRTC(nvrtcCreateProgram(&prog, broken, "jit/broken.cu", 0, nullptr,
                           nullptr));
  CHECK(nvrtcCompileProgram(prog, 0, nullptr) == NVRTC_ERROR_COMPILATION);
  std::string log = log_of(prog);
  CHECK(log.find("jit/broken.cu:3") != std::string::npos);
  CHECK(log.find("undeclared") != std::string::npos);
  CHECK(log.find("cuemu-nvrtc") == std::string::npos);
  NVRTC(nvrtcDestroyProgram(&prog));
}

}  // namespace

int main() {
  unsetenv("CUEMU_SHIMS_DIR");
  unsetenv("CUEMU_INCLUDE_DIR");
  unsetenv("CUEMU_LIB_DIR");
  std::string scale_int;
  std::vector<char> image = compile_scale(&scale_int);
  CHECK(!image.empty() && !scale_int.empty());
  if (image.empty() || scale_int.empty())
    return finish();
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CU(cuModuleLoadData(&mod, image.data()));
  check_file_names(mod);
  check_assert(mod, scale_int);
  // The assert made the context's error sticky: start afresh.
  CU(cuDevicePrimaryCtxReset(dev));
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CU(cuModuleLoadData(&mod, image.data()));
  check_fault(mod);
  CU(cuDevicePrimaryCtxReset(dev));
  check_log();
  return finish();
}
