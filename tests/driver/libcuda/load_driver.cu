// load_driver.cu: a host program that reaches the CUDA driver only by
// loading libcuda.so.1 by name, as jitify, cuda-python and NCCL do: its
// functions by dlsym (under CUDA's versioned names) and by
// cuGetProcAddress (both signatures, with versions, flags and
// symbolStatus), a module of `-fatbin` (argv[1]) loaded from memory and a
// kernel launched through both sets of pointers. Prints the path the
// library was loaded from (tests/libcuda.sh checks it), then PASS.
#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "../../programs/check.cuh"
#include "driver_abi.h"

// Reads a whole file (the module image).
static std::vector<char> read_file(const char *path) {
  std::vector<char> image;
  if (FILE *f = std::fopen(path, "rb")) {
    char buffer[65536];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
      image.insert(image.end(), buffer, buffer + n);
    std::fclose(f);
  }
  image.push_back('\0');
  return image;
}

// The functions of the test, found one way or the other.
struct driver {
  pfn_init init;
  pfn_device_get device_get;
  pfn_ctx_create_v4 ctx_create;
  pfn_module_load_data module_load_data;
  pfn_module_get_function module_get_function;
  pfn_mem_alloc mem_alloc;
  pfn_memcpy_htod memcpy_htod;
  pfn_memcpy_dtoh memcpy_dtoh;
  pfn_launch_kernel launch_kernel;
  pfn_ctx_synchronize ctx_synchronize;
  pfn_mem_free mem_free;
};

template <class F> static F symbol(void *lib, const char *name) {
  void *p = dlsym(lib, name);
  if (!p)
    std::fprintf(stderr, "dlsym(%s): %s\n", name, dlerror());
  return reinterpret_cast<F>(p);
}

// Each function through cuGetProcAddress_v2 at `version`.
template <class F>
static F proc(pfn_get_proc_address_v2 get, const char *name, int version,
              unsigned long long flags = DRV_PROC_ADDRESS_DEFAULT) {
  void *p = nullptr;
  int status = -1;
  drv_result r = get(name, &p, version, flags, &status);
  if (r != DRV_SUCCESS || status != DRV_PROC_ADDRESS_SUCCESS || !p)
    std::fprintf(stderr, "cuGetProcAddress(%s, %d): %d, status %d\n", name,
                 version, r, status);
  return reinterpret_cast<F>(p);
}

// Runs y = a * x + y on the device through `d`; true when y is right.
static bool run(const driver &d, drv_function kernel, float a) {
  const int n = 1000;
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = float(2 * i + 1);
  }
  drv_deviceptr dx = 0, dy = 0;
  bool ok = d.mem_alloc(&dx, n * sizeof(float)) == DRV_SUCCESS &&
            d.mem_alloc(&dy, n * sizeof(float)) == DRV_SUCCESS &&
            d.memcpy_htod(dx, x.data(), n * sizeof(float)) == DRV_SUCCESS &&
            d.memcpy_htod(dy, y.data(), n * sizeof(float)) == DRV_SUCCESS;
  int count = n;
  void *params[] = {&dy, &dx, &a, &count};
  ok = ok && d.launch_kernel(kernel, (n + 127) / 128, 1, 1, 128, 1, 1, 0,
                             nullptr, params, nullptr) == DRV_SUCCESS;
  ok = ok && d.ctx_synchronize() == DRV_SUCCESS &&
       d.memcpy_dtoh(out.data(), dy, n * sizeof(float)) == DRV_SUCCESS;
  for (int i = 0; ok && i < n; ++i)
    ok = out[i] == a * x[i] + y[i];
  // The runtime API of the program sees the same memory (one libcuemu,
  // or with CUDA one driver, under both APIs).
  std::vector<float> seen(n);
  ok = ok &&
       cudaMemcpy(seen.data(), reinterpret_cast<void *>(dy), n * sizeof(float),
                  cudaMemcpyDeviceToHost) == cudaSuccess &&
       seen == out;
  ok = (!dx || d.mem_free(dx) == DRV_SUCCESS) && ok;
  ok = (!dy || d.mem_free(dy) == DRV_SUCCESS) && ok;
  return ok;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: load_driver MODULE\n");
    return 2;
  }
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "dlopen(libcuda.so.1): %s\n", dlerror());
    return 1;
  }
  struct link_map *map = nullptr;
  if (dlinfo(lib, RTLD_DI_LINKMAP, &map) == 0 && map)
    std::printf("libcuda: %s\n", map->l_name);

  // By dlsym, under the names of CUDA 13's cuda.h.
  driver d{};
  d.init = symbol<pfn_init>(lib, "cuInit");
  d.device_get = symbol<pfn_device_get>(lib, "cuDeviceGet");
  d.ctx_create = symbol<pfn_ctx_create_v4>(lib, "cuCtxCreate_v4");
  d.module_load_data = symbol<pfn_module_load_data>(lib, "cuModuleLoadData");
  d.module_get_function =
      symbol<pfn_module_get_function>(lib, "cuModuleGetFunction");
  d.mem_alloc = symbol<pfn_mem_alloc>(lib, "cuMemAlloc_v2");
  d.memcpy_htod = symbol<pfn_memcpy_htod>(lib, "cuMemcpyHtoD_v2");
  d.memcpy_dtoh = symbol<pfn_memcpy_dtoh>(lib, "cuMemcpyDtoH_v2");
  d.launch_kernel = symbol<pfn_launch_kernel>(lib, "cuLaunchKernel");
  d.ctx_synchronize = symbol<pfn_ctx_synchronize>(lib, "cuCtxSynchronize");
  auto get_v2 = symbol<pfn_get_proc_address_v2>(lib, "cuGetProcAddress_v2");
  auto get_v1 = symbol<pfn_get_proc_address_v1>(lib, "cuGetProcAddress");
  auto error_name = symbol<pfn_get_error_name>(lib, "cuGetErrorName");
  d.mem_free = symbol<pfn_mem_free>(lib, "cuMemFree_v2");
  auto module_unload = symbol<pfn_module_unload>(lib, "cuModuleUnload");
  auto ctx_destroy = symbol<pfn_ctx_destroy>(lib, "cuCtxDestroy_v2");
  auto driver_version =
      symbol<pfn_driver_get_version>(lib, "cuDriverGetVersion");
  CHECK(d.init && d.device_get && d.ctx_create && d.module_load_data &&
        d.module_get_function && d.mem_alloc && d.memcpy_htod &&
        d.memcpy_dtoh && d.launch_kernel && d.ctx_synchronize && get_v2 &&
        get_v1 && error_name && d.mem_free && module_unload && ctx_destroy &&
        driver_version);
  // Names CUDA's libcuda never had are not there.
  CHECK(dlsym(lib, "cuCtxCreate_v9") == nullptr);
  if (check_failures)
    return finish();

  drv_device dev = -1;
  drv_context ctx = nullptr;
  CHECK(d.init(0) == DRV_SUCCESS);
  CHECK(d.device_get(&dev, 0) == DRV_SUCCESS && dev == 0);
  CHECK(d.ctx_create(&ctx, nullptr, 0, dev) == DRV_SUCCESS && ctx);
  std::vector<char> image = read_file(argv[1]);
  drv_module module = nullptr;
  drv_function kernel = nullptr;
  CHECK(image.size() > 1);
  CHECK(d.module_load_data(&module, image.data()) == DRV_SUCCESS);
  CHECK(d.module_get_function(&kernel, module, "scale_add") == DRV_SUCCESS &&
        kernel);
  if (check_failures)
    return finish();
  CHECK(run(d, kernel, 2.0f));

  // By cuGetProcAddress_v2, at the driver's version (CUDA 12.5 or later:
  // cuCtxCreate is then _v4).
  int v = 0;
  CHECK(driver_version(&v) == DRV_SUCCESS && v >= 12050);
  driver p{};
  p.init = proc<pfn_init>(get_v2, "cuInit", v);
  p.device_get = proc<pfn_device_get>(get_v2, "cuDeviceGet", v);
  p.ctx_create = proc<pfn_ctx_create_v4>(get_v2, "cuCtxCreate", v);
  p.module_load_data =
      proc<pfn_module_load_data>(get_v2, "cuModuleLoadData", v);
  p.module_get_function =
      proc<pfn_module_get_function>(get_v2, "cuModuleGetFunction", v);
  p.mem_alloc = proc<pfn_mem_alloc>(get_v2, "cuMemAlloc", v);
  p.memcpy_htod = proc<pfn_memcpy_htod>(get_v2, "cuMemcpyHtoD", v);
  p.memcpy_dtoh = proc<pfn_memcpy_dtoh>(get_v2, "cuMemcpyDtoH", v);
  p.launch_kernel = proc<pfn_launch_kernel>(get_v2, "cuLaunchKernel", v);
  p.ctx_synchronize = proc<pfn_ctx_synchronize>(get_v2, "cuCtxSynchronize", v);
  p.mem_free = proc<pfn_mem_free>(get_v2, "cuMemFree", v);
  CHECK(p.init && p.device_get && p.ctx_create && p.module_load_data &&
        p.module_get_function && p.mem_alloc && p.memcpy_htod &&
        p.memcpy_dtoh && p.launch_kernel && p.ctx_synchronize && p.mem_free);
  if (check_failures)
    return finish();
  CHECK(p.init(0) == DRV_SUCCESS);
  drv_function again = nullptr;
  CHECK(p.module_get_function(&again, module, "scale_add") == DRV_SUCCESS &&
        again == kernel);
  CHECK(run(p, kernel, 3.0f));
  // The per-thread default stream's cuLaunchKernel (cuLaunchKernel_ptsz).
  p.launch_kernel = proc<pfn_launch_kernel>(
      get_v2, "cuLaunchKernel", v, DRV_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
  CHECK(p.launch_kernel && run(p, kernel, -1.0f));

  // An older ABI version: cuCtxCreate of CUDA 3.2 (cuCtxCreate_v2, three
  // parameters), from both signatures of cuGetProcAddress.
  auto create_v2 = proc<pfn_ctx_create_v2>(get_v2, "cuCtxCreate", 3020);
  void *create_v1 = nullptr;
  CHECK(get_v1("cuCtxCreate", &create_v1, 11030, DRV_PROC_ADDRESS_DEFAULT) ==
        DRV_SUCCESS);
  CHECK(create_v2 && create_v1);
  drv_context second = nullptr;
  CHECK(create_v2 && create_v2(&second, 0, dev) == DRV_SUCCESS && second &&
        second != ctx);
  CHECK(second && ctx_destroy(second) == DRV_SUCCESS);

  // What is not there, as CUDA 12 and CUDA 11 say it.
  void *none = &lib;
  int status = -1;
  CHECK(get_v2("cuNoSuchFunction", &none, v, 0, &status) == DRV_SUCCESS &&
        none == nullptr && status == DRV_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  none = &lib;
  status = -1;
  CHECK(get_v2("cuMemAllocAsync", &none, 11000, 0, &status) == DRV_SUCCESS &&
        none == nullptr && status == DRV_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
  CHECK(get_v2("cuMemAllocAsync", &none, 11020, 0, &status) == DRV_SUCCESS &&
        none != nullptr && status == DRV_PROC_ADDRESS_SUCCESS);
  none = &lib;
  CHECK(get_v1("cuNoSuchFunction", &none, 11030, 0) == DRV_ERROR_NOT_FOUND &&
        none == nullptr);
  CHECK(get_v1("cuMemAllocAsync", &none, 11000, 0) == DRV_ERROR_NOT_FOUND);
  // A version newer than the driver's, and no symbol.
  CHECK(get_v2("cuInit", &none, 99000, 0, &status) == DRV_ERROR_INVALID_VALUE);
  CHECK(get_v2(nullptr, &none, v, 0, &status) == DRV_ERROR_INVALID_VALUE);
  // cuGetProcAddress finds itself, in both signatures.
  void *self = nullptr;
  CHECK(get_v2("cuGetProcAddress", &self, v, 0, &status) == DRV_SUCCESS &&
        self && status == DRV_PROC_ADDRESS_SUCCESS);
  self = nullptr;
  CHECK(get_v2("cuGetProcAddress", &self, 11030, 0, &status) == DRV_SUCCESS &&
        self && status == DRV_PROC_ADDRESS_SUCCESS);
  CHECK(self &&
        reinterpret_cast<pfn_get_proc_address_v1>(self)(
            "cuNoSuchFunction", &none, 11030, 0) == DRV_ERROR_NOT_FOUND);
  // cuGetExportTable, which CUDA's own libraries ask the driver for.
  void *export_table = nullptr;
  CHECK(get_v2("cuGetExportTable", &export_table, v, 0, &status) ==
            DRV_SUCCESS &&
        export_table && status == DRV_PROC_ADDRESS_SUCCESS);
  const char *name = nullptr;
  CHECK(error_name(DRV_ERROR_NOT_FOUND, &name) == DRV_SUCCESS && name &&
        std::string_view(name) == "CUDA_ERROR_NOT_FOUND");

  // Stream 0 of a per-thread spelling is the per-thread default stream
  // (CU_STREAM_PER_THREAD), of the plain one the legacy default stream;
  // cuGetProcAddress gives the per-thread spelling for
  // CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM only.
  auto id_plain = symbol<pfn_stream_get_id>(lib, "cuStreamGetId");
  auto id_ptsz = symbol<pfn_stream_get_id>(lib, "cuStreamGetId_ptsz");
  unsigned long long legacy = 0, per_thread = 0, zero = 0, zero_ptsz = 0;
  drv_stream per_thread_stream = reinterpret_cast<drv_stream>(0x2);
  CHECK(id_plain && id_ptsz);
  if (id_plain && id_ptsz) {
    CHECK(id_plain(reinterpret_cast<drv_stream>(0x1), &legacy) == DRV_SUCCESS);
    CHECK(id_plain(per_thread_stream, &per_thread) == DRV_SUCCESS);
    CHECK(legacy != per_thread);
    CHECK(id_plain(nullptr, &zero) == DRV_SUCCESS && zero == legacy);
    CHECK(id_ptsz(nullptr, &zero_ptsz) == DRV_SUCCESS &&
          zero_ptsz == per_thread);
    void *by_flag = nullptr;
    CHECK(get_v2("cuStreamGetId", &by_flag, v,
                 DRV_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
                 &status) == DRV_SUCCESS &&
          by_flag == reinterpret_cast<void *>(id_ptsz));
    CHECK(get_v1("cuStreamGetId", &by_flag, v,
                 DRV_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) == DRV_SUCCESS &&
          by_flag == reinterpret_cast<void *>(id_ptsz));
    by_flag = nullptr;
    CHECK(get_v2("cuStreamGetId", &by_flag, v, DRV_PROC_ADDRESS_LEGACY_STREAM,
                 &status) == DRV_SUCCESS &&
          by_flag && by_flag != reinterpret_cast<void *>(id_ptsz));
    // The cuGetProcAddress that cuGetProcAddress gives chooses alike.
    void *self_v2 = nullptr;
    CHECK(get_v2("cuGetProcAddress", &self_v2, v, 0, &status) == DRV_SUCCESS &&
          self_v2);
    by_flag = nullptr;
    CHECK(self_v2 &&
          reinterpret_cast<pfn_get_proc_address_v2>(self_v2)(
              "cuStreamGetId", &by_flag, v,
              DRV_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
              &status) == DRV_SUCCESS &&
          by_flag == reinterpret_cast<void *>(id_ptsz));
    by_flag = nullptr;
    CHECK(get_v2("cuStreamGetId", &by_flag, v, DRV_PROC_ADDRESS_LEGACY_STREAM,
                 &status) == DRV_SUCCESS &&
          by_flag && by_flag != reinterpret_cast<void *>(id_ptsz));
    unsigned long long again = 0;
    CHECK(by_flag &&
          reinterpret_cast<pfn_stream_get_id>(by_flag)(nullptr, &again) ==
              DRV_SUCCESS &&
          again == legacy);
  }

  CHECK(module_unload(module) == DRV_SUCCESS);
  CHECK(ctx_destroy(ctx) == DRV_SUCCESS);
  return finish();
}
