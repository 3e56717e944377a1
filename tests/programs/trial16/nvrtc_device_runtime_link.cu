// nvrtc_device_runtime_link.cu: dynamic parallelism compiled at run time,
// in the form of the NVRTC User Guide's example: NVRTC compiles with
// -rdc=true, and the driver's linker links the PTX with CUDA's device
// runtime library, cuLinkAddFile(CU_JIT_INPUT_LIBRARY, ".../libcudadevrt.a")
// (from $CUDA_PATH/lib64, else cuemu's toolkit). cuemu's device runtime is
// part of libcuemu, so the library adds nothing; cuemu once refused it
// (CUDA_ERROR_INVALID_IMAGE) and no such program ran. Each parent thread
// launches a child grid that fills its row of a table.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cstdlib>
#include <string>
#include <sys/stat.h>

#include "../check.cuh"

static const char *kSource = R"(
extern "C" __global__ void child(int *row, int parent) {
  row[threadIdx.x] = parent * 100 + threadIdx.x;
}
extern "C" __global__ void parent(int *table, int width) {
  child<<<1, width>>>(table + threadIdx.x * width, threadIdx.x);
}
)";

// The device runtime library: CUDA's, else the one beside libcuemu.
static std::string device_runtime_library() {
  std::string candidates[2];
  if (const char *cuda = std::getenv("CUDA_PATH"))
    candidates[0] = std::string(cuda) + "/lib64/libcudadevrt.a";
  if (const char *lib = std::getenv("CUEMU_LIB_DIR"))
    candidates[1] = std::string(lib) + "/cuemu-toolkit/lib64/libcudadevrt.a";
  for (const std::string &path : candidates) {
    struct stat st;
    if (!path.empty() && stat(path.c_str(), &st) == 0)
      return path;
  }
  return "/usr/local/cuda/lib64/libcudadevrt.a";
}

int main() {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, kSource, "dynamic_parallelism.cu", 0,
                           nullptr, nullptr) == NVRTC_SUCCESS);
  const char *options[] = {"-arch=compute_90", "-rdc=true"};
  CHECK(nvrtcCompileProgram(prog, 2, options) == NVRTC_SUCCESS);
  size_t ptx_size = 0;
  CHECK(nvrtcGetPTXSize(prog, &ptx_size) == NVRTC_SUCCESS);
  std::string ptx(ptx_size, '\0');
  CHECK(nvrtcGetPTX(prog, &ptx[0]) == NVRTC_SUCCESS);
  CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);

  CUdevice device;
  CUcontext context;
  CUlinkState link;
  CUmodule module;
  CUfunction parent;
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CHECK(cuDeviceGet(&device, 0) == CUDA_SUCCESS);
  CHECK(cuCtxCreate(&context, nullptr, 0, device) == CUDA_SUCCESS);
  CHECK(cuLinkCreate(0, nullptr, nullptr, &link) == CUDA_SUCCESS);
  const std::string library = device_runtime_library();
  CHECK(cuLinkAddFile(link, CU_JIT_INPUT_LIBRARY, library.c_str(), 0,
                      nullptr, nullptr) == CUDA_SUCCESS);
  CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx.c_str(), ptx_size,
                      "dynamic_parallelism.ptx", 0, nullptr,
                      nullptr) == CUDA_SUCCESS);
  // A library that is not there is still an error.
  CHECK(cuLinkAddFile(link, CU_JIT_INPUT_LIBRARY, "/nonexistent/libcudadevrt.a",
                      0, nullptr, nullptr) == CUDA_ERROR_FILE_NOT_FOUND);
  void *image = nullptr;
  size_t image_size = 0;
  CHECK(cuLinkComplete(link, &image, &image_size) == CUDA_SUCCESS);
  CHECK(cuModuleLoadData(&module, image) == CUDA_SUCCESS);
  CHECK(cuModuleGetFunction(&parent, module, "parent") == CUDA_SUCCESS);

  const int parents = 4, width = 8;
  CUdeviceptr table;
  CHECK(cuMemAlloc(&table, parents * width * sizeof(int)) == CUDA_SUCCESS);
  CHECK(cuMemsetD32(table, 0xffffffffu, parents * width) == CUDA_SUCCESS);
  int w = width;
  void *args[] = {&table, &w};
  CHECK(cuLaunchKernel(parent, 1, 1, 1, parents, 1, 1, 0, nullptr, args,
                       nullptr) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  int got[parents * width];
  CHECK(cuMemcpyDtoH(got, table, sizeof got) == CUDA_SUCCESS);
  for (int p = 0; p < parents; ++p)
    for (int t = 0; t < width; ++t)
      CHECK(got[p * width + t] == p * 100 + t);
  CHECK(cuMemFree(table) == CUDA_SUCCESS);
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
  CHECK(cuLinkDestroy(link) == CUDA_SUCCESS);
  CHECK(cuCtxDestroy(context) == CUDA_SUCCESS);
  return finish();
}
