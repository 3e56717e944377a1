/*
 * jit_programs.cu: NVRTC programs as run-time-compiling programs write
 * them. A kernel compiled by NVRTC is named, wherever a
 * file name shows, by the name the program gave nvrtcCreateProgram (and a
 * header by its include name), as NVRTC names them: __FILE__ (which
 * printf and assert use), assert's message, the report of a fault, and the
 * compile log. The program also compiles with the variables that point a
 * build tree's tools at the shims (CUEMU_SHIMS_DIR, CUEMU_INCLUDE_DIR,
 * CUEMU_LIB_DIR) removed: libcuemu finds them itself. A program that
 * copies the toolkit's cooperative groups headers beside itself and puts
 * them on the include path (as the CUDA samples' matrixMul_nvrtc does)
 * compiles and runs, and a quoted include is found beside the file that
 * the program's name names (simpleTemplates_nvrtc). The PTX that NVRTC
 * gives and that `cuemu-nvcc -ptx` writes is text, and is loaded as PTX
 * text is (ptxjit). Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cstdlib>
#include <cstring>
#include <unistd.h>
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
// scale<int>, which the name expression "scale<SCALE_T>" names too: NVRTC
// evaluates name expressions where the program's macros (here -D's) are
// defined.
std::vector<char> compile_scale(std::string *scale_int) {
  const char *headers[] = {guard_header};
  const char *names[] = {"ops/guard.cuh"};
  nvrtcProgram prog;
  NVRTC(nvrtcCreateProgram(&prog, scale_source, "kernels/scale.cu", 1,
                           headers, names));
  NVRTC(nvrtcAddNameExpression(prog, "scale<int>"));
  NVRTC(nvrtcAddNameExpression(prog, "scale<SCALE_T>"));
  const char *options[] = {"-arch=sm_90", "-std=c++17", "-DSCALE_T=int"};
  nvrtcResult r = nvrtcCompileProgram(prog, 3, options);
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
    const char *by_macro = nullptr;
    NVRTC(nvrtcGetLoweredName(prog, "scale<SCALE_T>", &by_macro));
    CHECK(by_macro && *scale_int == by_macro);
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
  CHECK(log.find("jit/broken.cu(3): error: ") != std::string::npos);
  CHECK(log.find("undeclared") != std::string::npos);
  CHECK(log.find("cuemu-nvrtc") == std::string::npos);
  NVRTC(nvrtcDestroyProgram(&prog));
}

// A block reduction with cooperative groups, compiled with a copy of the
// toolkit's cooperative groups headers (`toolkit`: its include folder) on
// the include path, from a program named by the file it would be read
// from, whose folder holds a header it includes; each block sums its 128
// values.
void check_toolkit_header_copies(const std::string &toolkit) {
  char dir[] = "/tmp/jit_programs.XXXXXX";
  CHECK(mkdtemp(dir) != nullptr);
  std::string copy = "cp -rL '" + toolkit + "/cooperative_groups.h' '" +
                     toolkit + "/cooperative_groups' '" + dir + "/'";
  CHECK(!toolkit.empty() && std::system(copy.c_str()) == 0);
  // A header beside the file the program is read from, included with
  // quotes and given neither to nvrtcCreateProgram nor by --include-path.
  std::string sizes = std::string(dir) + "/block_sizes.cuh";
  FILE *header = std::fopen(sizes.c_str(), "w");
  CHECK(header != nullptr);
  if (header) {
    std::fputs("#define PER_BLOCK 128\n", header);
    std::fclose(header);
  }
  const char *source = R"(#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "block_sizes.cuh"
namespace cg = cooperative_groups;
extern "C" __global__ void block_sums(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int partial[4];
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int v = cg::reduce(warp, in[blockIdx.x * PER_BLOCK + threadIdx.x],
                     cg::plus<int>());
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = v;
  block.sync();
  if (block.thread_rank() == 0)
    out[blockIdx.x] = partial[0] + partial[1] + partial[2] + partial[3];
}
)";
  nvrtcProgram prog;
  std::string name = std::string(dir) + "/block_sums.cu";
  NVRTC(nvrtcCreateProgram(&prog, source, name.c_str(), 0, nullptr,
                           nullptr));
  std::string include = std::string("--include-path=") + dir;
  const char *options[] = {"--gpu-architecture=sm_90", include.c_str()};
  nvrtcResult r = nvrtcCompileProgram(prog, 2, options);
  CHECK(r == NVRTC_SUCCESS);
  if (r != NVRTC_SUCCESS)
    std::fprintf(stderr, "%s\n", log_of(prog).c_str());
  // NVRTC's PTX is text: one NUL, at its end, which its size counts; the
  // program keeps it as a C string and loads that.
  size_t size = 0;
  std::string ptx;
  if (r == NVRTC_SUCCESS && nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS) {
    std::vector<char> bytes(size);
    NVRTC(nvrtcGetPTX(prog, bytes.data()));
    CHECK(size > 1 && bytes[size - 1] == '\0' &&
          std::strlen(bytes.data()) + 1 == size);
    ptx = bytes.data();
  }
  NVRTC(nvrtcDestroyProgram(&prog));
  std::system((std::string("rm -rf '") + dir + "'").c_str());
  if (ptx.empty())
    return;
  CUmodule mod;
  CU(cuModuleLoadData(&mod, ptx.c_str()));
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, "block_sums"));
  std::vector<int> in(3 * 128), out(3);
  for (int i = 0; i < 3 * 128; ++i)
    in[i] = (i * 7) % 23 - 5;
  CUdeviceptr din, dout;
  CU(cuMemAlloc(&din, in.size() * sizeof(int)));
  CU(cuMemAlloc(&dout, out.size() * sizeof(int)));
  CU(cuMemcpyHtoD(din, in.data(), in.size() * sizeof(int)));
  void *args[] = {&din, &dout};
  CU(cuLaunchKernel(f, 3, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
  CU(cuMemcpyDtoH(out.data(), dout, out.size() * sizeof(int)));
  for (int b = 0; b < 3; ++b) {
    int sum = 0;
    for (int i = 0; i < 128; ++i)
      sum += in[b * 128 + i];
    CHECK(out[b] == sum);
  }
  CU(cuMemFree(din));
  CU(cuMemFree(dout));
  CU(cuModuleUnload(mod));
}

// `cuemu-nvcc -ptx` writes text, as PTX is: a program that reads the file
// into a std::string from a char pointer and gives cuLinkAddData
// strlen() + 1 bytes (the CUDA samples' ptxjit) links and runs it, and so
// does one that gives the text to cuModuleLoadData. `nvcc` is cuemu-nvcc
// (skipped when the program does not run in cuemu's test environment).
void check_ptx_text(const char *nvcc) {
  char dir[] = "/tmp/jit_programs_ptx.XXXXXX";
  CHECK(mkdtemp(dir) != nullptr);
  std::string cu = std::string(dir) + "/iota.cu";
  std::string ptx = std::string(dir) + "/iota.ptx";
  FILE *f = std::fopen(cu.c_str(), "w");
  CHECK(f != nullptr);
  if (!f)
    return;
  std::fputs("extern \"C\" __global__ void iota(int *p) {\n"
             "  p[threadIdx.x] = 3 * threadIdx.x + 1;\n}\n",
             f);
  std::fclose(f);
  std::string cmd = std::string("'") + nvcc + "' -ptx -o '" + ptx + "' '" +
                    cu + "'";
  CHECK(std::system(cmd.c_str()) == 0);
  std::string text;
  if (FILE *in = std::fopen(ptx.c_str(), "rb")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, in)) > 0)
      text.append(buf, n);
    std::fclose(in);
  }
  std::system((std::string("rm -rf '") + dir + "'").c_str());
  CHECK(!text.empty() && text.find('\0') == std::string::npos);
  std::string as_c_string = text.c_str();
  CUlinkState link;
  CU(cuLinkCreate(0, nullptr, nullptr, &link));
  CU(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)as_c_string.c_str(),
                   std::strlen(as_c_string.c_str()) + 1, "iota.ptx", 0,
                   nullptr, nullptr));
  void *linked = nullptr;
  size_t linked_size = 0;
  CU(cuLinkComplete(link, &linked, &linked_size));
  CUmodule mods[2] = {};
  CU(cuModuleLoadData(&mods[0], linked));
  CU(cuLinkDestroy(link));
  CU(cuModuleLoadData(&mods[1], as_c_string.c_str()));
  for (CUmodule mod : mods) {
    CUfunction f;
    CU(cuModuleGetFunction(&f, mod, "iota"));
    CUdeviceptr out;
    CU(cuMemAlloc(&out, 32 * sizeof(int)));
    void *args[] = {&out};
    CU(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
    int host[32] = {};
    CU(cuMemcpyDtoH(host, out, sizeof host));
    for (int i = 0; i < 32; ++i)
      CHECK(host[i] == 3 * i + 1);
    CU(cuMemFree(out));
    CU(cuModuleUnload(mod));
  }
}

}  // namespace

int main() {
  // The folder of the toolkit's headers: cuemu's shims (nvcc's, when this
  // program is built by nvcc for a GPU, is CUDA_PATH's).
  const char *shims = getenv("CUEMU_SHIMS_DIR");
  const char *cuda_path = getenv("CUDA_PATH");
  const char *builddir = getenv("CUEMU_BUILDDIR");
  std::string nvcc = builddir ? std::string(builddir) + "/cuemu-nvcc" : "";
  std::string toolkit = shims ? shims
                        : cuda_path ? std::string(cuda_path) + "/include"
                                    : "";
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
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  check_toolkit_header_copies(toolkit);
  if (!nvcc.empty())
    check_ptx_text(nvcc.c_str());
  check_log();
  return finish();
}
