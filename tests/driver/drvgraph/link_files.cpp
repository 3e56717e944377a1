// link_files.cpp: links the modules that cuemu-nvcc -rdc=true wrote
// (argv[1]: the kernels, argv[2]: the device function) with cuLinkAddFile,
// loads the image and checks the kernel's results.
#include <cuda.h>

#include <cstdio>

static int failures = 0;
#define CU(call)                                                               \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      std::fprintf(stderr, "%s:%d: %s gave %d\n", __FILE__, __LINE__, #call,   \
                   (int)r_);                                                   \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  CUdevice dev;
  CUcontext ctx;
  CU(cuInit(0));
  CU(cuDeviceGet(&dev, 0));
  CU(cuCtxCreate(&ctx, nullptr, 0, dev));
  CUlinkState link;
  CU(cuLinkCreate(0, nullptr, nullptr, &link));
  CU(cuLinkAddFile(link, CU_JIT_INPUT_CUBIN, argv[1], 0, nullptr, nullptr));
  CU(cuLinkAddFile(link, CU_JIT_INPUT_FATBINARY, argv[2], 0, nullptr,
                   nullptr));
  void *image = nullptr;
  size_t size = 0;
  CU(cuLinkComplete(link, &image, &size));
  CUmodule mod;
  CU(cuModuleLoadData(&mod, image));
  CU(cuLinkDestroy(link));
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, "apply_poly"));
  const int n = 100;
  float host[n];
  for (int i = 0; i < n; ++i)
    host[i] = 0.25f * i;
  CUdeviceptr d;
  CU(cuMemAlloc(&d, sizeof host));
  CU(cuMemcpyHtoD(d, host, sizeof host));
  int count = n;
  void *args[] = {&d, &count};
  CU(cuLaunchKernel(f, 4, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
  CU(cuMemcpyDtoH(host, d, sizeof host));
  for (int i = 0; i < n; ++i) {
    float x = 0.25f * i;
    if (host[i] != (2.0f * x + 3.0f) * x + 1.0f + 0.5f)
      ++failures;
  }
  CU(cuMemFree(d));
  CU(cuModuleUnload(mod));
  CU(cuCtxDestroy(ctx));
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
