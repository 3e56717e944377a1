// ids_occupancy.cu: identifiers, handles, entry points and occupancy, as a
// program that tunes its launches and calls the driver through
// cudaGetDriverEntryPoint does.
//  - cudaStreamGetId / cuStreamGetId: one identifier per stream, the same
//    through both APIs, never reused after a destroy; the legacy and
//    per-thread default streams have their own; cuCtxGetId: one per context.
//  - cudaGetKernel: a cudaKernel_t that cudaLaunchKernel and
//    cudaFuncGetAttributes take.
//  - cudaGetDriverEntryPoint(ByVersion) and cuGetProcAddress give the
//    driver's functions (typed by cudaTypedefs.h), NULL with "not found" for
//    a name the driver has not, "version not sufficient" for one newer than
//    the version asked.
//  - cudaOccupancyMaxPotentialBlockSizeVariableSMem (a lambda giving the
//    shared memory of each block size), ...WithFlags,
//    cudaOccupancyAvailableDynamicSMemPerBlock, and the driver's
//    cuOccupancyMaxPotentialBlockSize with a CUoccupancyB2DSize callback and
//    cuOccupancyAvailableDynamicSMemPerBlock on the same kernel compiled by
//    NVRTC, all against a reference worked out here from the device's
//    properties and the kernel's attributes.
//  - CUDA's error codes for bad arguments of each.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)
#define RT(call) CHECK((call) == cudaSuccess)

// A block-wide sum through static shared memory and a dynamic scratch of
// one float per thread.
__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float partial[1024];
  extern __shared__ float scratch[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  scratch[t] = i < n ? in[i] : 0.0f;
  partial[t] = scratch[t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s)
      partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = partial[0];
}

__global__ void fill(int *out, int value) { out[threadIdx.x] = value; }

static const char *jit_source = R"(
extern "C" __global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float partial[1024];
  extern __shared__ float scratch[];
  int t = threadIdx.x;
  scratch[t] = in[t];
  partial[t] = scratch[t];
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = partial[0] + n;
}
__device__ int counter;
__constant__ int step;
extern "C" __global__ void bump(int *seen) {
  counter += step;
  *seen = counter;
}
)";

// The occupancy rule of the device, worked out from its properties: blocks
// of `threads` threads with `smem` bytes of shared memory in all resident
// on one SM.
struct Reference {
  cudaDeviceProp p;
  int blocks(int threads, size_t static_smem, size_t dynamic) const {
    if (threads <= 0 || threads > p.maxThreadsPerBlock ||
        dynamic > p.sharedMemPerBlock)
      return 0;
    int warps = (threads + p.warpSize - 1) / p.warpSize;
    int n = p.maxThreadsPerMultiProcessor / (warps * p.warpSize);
    if (n > p.maxBlocksPerMultiProcessor)
      n = p.maxBlocksPerMultiProcessor;
    size_t smem = static_smem + dynamic;
    if (smem && p.sharedMemPerMultiprocessor / smem < (size_t)n)
      n = (int)(p.sharedMemPerMultiprocessor / smem);
    return n;
  }
  // The largest block with the most resident threads (sizes tried: the
  // limit, then the multiples of the warp size below it).
  template <class F>
  void best(size_t static_smem, F smem_of, int limit, int *grid,
            int *block) const {
    int best = 0, best_threads = 0, best_blocks = 0;
    for (int size = limit; size > 0;
         size = size % p.warpSize ? size / p.warpSize * p.warpSize
                                  : size - p.warpSize) {
      int b = blocks(size, static_smem, smem_of(size));
      if (b * size > best_threads) {
        best = size;
        best_threads = b * size;
        best_blocks = b;
      }
    }
    *block = best;
    *grid = best_blocks * p.multiProcessorCount;
  }
};

// A float of dynamic shared memory a thread (CUDA's header calls it from a
// __host__ __device__ function).
struct FloatPerThread {
  __host__ __device__ size_t operator()(int n) const {
    return (size_t)n * sizeof(float);
  }
};
struct Fixed {
  size_t bytes;
  __host__ __device__ size_t operator()(int) const { return bytes; }
};

static size_t eight_bytes_a_thread(int block_size) {
  return (size_t)block_size * 8;
}

static void stream_ids() {
  cudaStream_t a, b;
  RT(cudaStreamCreate(&a));
  RT(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  unsigned long long ida = 0, idb = 0, again = 0, legacy = 0, legacy2 = 0,
                     per_thread = 0;
  RT(cudaStreamGetId(a, &ida));
  RT(cudaStreamGetId(b, &idb));
  RT(cudaStreamGetId(a, &again));
  CHECK(ida != idb);
  CHECK(ida == again);
  unsigned long long drv = 0;
  CU(cuStreamGetId(a, &drv));
  CHECK(drv == ida);
  RT(cudaStreamGetId(0, &legacy));
  RT(cudaStreamGetId(cudaStreamLegacy, &legacy2));
  RT(cudaStreamGetId(cudaStreamPerThread, &per_thread));
  CHECK(legacy == legacy2);
  CHECK(per_thread != legacy && per_thread != ida && per_thread != idb);
  CHECK(legacy != ida && legacy != idb);
  // A destroyed stream is no stream; a new one never has an old identifier.
  RT(cudaStreamDestroy(a));
  CHECK(cudaStreamGetId(a, &again) == cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  cudaStream_t c;
  RT(cudaStreamCreate(&c));
  unsigned long long idc = 0;
  RT(cudaStreamGetId(c, &idc));
  CHECK(idc != ida && idc != idb);
  CHECK(cudaStreamGetId(c, nullptr) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cuStreamGetId(c, nullptr) == CUDA_ERROR_INVALID_VALUE);
  RT(cudaStreamDestroy(b));
  RT(cudaStreamDestroy(c));
}

static void context_ids() {
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext primary, current;
  CU(cuDevicePrimaryCtxRetain(&primary, dev));
  CU(cuCtxSetCurrent(primary));
  unsigned long long pid = 0, again = 0, cid = 0, cur = 0;
  CU(cuCtxGetId(primary, &pid));
  CU(cuCtxGetId(primary, &again));
  CHECK(pid == again);
  CUcontext made;
  CU(cuCtxCreate(&made, nullptr, 0, dev));
  CU(cuCtxGetCurrent(&current));
  CHECK(current == made);
  CU(cuCtxGetId(made, &cid));
  CU(cuCtxGetId(nullptr, &cur)); // the current context: `made`
  CHECK(cid == cur);
  CHECK(cid != pid);
  CHECK(cuCtxGetId(made, nullptr) == CUDA_ERROR_INVALID_VALUE);
  CU(cuCtxDestroy(made));
  CU(cuCtxSetCurrent(primary));
  CU(cuDevicePrimaryCtxRelease(dev));
}

static void kernels_by_handle() {
  cudaKernel_t k;
  RT(cudaGetKernel(&k, fill));
  int *d;
  RT(cudaMalloc(&d, 32 * sizeof(int)));
  int value = 41;
  void *args[] = {&d, &value};
  RT(cudaLaunchKernel((const void *)k, dim3(1), dim3(32), args, 0, 0));
  RT(cudaDeviceSynchronize());
  int h[32];
  RT(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 32; ++i)
    CHECK(h[i] == 41);
  cudaFuncAttributes a;
  RT(cudaFuncGetAttributes(&a, (const void *)k));
  CHECK(a.maxThreadsPerBlock > 0);
  CHECK(cudaGetKernel(nullptr, fill) == cudaErrorInvalidValue);
  cudaGetLastError();
  // Memory is not a kernel.
  CHECK(cudaGetKernel(&k, (const void *)d) == cudaErrorInvalidDeviceFunction);
  cudaGetLastError();
  RT(cudaFree(d));
}

static void entry_points() {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
  RT(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 12000,
                                      cudaEnableDefault, &q));
  CHECK(q == cudaDriverEntryPointSuccess && fn != nullptr);
  auto mem_alloc = reinterpret_cast<PFN_cuMemAlloc_v3020>(fn);
  fn = nullptr;
  RT(cudaGetDriverEntryPointByVersion("cuMemFree", &fn, 12000,
                                      cudaEnableDefault, &q));
  auto mem_free = reinterpret_cast<PFN_cuMemFree_v3020>(fn);
  fn = nullptr;
  RT(cudaGetDriverEntryPointByVersion("cuMemsetD32", &fn, 12000,
                                      cudaEnableLegacyStream, &q));
  auto memset32 = reinterpret_cast<PFN_cuMemsetD32_v3020>(fn);
  CUdeviceptr p = 0;
  CHECK(mem_alloc && mem_free && memset32);
  if (mem_alloc && mem_free && memset32) {
    CU(mem_alloc(&p, 64 * sizeof(unsigned)));
    CU(memset32(p, 0xabcd1234u, 64));
    unsigned h[64];
    RT(cudaMemcpy(h, (void *)p, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(h[0] == 0xabcd1234u && h[63] == 0xabcd1234u);
    CU(mem_free(p));
  }
  // The driver's own lookup, through the typedef of its own type.
  CUdriverProcAddressQueryResult s = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  void *get_id = nullptr;
  CU(cuGetProcAddress("cuStreamGetId", &get_id, 12000,
                      CU_GET_PROC_ADDRESS_DEFAULT, &s));
  CHECK(s == CU_GET_PROC_ADDRESS_SUCCESS && get_id != nullptr);
  if (get_id) {
    unsigned long long a = 0, b = 0;
    CU(reinterpret_cast<PFN_cuStreamGetId_v12000>(get_id)(0, &a));
    CU(cuStreamGetId(0, &b));
    CHECK(a == b);
  }
  // Not found: success, NULL, and the status says why.
  fn = &s;
  RT(cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 12000,
                                      cudaEnableDefault, &q));
  CHECK(fn == nullptr && q == cudaDriverEntryPointSymbolNotFound);
  fn = &s;
  CU(cuGetProcAddress("cuCtxGetId", &fn, 11080, CU_GET_PROC_ADDRESS_DEFAULT,
                      &s));
  CHECK(fn == nullptr && s == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
  // A version past the driver's, a NULL symbol, unknown flags.
  int driver = 0;
  CU(cuDriverGetVersion(&driver));
  CHECK(cuGetProcAddress("cuInit", &fn, driver + 10, 0, &s) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuGetProcAddress(nullptr, &fn, 12000, 0, &s) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cudaGetDriverEntryPointByVersion("cuInit", &fn, 12000, 0x100, &q) ==
        cudaErrorInvalidValue);
  cudaGetLastError();
}

static void runtime_occupancy(const Reference &ref) {
  cudaFuncAttributes attr;
  RT(cudaFuncGetAttributes(&attr, block_sum));
  CHECK(attr.sharedSizeBytes >= 1024 * sizeof(float));
  int grid = 0, block = 0, want_grid = -1, want_block = -1;
  FloatPerThread per_thread;
  RT(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, block_sum,
                                                    per_thread));
  ref.best(attr.sharedSizeBytes, per_thread, attr.maxThreadsPerBlock,
           &want_grid, &want_block);
  CHECK(block == want_block && grid == want_grid);
  CHECK(block > 0 && block % ref.p.warpSize == 0);
  // The answer is what the launch-time occupancy call says of that block.
  int resident = 0;
  RT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, block_sum, block,
                                                   per_thread(block)));
  CHECK(resident * ref.p.multiProcessorCount == grid);
  // A limit that is not a multiple of the warp size is tried as it is.
  RT(cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      &grid, &block, block_sum, per_thread, 100,
      cudaOccupancyDisableCachingOverride));
  ref.best(attr.sharedSizeBytes, per_thread, 100, &want_grid, &want_block);
  CHECK(block == want_block && grid == want_grid && block <= 100);
  // A fixed size, with flags.
  RT(cudaOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, block_sum,
                                                 4096, 0, cudaOccupancyDefault));
  ref.best(attr.sharedSizeBytes, Fixed{4096},
           attr.maxThreadsPerBlock, &want_grid, &want_block);
  CHECK(block == want_block && grid == want_grid);
  // The grid it gives runs the kernel.
  int n = grid * block;
  float *in, *out;
  RT(cudaMallocManaged(&in, n * sizeof(float)));
  RT(cudaMallocManaged(&out, grid * sizeof(float)));
  for (int i = 0; i < n; ++i)
    in[i] = 1.0f;
  block_sum<<<grid, block, block * sizeof(float)>>>(in, out, n);
  RT(cudaDeviceSynchronize());
  CHECK(out[0] == (float)block && out[grid - 1] == (float)block);
  RT(cudaFree(in));
  RT(cudaFree(out));

  // Available dynamic shared memory: two blocks of 256 threads share the
  // SM's shared memory, less the static part, within the kernel's limit.
  size_t avail = 0;
  RT(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, block_sum, 2, 256));
  size_t want = ref.p.sharedMemPerMultiprocessor / 2 - attr.sharedSizeBytes;
  if (want > (size_t)attr.maxDynamicSharedSizeBytes)
    want = attr.maxDynamicSharedSizeBytes;
  CHECK(avail == want);
  RT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, block_sum, 256,
                                                   avail));
  CHECK(resident >= 2);
  // More blocks than the threads allow: nothing is available.
  int too_many = ref.p.maxThreadsPerMultiProcessor / 256 + 1;
  RT(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, block_sum, too_many,
                                               256));
  CHECK(avail == 0);

  // Bad arguments.
  CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(
            (int *)nullptr, &block, block_sum, per_thread) ==
        cudaErrorInvalidValue);
  CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
            &grid, &block, block_sum, per_thread, 0, 7u) ==
        cudaErrorInvalidValue);
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(nullptr, block_sum, 1,
                                                  32) ==
        cudaErrorInvalidValue);
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, block_sum, 0, 32) ==
        cudaErrorInvalidValue);
  int host_value = 0;
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(
            &avail, (const void *)&host_value, 1, 32) ==
        cudaErrorInvalidDeviceFunction);
  cudaGetLastError();
}

static std::vector<char> jit_image() {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, jit_source, "sum.cu", 0, nullptr,
                           nullptr) == NVRTC_SUCCESS);
  const char *opts[] = {"-arch=sm_90"};
  CHECK(nvrtcCompileProgram(prog, 1, opts) == NVRTC_SUCCESS);
  size_t size = 0;
  CHECK(nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS);
  std::vector<char> image(size);
  CHECK(nvrtcGetCUBIN(prog, image.data()) == NVRTC_SUCCESS);
  nvrtcDestroyProgram(&prog);
  return image;
}

// One launch of `bump` of module `mod`: the counter it leaves.
static int bump(CUmodule mod, CUdeviceptr seen) {
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, "bump"));
  void *args[] = {&seen};
  CU(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, nullptr));
  int h = -1;
  CU(cuMemcpyDtoH(&h, seen, sizeof h));
  return h;
}

// Every cuModuleLoad of one file is a module of its own, with its own
// __device__ and __constant__ variables, as with CUDA.
static void module_instances(const std::vector<char> &image) {
  char path[] = "/tmp/ids_occupancy_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0)
    return;
  CHECK(write(fd, image.data(), image.size()) == (ssize_t)image.size());
  close(fd);
  CUmodule a, b, c;
  CU(cuModuleLoad(&a, path));
  CU(cuModuleLoad(&b, path));
  CHECK(a != b);
  CUdeviceptr ca, cb, sa, sb;
  size_t bytes = 0;
  CU(cuModuleGetGlobal(&ca, &bytes, a, "counter"));
  CHECK(bytes == sizeof(int));
  CU(cuModuleGetGlobal(&cb, &bytes, b, "counter"));
  CU(cuModuleGetGlobal(&sa, &bytes, a, "step"));
  CU(cuModuleGetGlobal(&sb, &bytes, b, "step"));
  CHECK(ca != cb && sa != sb);
  int one = 1, ten = 10, zero = 0;
  CU(cuMemcpyHtoD(sa, &one, sizeof one));
  CU(cuMemcpyHtoD(sb, &ten, sizeof ten));
  CU(cuMemcpyHtoD(ca, &zero, sizeof zero));
  CU(cuMemcpyHtoD(cb, &zero, sizeof zero));
  CUdeviceptr seen;
  CU(cuMemAlloc(&seen, sizeof(int)));
  CHECK(bump(a, seen) == 1);
  CHECK(bump(b, seen) == 10);
  CHECK(bump(a, seen) == 2);
  CHECK(bump(b, seen) == 20);
  // Unloading one leaves the other as it was; a new load starts afresh
  // (variables start at zero, as the image has them).
  CU(cuModuleUnload(a));
  CU(cuModuleLoad(&c, path));
  CUdeviceptr cc, sc;
  CU(cuModuleGetGlobal(&cc, &bytes, c, "counter"));
  CU(cuModuleGetGlobal(&sc, &bytes, c, "step"));
  CHECK(cc != cb);
  int h = -1;
  CU(cuMemcpyDtoH(&h, cc, sizeof h));
  CHECK(h == 0);
  int five = 5;
  CU(cuMemcpyHtoD(sc, &five, sizeof five));
  CHECK(bump(c, seen) == 5);
  CHECK(bump(b, seen) == 30);
  CU(cuMemFree(seen));
  CU(cuModuleUnload(b));
  CU(cuModuleUnload(c));
  unlink(path);
}

static void driver_occupancy(const Reference &ref,
                             const std::vector<char> &image) {
  CUmodule mod;
  CU(cuModuleLoadData(&mod, image.data()));
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, "block_sum"));
  int static_smem = 0, max_threads = 0, max_dynamic = 0;
  CU(cuFuncGetAttribute(&static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
  CU(cuFuncGetAttribute(&max_threads,
                        CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
  CU(cuFuncGetAttribute(&max_dynamic,
                        CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
  CHECK(static_smem >= (int)(1024 * sizeof(float)));
  int grid = 0, block = 0, want_grid = -1, want_block = -1;
  CU(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, eight_bytes_a_thread,
                                      0, 0));
  ref.best(static_smem, eight_bytes_a_thread, max_threads, &want_grid,
           &want_block);
  CHECK(block == want_block && grid == want_grid);
  // Without a callback, every block has the fixed size.
  CU(cuOccupancyMaxPotentialBlockSizeWithFlags(
      &grid, &block, f, nullptr, 16384, 512, CU_OCCUPANCY_DEFAULT));
  ref.best(static_smem, Fixed{16384}, 512, &want_grid,
           &want_block);
  CHECK(block == want_block && grid == want_grid);
  int resident = 0;
  CU(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      &resident, f, block, 16384, CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE));
  CHECK(resident == ref.blocks(block, static_smem, 16384));
  size_t avail = 0;
  CU(cuOccupancyAvailableDynamicSMemPerBlock(&avail, f, 4, 128));
  size_t want = ref.p.sharedMemPerMultiprocessor / 4 - static_smem;
  if (want > (size_t)max_dynamic)
    want = max_dynamic;
  CHECK(avail == want);
  // Clusters of two blocks of 256 threads: half the resident blocks.
  CUlaunchAttribute cluster;
  std::memset(&cluster, 0, sizeof cluster);
  cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  cluster.value.clusterDim.x = 2;
  cluster.value.clusterDim.y = 1;
  cluster.value.clusterDim.z = 1;
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof config);
  config.gridDimX = 2;
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = 256;
  config.blockDimY = config.blockDimZ = 1;
  config.sharedMemBytes = 1024;
  config.attrs = &cluster;
  config.numAttrs = 1;
  int clusters = 0;
  CU(cuOccupancyMaxActiveClusters(&clusters, f, &config));
  CHECK(clusters ==
        ref.blocks(256, static_smem, 1024) * ref.p.multiProcessorCount / 2);
  CHECK(cuOccupancyMaxActiveClusters(&clusters, f, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuOccupancyMaxPotentialBlockSize(nullptr, &block, f, nullptr, 0, 0) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuOccupancyMaxPotentialBlockSize(&grid, &block, nullptr, nullptr, 0,
                                         0) == CUDA_ERROR_INVALID_HANDLE);
  CHECK(cuOccupancyAvailableDynamicSMemPerBlock(&avail, f, -1, 128) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &resident, f, 128, 0, 2u) == CUDA_ERROR_INVALID_VALUE);
  CU(cuModuleUnload(mod));
}

int main() {
  CU(cuInit(0));
  RT(cudaFree(0));
  Reference ref;
  RT(cudaGetDeviceProperties(&ref.p, 0));
  stream_ids();
  context_ids();
  kernels_by_handle();
  entry_points();
  runtime_occupancy(ref);
  std::vector<char> image = jit_image();
  driver_occupancy(ref, image);
  module_instances(image);
  return finish();
}
