// stringified_names.cu: the driver's functions found as jitify finds
// them: cuda.h included, each name macro-expanded and stringified for
// dlsym on dlopen("libcuda.so") (cuda.h defines cuMemAlloc as
// cuMemAlloc_v2, and so on, in CUDA's and in cuemu's), then a module of
// `-fatbin` (argv[1]) run through them: a global set with
// cuModuleGetGlobal and cuMemcpyHtoDAsync, a launch, the result read with
// cuMemcpyDtoHAsync. Prints PASS.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda.h>

#include "../../programs/check.cuh"

#define NAME_TEXT(name) #name
#define SYMBOL_OF(name) NAME_TEXT(name)

// Finds `name` (the macro-expanded spelling) in `lib`, typed as cuda.h
// declares it.
#define FIND(lib, name)                                                        \
  reinterpret_cast<decltype(&name)>(find(lib, SYMBOL_OF(name)))

static void *find(void *lib, const char *symbol) {
  void *p = dlsym(lib, symbol);
  if (!p)
    std::fprintf(stderr, "dlsym(%s): not there\n", symbol);
  return p;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: stringified_names MODULE\n");
    return 2;
  }
  // The names CUDA 13's cuda.h gives them.
  CHECK(std::strcmp(SYMBOL_OF(cuMemAlloc), "cuMemAlloc_v2") == 0);
  CHECK(std::strcmp(SYMBOL_OF(cuModuleGetGlobal), "cuModuleGetGlobal_v2") ==
        0);
  CHECK(std::strcmp(SYMBOL_OF(cuCtxCreate), "cuCtxCreate_v4") == 0);
  CHECK(std::strcmp(SYMBOL_OF(cuMemcpyHtoDAsync), "cuMemcpyHtoDAsync_v2") ==
        0);
  CHECK(std::strcmp(SYMBOL_OF(cuLaunchKernel), "cuLaunchKernel") == 0);

  void *lib = dlopen("libcuda.so", RTLD_LAZY);
  if (!lib) {
    std::fprintf(stderr, "dlopen(libcuda.so): %s\n", dlerror());
    return 1;
  }
  // The functions jitify's LibCuda finds this way.
  auto init = FIND(lib, cuInit);
  auto driver_get_version = FIND(lib, cuDriverGetVersion);
  auto get_error_string = FIND(lib, cuGetErrorString);
  auto get_error_name = FIND(lib, cuGetErrorName);
  auto ctx_get_current = FIND(lib, cuCtxGetCurrent);
  auto ctx_get_device = FIND(lib, cuCtxGetDevice);
  auto device_get = FIND(lib, cuDeviceGet);
  auto device_get_attribute = FIND(lib, cuDeviceGetAttribute);
  auto link_create = FIND(lib, cuLinkCreate);
  auto link_destroy = FIND(lib, cuLinkDestroy);
  auto link_add_data = FIND(lib, cuLinkAddData);
  auto link_add_file = FIND(lib, cuLinkAddFile);
  auto link_complete = FIND(lib, cuLinkComplete);
  auto module_load_data = FIND(lib, cuModuleLoadData);
  auto module_unload = FIND(lib, cuModuleUnload);
  auto module_get_function = FIND(lib, cuModuleGetFunction);
  auto module_get_global = FIND(lib, cuModuleGetGlobal);
  auto memcpy_htod_async = FIND(lib, cuMemcpyHtoDAsync);
  auto memcpy_dtoh_async = FIND(lib, cuMemcpyDtoHAsync);
  auto func_get_attribute = FIND(lib, cuFuncGetAttribute);
  auto func_set_attribute = FIND(lib, cuFuncSetAttribute);
  auto occupancy = FIND(lib, cuOccupancyMaxPotentialBlockSizeWithFlags);
  auto launch_kernel = FIND(lib, cuLaunchKernel);
  // And the rest of this program's.
  auto ctx_create = FIND(lib, cuCtxCreate);
  auto ctx_destroy = FIND(lib, cuCtxDestroy);
  auto ctx_synchronize = FIND(lib, cuCtxSynchronize);
  auto mem_alloc = FIND(lib, cuMemAlloc);
  auto mem_free = FIND(lib, cuMemFree);
  CHECK(init && driver_get_version && get_error_string && get_error_name &&
        ctx_get_current && ctx_get_device && device_get &&
        device_get_attribute && link_create && link_destroy &&
        link_add_data && link_add_file && link_complete && module_load_data &&
        module_unload && module_get_function && module_get_global &&
        memcpy_htod_async && memcpy_dtoh_async && func_get_attribute &&
        func_set_attribute && occupancy && launch_kernel && ctx_create &&
        ctx_destroy && ctx_synchronize && mem_alloc && mem_free);
  if (check_failures)
    return finish();

  CUdevice dev = -1;
  CUcontext ctx = nullptr;
  CHECK(init(0) == CUDA_SUCCESS && device_get(&dev, 0) == CUDA_SUCCESS);
  CHECK(ctx_create(&ctx, nullptr, 0, dev) == CUDA_SUCCESS);
  CUcontext current = nullptr;
  CUdevice current_dev = -1;
  CHECK(ctx_get_current(&current) == CUDA_SUCCESS && current == ctx);
  CHECK(ctx_get_device(&current_dev) == CUDA_SUCCESS && current_dev == dev);
  std::vector<char> image;
  if (FILE *f = std::fopen(argv[1], "rb")) {
    char buffer[65536];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
      image.insert(image.end(), buffer, buffer + n);
    std::fclose(f);
  }
  image.push_back('\0');
  CUmodule module = nullptr;
  CUfunction kernel = nullptr;
  CHECK(module_load_data(&module, image.data()) == CUDA_SUCCESS);
  CHECK(module_get_function(&kernel, module, "scale_add") == CUDA_SUCCESS);
  CUdeviceptr bias = 0;
  size_t bias_size = 0;
  CHECK(module_get_global(&bias, &bias_size, module, "bias") ==
            CUDA_SUCCESS &&
        bias && bias_size == sizeof(float));
  int max_threads = 0, grid = 0, block = 0;
  CHECK(func_get_attribute(&max_threads,
                           CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                           kernel) == CUDA_SUCCESS &&
        max_threads > 0);
  CHECK(occupancy(&grid, &block, kernel, nullptr, 0, 0, 0) == CUDA_SUCCESS &&
        block > 0);
  if (check_failures)
    return finish();

  const int n = 500;
  std::vector<float> x(n), y(n, 1.0f), out(n);
  for (int i = 0; i < n; ++i)
    x[i] = float(i);
  CUdeviceptr dx = 0, dy = 0;
  const float offset = 10.0f;
  CHECK(mem_alloc(&dx, n * sizeof(float)) == CUDA_SUCCESS &&
        mem_alloc(&dy, n * sizeof(float)) == CUDA_SUCCESS);
  CHECK(memcpy_htod_async(dx, x.data(), n * sizeof(float), nullptr) ==
        CUDA_SUCCESS);
  CHECK(memcpy_htod_async(dy, y.data(), n * sizeof(float), nullptr) ==
        CUDA_SUCCESS);
  CHECK(memcpy_htod_async(bias, &offset, sizeof offset, nullptr) ==
        CUDA_SUCCESS);
  float a = 2.0f;
  int count = n;
  void *params[] = {&dy, &dx, &a, &count};
  CHECK(launch_kernel(kernel, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr,
                      params, nullptr) == CUDA_SUCCESS);
  CHECK(memcpy_dtoh_async(out.data(), dy, n * sizeof(float), nullptr) ==
        CUDA_SUCCESS);
  CHECK(ctx_synchronize() == CUDA_SUCCESS);
  bool right = true;
  for (int i = 0; i < n; ++i)
    right = right && out[i] == a * x[i] + y[i] + offset;
  CHECK(right);
  const char *text = nullptr;
  CHECK(get_error_string(CUDA_ERROR_INVALID_VALUE, &text) == CUDA_SUCCESS &&
        text);
  CHECK(mem_free(dx) == CUDA_SUCCESS && mem_free(dy) == CUDA_SUCCESS);
  CHECK(module_unload(module) == CUDA_SUCCESS);
  CHECK(ctx_destroy(ctx) == CUDA_SUCCESS);
  (void)driver_get_version;
  (void)get_error_name;
  (void)device_get_attribute;
  (void)link_create;
  (void)link_destroy;
  (void)link_add_data;
  (void)link_add_file;
  (void)link_complete;
  (void)func_set_attribute;
  return finish();
}
