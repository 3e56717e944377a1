// cuGetProcAddress and cudaGetDriverEntryPointByVersion with the per-thread flag
// (CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, cudaEnablePerThreadDefault
// Stream) give the per-thread spellings (cuStreamGetId_ptsz,
// cuLaunchKernel_ptsz, ...), whose stream 0 is the calling thread's own
// default stream; the legacy flag gives the functions whose stream 0 is
// the legacy default stream, one for the whole process. Two threads call
// through the pointers with stream 0. cuemu once ignored the flag.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <thread>

#include "../check.cuh"

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

struct entry_points {
  PFN_cuStreamGetId_v12000 get_id;
  PFN_cuLaunchKernel_v4000 launch;
  PFN_cuStreamSynchronize_v2000 sync;
};

static entry_points find(cuuint64_t flags) {
  entry_points e = {};
  CUdriverProcAddressQueryResult q;
  CHECK(cuGetProcAddress("cuStreamGetId", (void **)&e.get_id, 12000, flags, &q) ==
            CUDA_SUCCESS &&
        q == CU_GET_PROC_ADDRESS_SUCCESS && e.get_id);
  CHECK(cuGetProcAddress("cuLaunchKernel", (void **)&e.launch, 12000, flags, &q) ==
            CUDA_SUCCESS &&
        e.launch);
  CHECK(cuGetProcAddress("cuStreamSynchronize", (void **)&e.sync, 12000, flags, &q) ==
            CUDA_SUCCESS &&
        e.sync);
  return e;
}

int main() {
  CUcontext ctx;
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CHECK(cuDevicePrimaryCtxRetain(&ctx, 0) == CUDA_SUCCESS);
  CHECK(cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
  entry_points legacy = find(CU_GET_PROC_ADDRESS_LEGACY_STREAM);
  entry_points per_thread = find(CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
  CHECK(per_thread.get_id != legacy.get_id && per_thread.launch != legacy.launch);

  // The runtime's form gives the same per-thread function.
  void *runtime_get_id = nullptr;
  cudaDriverEntryPointQueryResult rq;
  CHECK(cudaGetDriverEntryPointByVersion("cuStreamGetId", &runtime_get_id, 12000,
                                         cudaEnablePerThreadDefaultStream, &rq) == cudaSuccess &&
        rq == cudaDriverEntryPointSuccess);
  CHECK(runtime_get_id == (void *)per_thread.get_id);

  CUfunction f = nullptr;
  CHECK(cudaGetFuncBySymbol(&f, (const void *)fill) == cudaSuccess);
  int *bufs[2] = {};
  CHECK(cudaMalloc(&bufs[0], 32 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&bufs[1], 32 * sizeof(int)) == cudaSuccess);

  unsigned long long legacy_ids[2] = {}, own_ids[2] = {};
  auto work = [&](int t) {
    CHECK(cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    CHECK(legacy.get_id(nullptr, &legacy_ids[t]) == CUDA_SUCCESS);
    CHECK(per_thread.get_id(nullptr, &own_ids[t]) == CUDA_SUCCESS);
    int v = 10 + t;
    void *args[] = {&bufs[t], &v};
    CHECK(per_thread.launch(f, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr) == CUDA_SUCCESS);
    CHECK(per_thread.sync(nullptr) == CUDA_SUCCESS);
  };
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  // Stream 0 of the legacy functions is one stream; of the per-thread
  // ones, each thread's own, neither of them the legacy one.
  CHECK(legacy_ids[0] == legacy_ids[1]);
  CHECK(own_ids[0] != own_ids[1]);
  CHECK(own_ids[0] != legacy_ids[0] && own_ids[1] != legacy_ids[0]);
  for (int t = 0; t < 2; ++t) {
    int h[32];
    CHECK(cudaMemcpy(h, bufs[t], sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int i = 0; i < 32; ++i)
      CHECK(h[i] == 10 + t);
    CHECK(cudaFree(bufs[t]) == cudaSuccess);
  }
  CHECK(cuDevicePrimaryCtxRelease(0) == CUDA_SUCCESS);
  return finish();
}
