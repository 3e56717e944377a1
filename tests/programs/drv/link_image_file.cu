// link_image_file.cu: a JIT-linking program in the way of CUDA's ptxjit and
// jitLto samples. Two relocatable modules compiled with NVRTC (-rdc=true)
// are linked with cuLink*: the kernels of one call a device function and
// update a __device__ counter defined in the other. The linked cubin is
// written to a file and the link destroyed; then
//  - the same image loaded twice with cuModuleLoadData: each module has
//    its own counter and functions (cuModuleEnumerateFunctions,
//    cuFuncGetModule), as two loads of a CUDA cubin do;
//  - a second process (this program run again with the file's name) loads
//    the file with cuModuleLoad, cuLibraryLoadFromFile and
//    cudaLibraryLoadData and runs its kernels.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const char *kernels_src = R"(
extern __device__ float poly(float x);
extern __device__ unsigned long long calls;
// y[i] = poly(x[i]); counts the elements it did.
extern "C" __global__ void apply(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = poly(x[i]);
    atomicAdd(&calls, 1ull);
  }
}
extern "C" __global__ void read_calls(unsigned long long *out) {
  *out = calls;
}
)";

static const char *math_src = R"(
__device__ unsigned long long calls;
__constant__ float coeff[3] = {1.0f, -2.0f, 0.5f};
// coeff[0] + coeff[1] x + coeff[2] x^2
__device__ float poly(float x) {
  return coeff[0] + x * (coeff[1] + x * coeff[2]);
}
)";

static float expected(float x) { return 1.0f + x * (-2.0f + x * 0.5f); }

static std::vector<char> compile(const char *src, const char *name) {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, src, name, 0, nullptr, nullptr) ==
        NVRTC_SUCCESS);
  const char *opts[] = {"-rdc=true", "-arch=sm_90"};
  CHECK(nvrtcCompileProgram(prog, 2, opts) == NVRTC_SUCCESS);
  size_t size = 0;
  CHECK(nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS);
  std::vector<char> cubin(size);
  CHECK(nvrtcGetCUBIN(prog, cubin.data()) == NVRTC_SUCCESS);
  nvrtcDestroyProgram(&prog);
  return cubin;
}

// Runs apply over n elements of module `mod` and checks y; returns the
// module's count of calls afterwards.
static unsigned long long run(CUmodule mod, int n) {
  CUfunction apply, read_calls;
  CU(cuModuleGetFunction(&apply, mod, "apply"));
  CU(cuModuleGetFunction(&read_calls, mod, "read_calls"));
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i)
    hx[i] = 0.25f * i;
  CUdeviceptr x, y, calls;
  CU(cuMemAlloc(&x, n * sizeof(float)));
  CU(cuMemAlloc(&y, n * sizeof(float)));
  CU(cuMemAlloc(&calls, sizeof(unsigned long long)));
  CU(cuMemcpyHtoD(x, hx.data(), n * sizeof(float)));
  void *args[] = {&x, &y, &n};
  CU(cuLaunchKernel(apply, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, args,
                    nullptr));
  void *cargs[] = {&calls};
  CU(cuLaunchKernel(read_calls, 1, 1, 1, 1, 1, 1, 0, nullptr, cargs, nullptr));
  unsigned long long count = 0;
  CU(cuMemcpyDtoH(hy.data(), y, n * sizeof(float)));
  CU(cuMemcpyDtoH(&count, calls, sizeof count));
  for (int i = 0; i < n; ++i)
    CHECK(hy[i] == expected(hx[i]));
  CU(cuMemFree(x));
  CU(cuMemFree(y));
  CU(cuMemFree(calls));
  return count;
}

// The second process: loads the file three ways.
static int load_file(const char *path) {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuCtxCreate(&ctx, nullptr, 0, dev));
  CUmodule mod;
  CU(cuModuleLoad(&mod, path));
  CHECK(run(mod, 100) == 100);
  // The counter can be set through cuModuleGetGlobal.
  CUdeviceptr calls;
  size_t bytes = 0;
  CU(cuModuleGetGlobal(&calls, &bytes, mod, "calls"));
  CHECK(bytes == sizeof(unsigned long long));
  CU(cuMemsetD32(calls, 0, 2));
  CHECK(run(mod, 10) == 10);
  CU(cuModuleUnload(mod));

  CUlibrary lib;
  CU(cuLibraryLoadFromFile(&lib, path, nullptr, nullptr, 0, nullptr, nullptr,
                           0));
  CUmodule libmod;
  CU(cuLibraryGetModule(&libmod, lib));
  CHECK(run(libmod, 33) == 33); // its own counter: not the module's 110
  CU(cuLibraryUnload(lib));

  std::ifstream in(path, std::ios::binary);
  std::vector<char> image((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  cudaLibrary_t rlib;
  CHECK(cudaLibraryLoadData(&rlib, image.data(), nullptr, nullptr, 0, nullptr,
                            nullptr, 0) == cudaSuccess);
  cudaKernel_t k;
  CHECK(cudaLibraryGetKernel(&k, rlib, "apply") == cudaSuccess);
  const int n = 64;
  float *x, *y;
  CHECK(cudaMalloc(&x, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMalloc(&y, n * sizeof(float)) == cudaSuccess);
  std::vector<float> hx(n, 2.0f), hy(n);
  cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  int count = n;
  void *args[] = {&x, &y, &count};
  CHECK(cudaLaunchKernel((const void *)k, dim3(1), dim3(n), args, 0, 0) ==
        cudaSuccess);
  cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  CHECK(hy[0] == expected(2.0f) && hy[n - 1] == expected(2.0f));
  unsigned long long *rcalls = nullptr;
  size_t rbytes = 0;
  CHECK(cudaLibraryGetGlobal((void **)&rcalls, &rbytes, rlib, "calls") ==
        cudaSuccess);
  unsigned long long seen = 0;
  cudaMemcpy(&seen, rcalls, sizeof seen, cudaMemcpyDeviceToHost);
  CHECK(seen == n);
  cudaFree(x);
  cudaFree(y);
  CHECK(cudaLibraryUnload(rlib) == cudaSuccess);
  CU(cuCtxDestroy(ctx));
  return check_failures ? 1 : 0; // the first process says PASS or FAIL
}

int main(int argc, char **argv) {
  if (argc == 3 && std::string(argv[1]) == "--load")
    return load_file(argv[2]);

  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuCtxCreate(&ctx, nullptr, 0, dev));
  std::vector<char> kernels = compile(kernels_src, "kernels.cu");
  std::vector<char> math = compile(math_src, "math.cu");

  char log[4096] = "";
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, reinterpret_cast<void *>(sizeof log)};
  CUlinkState link;
  CU(cuLinkCreate(2, opts, values, &link));
  CU(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, kernels.data(), kernels.size(),
                   "kernels.cubin", 0, nullptr, nullptr));
  CU(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, math.data(), math.size(),
                   "math.cubin", 0, nullptr, nullptr));
  void *cubin = nullptr;
  size_t size = 0;
  CU(cuLinkComplete(link, &cubin, &size));
  CHECK(cubin != nullptr && size > 0);

  char path[] = "/tmp/link_image_fileXXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  CHECK(write(fd, cubin, size) == static_cast<ssize_t>(size));
  close(fd);
  std::vector<char> image(static_cast<char *>(cubin),
                          static_cast<char *>(cubin) + size);
  CU(cuLinkDestroy(link)); // the image no longer needs the link

  // Two loads of one image: two sets of variables.
  CUmodule a, b;
  CU(cuModuleLoadData(&a, image.data()));
  CU(cuModuleLoadData(&b, image.data()));
  CHECK(run(a, 100) == 100);
  CHECK(run(b, 40) == 40);
  CHECK(run(a, 100) == 200);
  // Each module lists its own functions, and each function names its module.
  unsigned nfuncs = 0;
  CU(cuModuleGetFunctionCount(&nfuncs, a));
  CHECK(nfuncs == 2);
  CUfunction listed[2] = {nullptr, nullptr};
  CU(cuModuleEnumerateFunctions(listed, 2, a));
  CUfunction apply_b;
  CU(cuModuleGetFunction(&apply_b, b, "apply"));
  CUmodule owner = nullptr;
  CU(cuFuncGetModule(&owner, listed[0]));
  CHECK(owner == a);
  CU(cuFuncGetModule(&owner, apply_b));
  CHECK(owner == b);
  CHECK(listed[0] != apply_b && listed[1] != apply_b);
  CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_UNLOADED;
  CU(cuFuncIsLoaded(&state, apply_b));
  CHECK(state == CU_FUNCTION_LOADING_STATE_LOADED);
  CU(cuFuncLoad(apply_b));
  CUdeviceptr ca, cb;
  CU(cuModuleGetGlobal(&ca, nullptr, a, "calls"));
  CU(cuModuleGetGlobal(&cb, nullptr, b, "calls"));
  CHECK(ca != cb);
  CU(cuModuleUnload(a));
  CHECK(cuFuncGetModule(&owner, listed[0]) == CUDA_ERROR_INVALID_HANDLE);
  // A load after an unload starts again from the image's values.
  CUmodule c;
  CU(cuModuleLoadData(&c, image.data()));
  CHECK(run(c, 7) == 7);
  CHECK(run(b, 1) == 41);
  CU(cuModuleUnload(b));
  CU(cuModuleUnload(c));
  // The file too, in this process.
  CUmodule f;
  CU(cuModuleLoad(&f, path));
  CHECK(run(f, 5) == 5);
  CU(cuModuleUnload(f));
  CU(cuCtxDestroy(ctx));

  // Another process loads the file.
  std::fflush(nullptr);
  pid_t child = fork();
  if (child == 0) {
    execl("/proc/self/exe", argv[0], "--load", path, (char *)nullptr);
    _exit(127);
  }
  int status = 0;
  CHECK(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  unlink(path);
  return finish();
}
