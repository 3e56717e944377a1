// The linker and libraries: two programs JIT-compiled with NVRTC as
// relocatable device code, a kernel in one calling a device function (and
// reading a variable) defined in the other, linked with cuLink* (one input
// as CUBIN in memory, one as PTX from a file) into an image that
// cuModuleLoadData loads; an unresolved reference and a newer GPU's PTX refused;
// the image as a library (cuLibrary*, cuKernel*) and through the runtime
// (cudaLibraryLoadData, cudaLibraryGetKernel, cudaLaunchKernel with a
// cudaKernel_t, a kernel node of it).
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const char *kernels_src = R"(
extern __device__ int scale(int v);
extern __device__ int offset;
extern "C" __global__ void apply(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = scale(p[i]) + offset;
}
)";

static const char *math_src = R"(
__device__ int factor = 3;
__device__ int offset = 1;
__device__ int scale(int v) { return v * factor; }
extern "C" __global__ void bump(int *p) { p[threadIdx.x] += 100; }
)";

static std::vector<char> compile(const char *src, const char *name,
                                 bool cubin) {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, src, name, 0, nullptr, nullptr) ==
        NVRTC_SUCCESS);
  const char *opts[] = {"-rdc=true", "-arch=sm_90"};
  CHECK(nvrtcCompileProgram(prog, 2, opts) == NVRTC_SUCCESS);
  size_t size = 0;
  std::vector<char> image;
  if (cubin) {
    nvrtcGetCUBINSize(prog, &size);
    image.resize(size);
    nvrtcGetCUBIN(prog, image.data());
  } else {
    nvrtcGetPTXSize(prog, &size);
    image.resize(size);
    nvrtcGetPTX(prog, image.data());
  }
  nvrtcDestroyProgram(&prog);
  return image;
}

static bool run_apply(CUfunction f, int want_factor, int want_offset) {
  const int n = 64;
  int host[n];
  for (int i = 0; i < n; ++i)
    host[i] = i;
  CUdeviceptr d;
  CU(cuMemAlloc(&d, sizeof host));
  CU(cuMemcpyHtoD(d, host, sizeof host));
  int count = n;
  void *args[] = {&d, &count};
  CU(cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(host, d, sizeof host));
  CU(cuMemFree(d));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && host[i] == i * want_factor + want_offset;
  if (!ok)
    std::fprintf(stderr, "apply: p[5] = %d, expected %d\n", host[5],
                 5 * want_factor + want_offset);
  return ok;
}

int main() {
  CU(cuInit(0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, 0));
  CU(cuCtxSetCurrent(ctx));
  std::vector<char> kernels = compile(kernels_src, "kernels.cu", true);
  std::vector<char> math = compile(math_src, "math.cu", false);
  char path[] = "/tmp/cuemu-link-math-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0 && write(fd, math.data(), math.size()) ==
                       (ssize_t)math.size());
  close(fd);

  // ---- Linked: a CUBIN in memory and a PTX file. ----
  char error_log[4096] = "unset", info_log[1024] = "unset";
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_INFO_LOG_BUFFER,
                         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {error_log, (void *)sizeof error_log, info_log,
                    (void *)sizeof info_log};
  CUlinkState link;
  CU(cuLinkCreate(4, opts, values, &link));
  CU(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, kernels.data(), kernels.size(),
                   "kernels.cubin", 0, nullptr, nullptr));
  CU(cuLinkAddFile(link, CU_JIT_INPUT_PTX, path, 0, nullptr, nullptr));
  void *image = nullptr;
  size_t image_size = 0;
  CU(cuLinkComplete(link, &image, &image_size));
  CHECK(image != nullptr && image_size > 0 && error_log[0] == '\0');
  CUmodule mod;
  CU(cuModuleLoadData(&mod, image));
  CU(cuLinkDestroy(link)); // the module keeps its own copy
  CUfunction apply, bump;
  CU(cuModuleGetFunction(&apply, mod, "apply"));
  CU(cuModuleGetFunction(&bump, mod, "bump")); // both inputs' kernels
  CHECK(run_apply(apply, 3, 1));
  // The other input's variables: factor 5 now.
  CUdeviceptr factor;
  size_t bytes = 0;
  CU(cuModuleGetGlobal(&factor, &bytes, mod, "factor"));
  CHECK(bytes == sizeof(int));
  int five = 5;
  CU(cuMemcpyHtoD(factor, &five, sizeof five));
  CHECK(run_apply(apply, 5, 1));
  CU(cuModuleUnload(mod));

  // ---- Errors: an unresolved reference, a PTX text for a newer GPU. ----
  // The log sizes are in and out: the first link wrote back the bytes it
  // filled (none), so they are set again.
  values[1] = (void *)sizeof error_log;
  values[3] = (void *)sizeof info_log;
  CU(cuLinkCreate(4, opts, values, &link));
  CU(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, kernels.data(), kernels.size(),
                   "kernels.cubin", 0, nullptr, nullptr));
  void *none = nullptr;
  CHECK(cuLinkComplete(link, &none, &image_size) ==
        CUDA_ERROR_INVALID_IMAGE);
  CHECK(std::strstr(error_log, "scale") != nullptr);
  // NVIDIA PTX is JIT-compiled; one for a newer device than sm_90 is not.
  static char ptx_text[] = "//\n.version 8.0\n.target sm_100\n";
  CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, ptx_text, sizeof ptx_text,
                      "real.ptx", 0, nullptr, nullptr) ==
        CUDA_ERROR_INVALID_PTX);
  CU(cuLinkDestroy(link));

  // ---- The linked image as a library. ----
  CU(cuLinkCreate(0, nullptr, nullptr, &link));
  CU(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, kernels.data(), kernels.size(),
                   nullptr, 0, nullptr, nullptr));
  CU(cuLinkAddData(link, CU_JIT_INPUT_PTX, math.data(), math.size(), nullptr,
                   0, nullptr, nullptr));
  CU(cuLinkComplete(link, &image, &image_size));
  CUlibrary lib;
  CU(cuLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr,
                       0));
  CUkernel kapply;
  CU(cuLibraryGetKernel(&kapply, lib, "apply"));
  CHECK(cuLibraryGetKernel(&kapply, lib, "missing") == CUDA_ERROR_NOT_FOUND);
  CU(cuLibraryGetKernel(&kapply, lib, "apply"));
  unsigned count = 0;
  CU(cuLibraryGetKernelCount(&count, lib));
  CHECK(count == 2);
  CUkernel all[2];
  CU(cuLibraryEnumerateKernels(all, 2, lib));
  CHECK(all[0] == kapply || all[1] == kapply);
  CUfunction f;
  CU(cuKernelGetFunction(&f, kapply));
  int max_threads = 0;
  CU(cuKernelGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                          kapply, 0));
  CHECK(max_threads >= 256);
  CUlibrary owner;
  CU(cuKernelGetLibrary(&owner, kapply));
  CHECK(owner == lib);
  CUmodule lmod;
  CU(cuLibraryGetModule(&lmod, lib));
  CUfunction same;
  CU(cuModuleGetFunction(&same, lmod, "apply"));
  CHECK(same == f);
  CHECK(run_apply(f, 3, 1)); // a fresh load: factor is 3 again
  CUdeviceptr offset;
  CU(cuLibraryGetGlobal(&offset, &bytes, lib, "offset"));
  int seven = 7;
  CU(cuMemcpyHtoD(offset, &seven, sizeof seven));
  CHECK(run_apply(f, 3, 7));
  void *fn = nullptr;
  CU(cuLibraryGetUnifiedFunction(&fn, lib, "_Z5scalei"));
  CHECK(fn != nullptr);
  CU(cuLibraryUnload(lib));
  CHECK(cuLibraryUnload(lib) == CUDA_ERROR_INVALID_HANDLE);

  // ---- The runtime's libraries: cudaLaunchKernel of a cudaKernel_t, on
  // an image linked again (its own variables: offset is 1). ----
  CU(cuLinkDestroy(link));
  CU(cuLinkCreate(0, nullptr, nullptr, &link));
  CU(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, kernels.data(), kernels.size(),
                   nullptr, 0, nullptr, nullptr));
  CU(cuLinkAddData(link, CU_JIT_INPUT_PTX, math.data(), math.size(), nullptr,
                   0, nullptr, nullptr));
  CU(cuLinkComplete(link, &image, &image_size));
  cudaLibrary_t rlib;
  CHECK(cudaLibraryLoadData(&rlib, image, nullptr, nullptr, 0, nullptr,
                            nullptr, 0) == cudaSuccess);
  cudaKernel_t k;
  CHECK(cudaLibraryGetKernel(&k, rlib, "apply") == cudaSuccess);
  CHECK(cudaLibraryGetKernel(&k, rlib, "nope") == cudaErrorSymbolNotFound);
  cudaGetLastError();
  CHECK(cudaLibraryGetKernel(&k, rlib, "apply") == cudaSuccess);
  int *dev;
  const int n = 64;
  cudaMalloc(&dev, n * sizeof(int));
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = i;
  cudaMemcpy(dev, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int cnt = n;
  void *args[] = {&dev, &cnt};
  CHECK(cudaLaunchKernel((const void *)k, dim3(2), dim3(32), args, 0, 0) ==
        cudaSuccess);
  // ... and as a kernel node: applied twice in all.
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaKernelNodeParams kp = {};
  kp.func = (void *)k;
  kp.gridDim = dim3(2);
  kp.blockDim = dim3(32);
  kp.kernelParams = args;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddKernelNode(&node, g, nullptr, 0, &kp) == cudaSuccess);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(x, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(host.data(), dev, n * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && host[i] == (i * 3 + 1) * 3 + 1;
  CHECK(ok);
  void *rfactor = nullptr;
  size_t rbytes = 0;
  CHECK(cudaLibraryGetGlobal(&rfactor, &rbytes, rlib, "factor") ==
            cudaSuccess &&
        rbytes == sizeof(int));
  int hf = 0;
  cudaMemcpy(&hf, rfactor, sizeof hf, cudaMemcpyDeviceToHost);
  CHECK(hf == 3);
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(g);
  cudaFree(dev);
  CHECK(cudaLibraryUnload(rlib) == cudaSuccess);
  CU(cuLinkDestroy(link));
  unlink(path);
  CU(cuDevicePrimaryCtxRelease(0));
  return finish();
}
