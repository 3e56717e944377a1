// The output JIT options of cuModuleLoadDataEx and cuLinkCreate, as a JIT
// sample prints them ("CUDA Link Completed in %fms"): CU_JIT_WALL_TIME is
// overwritten with the milliseconds spent (a float written into the
// pointer-sized option slot), and CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES and
// CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES with the bytes of the log filled. A link
// state's outputs accumulate in cuLinkCreate's slots until cuLinkDestroy.
// cuemu once wrote 0 for the wall time and left the sizes as given.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const char *source = R"(
__device__ int twice(int v) { return 2 * v; }
extern "C" __global__ void doubler(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
)";

static std::vector<char> cubin(bool relocatable) {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, source, "doubler.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS);
  const char *opts[] = {"-arch=sm_90", "-rdc=true"};
  CHECK(nvrtcCompileProgram(prog, relocatable ? 2 : 1, opts) == NVRTC_SUCCESS);
  size_t size = 0;
  nvrtcGetCUBINSize(prog, &size);
  std::vector<char> image(size);
  nvrtcGetCUBIN(prog, image.data());
  nvrtcDestroyProgram(&prog);
  return image;
}

static float wall_time(void *slot) {
  float ms;
  std::memcpy(&ms, &slot, sizeof ms);
  return ms;
}

// A log's written-back size agrees with its text: 0 for an empty log, else
// its length (with or without the terminator) and within the buffer.
static bool size_agrees(const char *log, void *slot, unsigned capacity) {
  size_t n = (size_t)(uintptr_t)slot, len = std::strlen(log);
  if (!log[0])
    return n == 0;
  return (n == len || n == len + 1) && n <= capacity;
}

int main() {
  CU(cuInit(0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, 0));
  CU(cuCtxSetCurrent(ctx));
  std::vector<char> image = cubin(false);

  // ---- cuModuleLoadDataEx. ----
  char info[1024] = "unset", error[1024] = "unset";
  CUjit_option opts[] = {CU_JIT_WALL_TIME, CU_JIT_INFO_LOG_BUFFER,
                         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {(void *)(uintptr_t)12345, info, (void *)(uintptr_t)sizeof info, error,
                    (void *)(uintptr_t)sizeof error};
  CUmodule mod = nullptr;
  CU(cuModuleLoadDataEx(&mod, image.data(), 5, opts, values));
  float ms = wall_time(values[0]);
  std::printf("cuModuleLoadDataEx: %f ms\n", ms);
  CHECK(std::isfinite(ms) && ms > 0.0f && ms < 60000.0f);
  CHECK(std::strcmp(info, "unset") != 0 && std::strcmp(error, "unset") != 0);
  CHECK(error[0] == '\0' && (uintptr_t)values[4] == 0);
  CHECK(size_agrees(info, values[2], sizeof info));
  CUfunction f = nullptr;
  CU(cuModuleGetFunction(&f, mod, "doubler"));
  CU(cuModuleUnload(mod));

  // A load that fails still reports its time; the error log's size agrees
  // with what it holds.
  static const char junk[64] = "\x7f" "ELF this is no image at all";
  values[0] = nullptr;
  values[2] = (void *)(uintptr_t)sizeof info;
  values[4] = (void *)(uintptr_t)sizeof error;
  CHECK(cuModuleLoadDataEx(&mod, junk, 5, opts, values) != CUDA_SUCCESS);
  ms = wall_time(values[0]);
  CHECK(std::isfinite(ms) && ms >= 0.0f && ms < 60000.0f);
  CHECK(size_agrees(error, values[4], sizeof error));
  CHECK(size_agrees(info, values[2], sizeof info));

  // ---- cuLink*: the wall time accumulates in cuLinkCreate's slot. ----
  std::vector<char> rdc = cubin(true);
  CUjit_option link_opts[] = {CU_JIT_WALL_TIME, CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  char link_error[1024] = "unset";
  void *link_values[] = {nullptr, link_error, (void *)(uintptr_t)sizeof link_error};
  CUlinkState link;
  CU(cuLinkCreate(3, link_opts, link_values, &link));
  CU(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, rdc.data(), rdc.size(), "doubler", 0, nullptr,
                   nullptr));
  float after_add = wall_time(link_values[0]);
  void *linked = nullptr;
  size_t linked_size = 0;
  CU(cuLinkComplete(link, &linked, &linked_size));
  float after_complete = wall_time(link_values[0]);
  std::printf("cuLink*: %f ms after cuLinkAddData, %f ms after cuLinkComplete\n", after_add,
              after_complete);
  CHECK(std::isfinite(after_complete) && after_complete > 0.0f && after_complete < 60000.0f);
  CHECK(after_complete >= after_add);
  CHECK(link_error[0] == '\0' && (uintptr_t)link_values[2] == 0);
  CU(cuModuleLoadData(&mod, linked));
  CU(cuModuleGetFunction(&f, mod, "doubler"));
  CU(cuLinkDestroy(link));

  int host[32];
  for (int i = 0; i < 32; ++i)
    host[i] = i;
  CUdeviceptr d;
  CU(cuMemAlloc(&d, sizeof host));
  CU(cuMemcpyHtoD(d, host, sizeof host));
  void *args[] = {&d};
  CU(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
  CU(cuMemcpyDtoH(host, d, sizeof host));
  for (int i = 0; i < 32; ++i)
    CHECK(host[i] == 2 * i);
  CU(cuMemFree(d));
  CU(cuModuleUnload(mod));
  CU(cuDevicePrimaryCtxRelease(0));
  return finish();
}
