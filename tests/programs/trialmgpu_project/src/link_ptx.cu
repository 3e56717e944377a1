// NVCC_OPTIONS: -I../common -Xcompiler -fopenmp
// link_ptx.cu - link two separately compiled relocatable PTX files at run
// time with cuLink*, then again with nvJitLink (from LTO-IR when the files
// are there), and run the linked kernel.
#define MGPU_USE_DRIVER
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <nvJitLink.h>
#include "mgpu_check.h"

#define NVJITLINK_CHECK(h, call)                                                   \
  do {                                                                             \
    nvJitLinkResult r_ = (call);                                                   \
    if (r_ != NVJITLINK_SUCCESS) {                                                 \
      size_t n_ = 0;                                                               \
      std::string log_;                                                            \
      if (h && nvJitLinkGetErrorLogSize(h, &n_) == NVJITLINK_SUCCESS && n_) {      \
        log_.resize(n_);                                                           \
        nvJitLinkGetErrorLog(h, &log_[0]);                                         \
      }                                                                            \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n%s\n", __FILE__, __LINE__, #call, \
                   (int)r_, log_.c_str());                                         \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

static bool read_file(const std::string &path, std::string &out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::stringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return true;
}

static bool run(CUmodule mod, const char *how) {
  CUfunction f;
  CU_CHECK(cuModuleGetFunction(&f, mod, "eval_poly"));
  CUdeviceptr c, calls;
  size_t csize, callsize;
  CU_CHECK(cuModuleGetGlobal(&c, &csize, mod, "coeffs"));
  CU_CHECK(cuModuleGetGlobal(&calls, &callsize, mod, "lib_calls"));
  const float h_c[4] = {1.0f, -2.0f, 0.5f, 0.25f};
  CU_CHECK(cuMemcpyHtoD(c, h_c, sizeof h_c));
  const int n = 3000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = (i - n / 2) * 0.001f;
  CUdeviceptr dx, dy;
  CU_CHECK(cuMemAlloc(&dx, n * 4));
  CU_CHECK(cuMemAlloc(&dy, n * 4));
  CU_CHECK(cuMemcpyHtoD(dx, x.data(), n * 4));
  int nn = n;
  void *args[] = {&dx, &dy, &nn};
  CU_CHECK(cuLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, 0, args, nullptr));
  CU_CHECK(cuCtxSynchronize());
  CU_CHECK(cuMemcpyDtoH(y.data(), dy, n * 4));
  int ncalls = 0;
  CU_CHECK(cuMemcpyDtoH(&ncalls, calls, 4));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float want = ((h_c[3] * x[i] + h_c[2]) * x[i] + h_c[1]) * x[i] + h_c[0];
    if (std::fabs(y[i] - want) > 1e-5f) bad++;
  }
  std::printf("%s: %d mismatches, lib_calls %d (csize %zu)\n", how, bad, ncalls, csize);
  CU_CHECK(cuMemFree(dx));
  CU_CHECK(cuMemFree(dy));
  return bad == 0 && ncalls == n && csize == sizeof h_c;
}

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  CU_CHECK(cuInit(0));
  CUdevice dev;
  CU_CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU_CHECK(cuCtxCreate(&ctx, nullptr, 0, dev));
  bool ok = true;

  // 1. cuLink with the JIT logs.
  {
    char info[4096] = {}, error[4096] = {};
    CUjit_option opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_LOG_VERBOSE, CU_JIT_OPTIMIZATION_LEVEL};
    void *vals[] = {info, (void *)(uintptr_t)sizeof info, error, (void *)(uintptr_t)sizeof error,
                    (void *)1, (void *)4};
    CUlinkState link;
    CU_CHECK(cuLinkCreate(6, opts, vals, &link));
    std::string app, lib;
    if (!read_file(dir + "/app_kernel.ptx", app) || !read_file(dir + "/lib_math.ptx", lib)) {
      std::printf("PTX files missing in %s\n", dir.c_str());
      return 1;
    }
    CU_CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)app.c_str(), app.size() + 1, "app_kernel.ptx",
                           0, nullptr, nullptr));
    // Linking must fail while poly3 is unresolved.
    void *img = nullptr;
    size_t img_size = 0;
    CUresult r;
    {
      // The first state's option slots hold its outputs (the log sizes
      // filled) until cuLinkDestroy, as cuda.h says: fresh ones here.
      void *pvals[] = {info, (void *)(uintptr_t)sizeof info, error, (void *)(uintptr_t)sizeof error,
                       (void *)1, (void *)4};
      CUlinkState partial;
      CU_CHECK(cuLinkCreate(6, opts, pvals, &partial));
      CU_CHECK(cuLinkAddData(partial, CU_JIT_INPUT_PTX, (void *)app.c_str(), app.size() + 1,
                             "app_kernel.ptx", 0, nullptr, nullptr));
      r = cuLinkComplete(partial, &img, &img_size);
      std::printf("link without lib: %s; error log: %s\n", r == CUDA_SUCCESS ? "linked?!" : "failed", error);
      ok = ok && r != CUDA_SUCCESS && std::string(error).find("poly3") != std::string::npos;
      CU_CHECK(cuLinkDestroy(partial));
    }
    CU_CHECK(cuLinkAddFile(link, CU_JIT_INPUT_PTX, (dir + "/lib_math.ptx").c_str(), 0, nullptr, nullptr));
    CU_CHECK(cuLinkComplete(link, &img, &img_size));
    std::printf("cuLink: image of %zu bytes\n", img_size);
    CUmodule mod;
    CU_CHECK(cuModuleLoadDataEx(&mod, img, 0, nullptr, nullptr));
    CU_CHECK(cuLinkDestroy(link));
    ok = run(mod, "cuLink PTX") && ok;
    CU_CHECK(cuModuleUnload(mod));
  }

  // 2. nvJitLink: LTO-IR when present, PTX otherwise.
  {
    int major = 0, minor = 0;
    nvJitLinkVersion((unsigned *)&major, (unsigned *)&minor);
    std::string app, lib;
    bool lto = read_file(dir + "/app_kernel.ltoir", app) && read_file(dir + "/lib_math.ltoir", lib);
    if (!lto) {
      read_file(dir + "/app_kernel.ptx", app);
      read_file(dir + "/lib_math.ptx", lib);
    }
    const char *lopts[] = {"-arch=sm_90", lto ? "-lto" : "-O3"};
    nvJitLinkHandle h = nullptr;
    NVJITLINK_CHECK(h, nvJitLinkCreate(&h, 2, lopts));
    nvJitLinkInputType type = lto ? NVJITLINK_INPUT_FATBIN : NVJITLINK_INPUT_PTX;
    NVJITLINK_CHECK(h, nvJitLinkAddData(h, type, app.data(), app.size(), "app"));
    NVJITLINK_CHECK(h, nvJitLinkAddData(h, type, lib.data(), lib.size(), "lib"));
    NVJITLINK_CHECK(h, nvJitLinkComplete(h));
    size_t cubin_size = 0;
    NVJITLINK_CHECK(h, nvJitLinkGetLinkedCubinSize(h, &cubin_size));
    std::vector<char> cubin(cubin_size);
    NVJITLINK_CHECK(h, nvJitLinkGetLinkedCubin(h, cubin.data()));
    NVJITLINK_CHECK(h, nvJitLinkDestroy(&h));
    CUmodule mod;
    CU_CHECK(cuModuleLoadData(&mod, cubin.data()));
    std::printf("nvJitLink %d.%d from %s\n", major, minor, lto ? "LTO-IR" : "PTX");
    ok = run(mod, lto ? "nvJitLink LTO" : "nvJitLink PTX") && ok;
    CU_CHECK(cuModuleUnload(mod));
  }
  CU_CHECK(cuCtxDestroy(ctx));
  return mgpu_report(ok, "link_ptx");
}
