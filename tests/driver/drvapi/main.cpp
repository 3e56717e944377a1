// main.cpp: a driver-API program, written as CUDA's driver samples are (a
// host .cpp file with cuda.h, linked with -lcuda, loading its kernels from
// a module file at run time). Usage: main MODULE [MODULE2]: MODULE is
// loaded with cuModuleLoad, MODULE2 (default: MODULE) read into memory and
// loaded with cuModuleLoadDataEx. tests/drvapi.sh builds the modules with
// cuemu-nvcc -fatbin, -ptx and -cubin. Prints PASS.
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

static int failures = 0;
#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
      ++failures;                                                              \
    }                                                                          \
  } while (0)
#define CU(call) CHECK((call) == CUDA_SUCCESS)

struct Pair {
  double scale;
  int offset;
};

static void test_errors_before_init() {
  int n = -1;
  CHECK(cuDeviceGetCount(&n) == CUDA_ERROR_NOT_INITIALIZED);
  const char *s = nullptr;
  CU(cuGetErrorName(CUDA_ERROR_INVALID_IMAGE, &s));
  CHECK(s && std::strcmp(s, "CUDA_ERROR_INVALID_IMAGE") == 0);
  CU(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &s));
  CHECK(s && std::strcmp(s, "out of memory") == 0);
  CHECK(cuGetErrorName(static_cast<CUresult>(12345), &s) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuInit(1) == CUDA_ERROR_INVALID_VALUE);
}

static void test_devices(CUdevice *dev) {
  int version = 0, count = 0;
  CU(cuDriverGetVersion(&version));
  CHECK(version >= 13000);
  CU(cuDeviceGetCount(&count));
  CHECK(count >= 1);
  CU(cuDeviceGet(dev, 0));
  CHECK(cuDeviceGet(dev, count) == CUDA_ERROR_INVALID_DEVICE);
  CU(cuDeviceGet(dev, 0));
  char name[256] = "";
  CU(cuDeviceGetName(name, sizeof name, *dev));
  CHECK(name[0] != '\0');
  int major = 0, minor = -1, sms = 0, warp = 0, coop = 0;
  CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                          *dev));
  CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                          *dev));
  CU(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                          *dev));
  CU(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, *dev));
  CU(cuDeviceGetAttribute(&coop, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH,
                          *dev));
  CHECK(major >= 5 && minor >= 0 && sms >= 1 && warp == 32 && coop == 1);
  size_t total = 0;
  CU(cuDeviceTotalMem(&total, *dev));
  CHECK(total > 0);
  CUuuid uuid;
  CU(cuDeviceGetUuid(&uuid, *dev));
}

static void test_contexts(CUdevice dev, CUcontext *ctx) {
  CUcontext none = reinterpret_cast<CUcontext>(1);
  CU(cuCtxGetCurrent(&none));
  CHECK(none == nullptr);
  CUdeviceptr p;
  CHECK(cuMemAlloc(&p, 16) == CUDA_ERROR_INVALID_CONTEXT);

  // The primary context, retained and released.
  CUcontext primary = nullptr;
  unsigned flags = 1;
  int active = 1;
  CU(cuDevicePrimaryCtxGetState(dev, &flags, &active));
  CHECK(active == 0);
  CU(cuDevicePrimaryCtxRetain(&primary, dev));
  CU(cuDevicePrimaryCtxGetState(dev, &flags, &active));
  CHECK(active == 1);
  CU(cuCtxSetCurrent(primary));
  CUcontext cur = nullptr;
  CU(cuCtxGetCurrent(&cur));
  CHECK(cur == primary);
  CU(cuCtxSetCurrent(nullptr));
  CU(cuDevicePrimaryCtxRelease(dev));
  CU(cuDevicePrimaryCtxGetState(dev, &flags, &active));
  CHECK(active == 0);

  // A context of its own (the CUDA 13 form), current and on the stack.
  CU(cuCtxCreate(ctx, nullptr, 0, dev));
  CU(cuCtxGetCurrent(&cur));
  CHECK(cur == *ctx);
  CUdevice d = -1;
  CU(cuCtxGetDevice(&d));
  CHECK(d == dev);
  CUcontext popped = nullptr;
  CU(cuCtxPopCurrent(&popped));
  CHECK(popped == *ctx);
  CU(cuCtxGetCurrent(&cur));
  CHECK(cur == nullptr);
  CU(cuCtxPushCurrent(*ctx));
  unsigned api = 0;
  CU(cuCtxGetApiVersion(*ctx, &api));
  CHECK(api >= 3020);
  CU(cuCtxSynchronize());
}

static std::string read_file(const char *path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

static void test_module(CUmodule mod) {
  CUfunction saxpy, vecadd, vecadd_by_name, times, packed, gridsum;
  CU(cuModuleGetFunction(&saxpy, mod, "saxpy"));
  // A C++ kernel by its lowered (mangled) name, as CUDA names it.
  CU(cuModuleGetFunction(&vecadd, mod, "_Z6vecAddPKfS0_Pfi"));
  CU(cuModuleGetFunction(&vecadd_by_name, mod, "_Z6vecAddPKfS0_Pfi"));
  CHECK(vecadd == vecadd_by_name);
  CU(cuModuleGetFunction(&times, mod, "_Z5timesIiLi3EEvPT_"));
  CU(cuModuleGetFunction(&packed, mod, "packed"));
  CU(cuModuleGetFunction(&gridsum, mod, "gridSum"));
  CUfunction missing;
  CHECK(cuModuleGetFunction(&missing, mod, "noSuchKernel") ==
        CUDA_ERROR_NOT_FOUND);

  int max_threads = 0;
  CU(cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                        saxpy));
  CHECK(max_threads == 1024);
  CU(cuFuncSetCacheConfig(saxpy, CU_FUNC_CACHE_PREFER_L1));

  // __constant__ and __device__ variables by cuModuleGetGlobal.
  CUdeviceptr bias, launches;
  size_t bias_bytes = 0, launch_bytes = 0;
  CU(cuModuleGetGlobal(&bias, &bias_bytes, mod, "bias"));
  CU(cuModuleGetGlobal(&launches, &launch_bytes, mod, "launches"));
  CHECK(bias_bytes == 4 * sizeof(float) && launch_bytes == sizeof(int));
  const float hbias[4] = {0.5f, 1.5f, 2.5f, 3.5f};
  CU(cuMemcpyHtoD(bias, hbias, sizeof hbias));
  CU(cuMemsetD32(launches, 0, 1));

  // saxpy through kernelParams, on a stream, timed with events.
  const int n = 1000;
  std::vector<float> hx(n), hy(n), out(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = 0.25f * i;
    hy[i] = 1000.0f - i;
  }
  CUdeviceptr dx, dy;
  CU(cuMemAlloc(&dx, n * sizeof(float)));
  CU(cuMemAlloc(&dy, n * sizeof(float)));
  CUstream stream;
  CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUevent start, stop;
  CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CU(cuMemcpyHtoDAsync(dx, hx.data(), n * sizeof(float), stream));
  CU(cuMemcpyHtoDAsync(dy, hy.data(), n * sizeof(float), stream));
  float a = 2.0f;
  int nn = n;
  void *args[] = {&nn, &a, &dx, &dy};
  CU(cuEventRecord(start, stream));
  CU(cuLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, stream, args,
                    nullptr));
  CU(cuEventRecord(stop, stream));
  CU(cuStreamSynchronize(stream));
  CU(cuEventSynchronize(stop));
  float ms = -1.0f;
  CU(cuEventElapsedTime(&ms, start, stop));
  CHECK(ms >= 0.0f);
  CU(cuMemcpyDtoHAsync(out.data(), dy, n * sizeof(float), stream));
  CU(cuStreamQuery(stream));
  for (int i = 0; i < n; ++i)
    CHECK(out[i] == a * hx[i] + hy[i] + hbias[i % 4]);
  int count = 0;
  CU(cuMemcpyDtoH(&count, launches, sizeof count));
  CHECK(count == 1);

  // vecAdd by its mangled name; a device-to-device copy first.
  CUdeviceptr dz;
  CU(cuMemAlloc(&dz, n * sizeof(float)));
  CU(cuMemcpyDtoD(dz, dx, n * sizeof(float)));
  void *vargs[] = {&dx, &dz, &dy, &nn};
  CU(cuLaunchKernel(vecadd, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr,
                    vargs, nullptr));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(out.data(), dy, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    CHECK(out[i] == 2.0f * hx[i]);

  // The template instantiation, over memory set with cuMemsetD32.
  CUdeviceptr di;
  CU(cuMemAlloc(&di, 64 * sizeof(int)));
  CU(cuMemsetD32(di, 7, 64));
  void *targs[] = {&di};
  CU(cuLaunchKernel(times, 1, 1, 1, 64, 1, 1, 0, nullptr, targs, nullptr));
  int hi[64];
  CU(cuMemcpyDtoH(hi, di, sizeof hi));
  for (int i = 0; i < 64; ++i)
    CHECK(hi[i] == 21);
  CU(cuMemsetD8(di, 0x01, 8));
  CU(cuMemcpyDtoH(hi, di, 8));
  CHECK(hi[0] == 0x01010101 && hi[1] == 0x01010101);

  // Arguments packed in one buffer, each at its alignment.
  CUdeviceptr dd;
  CU(cuMemAlloc(&dd, 32 * sizeof(double)));
  struct {
    char tag;
    Pair p;
    short s;
    CUdeviceptr out;
  } buffer = {3, {0.5, 10}, 100, dd};
  size_t size = sizeof buffer;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buffer,
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  CU(cuLaunchKernel(packed, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra));
  double hd[32];
  CU(cuMemcpyDtoH(hd, dd, sizeof hd));
  for (int i = 0; i < 32; ++i)
    CHECK(hd[i] == 0.5 * i + 10 + 3 + 100);
  CHECK(cuLaunchKernel(packed, 1, 1, 1, 32, 1, 1, 0, nullptr, args, extra) ==
        CUDA_ERROR_INVALID_VALUE);
  // A bad launch shape is the call's error.
  CHECK(cuLaunchKernel(saxpy, 1, 1, 1, 2048, 1, 1, 0, nullptr, args,
                       nullptr) != CUDA_SUCCESS);

  // A cooperative launch: grid.sync() across 8 blocks.
  CUdeviceptr sums;
  CU(cuMemAlloc(&sums, 2 * sizeof(int)));
  CU(cuMemsetD32(sums, 0, 2));
  CUdeviceptr total = sums, seen = sums + sizeof(int);
  void *gargs[] = {&total, &seen};
  CU(cuLaunchCooperativeKernel(gridsum, 8, 1, 1, 64, 1, 1, 0, nullptr,
                               gargs));
  int hs[2];
  CU(cuMemcpyDtoH(hs, sums, sizeof hs));
  CHECK(hs[0] == 28 && hs[1] == 28);

  CU(cuEventDestroy(start));
  CU(cuEventDestroy(stop));
  CU(cuStreamDestroy(stream));
  CU(cuMemFree(dx));
  CU(cuMemFree(dy));
  CU(cuMemFree(dz));
  CU(cuMemFree(di));
  CU(cuMemFree(dd));
  CU(cuMemFree(sums));
}

static void test_memory() {
  // Pinned, mapped, managed and pitched memory; address ranges; pointer
  // attributes.
  void *pinned = nullptr;
  CU(cuMemAllocHost(&pinned, 4096));
  void *mapped = nullptr;
  CU(cuMemHostAlloc(&mapped, 4096, CU_MEMHOSTALLOC_DEVICEMAP));
  CUdeviceptr dmapped;
  CU(cuMemHostGetDevicePointer(&dmapped, mapped, 0));
  CUdeviceptr managed;
  CU(cuMemAllocManaged(&managed, 1024, CU_MEM_ATTACH_GLOBAL));
  unsigned type = 0;
  CU(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, managed));
  CHECK(type == CU_MEMORYTYPE_UNIFIED);
  CUdeviceptr pitched;
  size_t pitch = 0;
  CU(cuMemAllocPitch(&pitched, &pitch, 100, 8, 4));
  CHECK(pitch >= 100);
  CU(cuMemsetD2D8(pitched, pitch, 0xab, 100, 8));
  CUdeviceptr base;
  size_t bytes = 0;
  CU(cuMemGetAddressRange(&base, &bytes, pitched + pitch + 3));
  CHECK(base == pitched && bytes == pitch * 8);
  CU(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, pitched));
  CHECK(type == CU_MEMORYTYPE_DEVICE);
  int ordinal = -1;
  CU(cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                           pitched));
  CHECK(ordinal == 0);
  size_t free_bytes = 0, total = 0;
  CU(cuMemGetInfo(&free_bytes, &total));
  CHECK(total > 0 && free_bytes <= total);
  CUdeviceptr zero;
  CHECK(cuMemAlloc(&zero, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemFree(pitched + 1) == CUDA_ERROR_INVALID_VALUE);
  CU(cuMemFree(pitched));
  CU(cuMemFree(managed));
  CU(cuMemFreeHost(pinned));
  CU(cuMemFreeHost(mapped));
}

static void test_sticky(CUmodule mod) {
  CUfunction faulty;
  CU(cuModuleGetFunction(&faulty, mod, "faulty"));
  CUdeviceptr d;
  CU(cuMemAlloc(&d, 64));
  void *args[] = {&d};
  CUresult r = cuLaunchKernel(faulty, 1, 1, 1, 32, 1, 1, 0, nullptr, args,
                              nullptr);
  // The launch succeeds; the fault shows at the next synchronisation.
  CHECK(r == CUDA_SUCCESS);
  // The context is unusable from then on, as on a GPU.
  CHECK(cuCtxSynchronize() == CUDA_ERROR_ILLEGAL_ADDRESS);
  CUdeviceptr more;
  CHECK(cuMemAlloc(&more, 64) == CUDA_ERROR_ILLEGAL_ADDRESS);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODULE [MODULE2]\n", argv[0]);
    return 2;
  }
  test_errors_before_init();
  CU(cuInit(0));
  CUdevice dev;
  test_devices(&dev);
  CUcontext ctx;
  test_contexts(dev, &ctx);

  CUmodule mod, mod2;
  CU(cuModuleLoad(&mod, argv[1]));
  test_module(mod);
  // The same kernels from an image in memory, with JIT options.
  std::string image = read_file(argc > 2 ? argv[2] : argv[1]);
  char log[256] = "x";
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, reinterpret_cast<void *>(sizeof log)};
  CU(cuModuleLoadDataEx(&mod2, image.data(), 2, options, values));
  CHECK(log[0] == '\0');
  test_module(mod2);
  CU(cuModuleUnload(mod2));
  CHECK(cuModuleLoad(&mod2, "no-such-module.fatbin") ==
        CUDA_ERROR_FILE_NOT_FOUND);
  // NVIDIA PTX is JIT-compiled (one with no kernels too), unless it is for
  // a newer GPU.
  const char ptx_text[] = "//\n.version 8.0\n.target sm_90\n";
  CU(cuModuleLoadData(&mod2, ptx_text));
  CU(cuModuleUnload(mod2));
  const char ptx_newer[] = "//\n.version 8.0\n.target sm_100\n";
  CHECK(cuModuleLoadData(&mod2, ptx_newer) == CUDA_ERROR_INVALID_PTX);
  test_memory();
  test_sticky(mod);
  CU(cuModuleUnload(mod));
  CU(cuCtxDestroy(ctx));
  CHECK(cuCtxDestroy(ctx) == CUDA_ERROR_INVALID_CONTEXT);
  if (failures) {
    std::printf("%d checks failed\n", failures);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
