// driver_peer_calls.cu: a multi-GPU program written against the driver
// API, as IPC and peer-to-peer examples are: it asks the link between two
// devices (cuDeviceGetP2PAttribute), shares a buffer and an event through
// IPC handles (cuIpcGetMemHandle, cuIpcOpenMemHandle in a child process),
// sets stream attributes and the context's cache configuration, and
// records an event with flags. These calls were missing from cuemu's
// cuda.h, and such programs did not compile.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"

__global__ void fill(int *out, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = base + 3 * i;
}

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  CHECK(cuInit(0) == CUDA_SUCCESS);
  int count = 0;
  CHECK(cuDeviceGetCount(&count) == CUDA_SUCCESS);
  CHECK(count == 2);
  CUdevice d0, d1;
  CHECK(cuDeviceGet(&d0, 0) == CUDA_SUCCESS);

  // The link between the two devices; a device paired with itself and a
  // device out of range are CUDA_ERROR_INVALID_DEVICE.
  if (count >= 2) {
    CHECK(cuDeviceGet(&d1, 1) == CUDA_SUCCESS);
    int access = -1, rank = -1, atomics = -1, can = -1;
    CHECK(cuDeviceGetP2PAttribute(&access,
                                  CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED,
                                  d0, d1) == CUDA_SUCCESS);
    CHECK(cuDeviceCanAccessPeer(&can, d0, d1) == CUDA_SUCCESS);
    CHECK(access == can);
    CHECK(cuDeviceGetP2PAttribute(&rank,
                                  CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK,
                                  d1, d0) == CUDA_SUCCESS);
    CHECK(rank == 0);
    CHECK(cuDeviceGetP2PAttribute(
              &atomics, CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, d0,
              d1) == CUDA_SUCCESS);
    CHECK(atomics == can);
    CHECK(cuDeviceGetP2PAttribute(&access,
                                  CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED,
                                  d0, d0) == CUDA_ERROR_INVALID_DEVICE);
  }
  int value = 0;
  CHECK(cuDeviceGetP2PAttribute(&value,
                                CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, d0,
                                count + 3) == CUDA_ERROR_INVALID_DEVICE);

  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, d0) == CUDA_SUCCESS);
  CHECK(cuCtxSetCurrent(ctx) == CUDA_SUCCESS);

  // The context's cache configuration, read back as set.
  CUfunc_cache cache = CU_FUNC_CACHE_PREFER_NONE;
  CHECK(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_SHARED) == CUDA_SUCCESS);
  CHECK(cuCtxGetCacheConfig(&cache) == CUDA_SUCCESS);
  CHECK(cache == CU_FUNC_CACHE_PREFER_SHARED);
  CHECK(cuCtxGetCacheConfig(nullptr) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuCtxResetPersistingL2Cache() == CUDA_SUCCESS);

  // Stream attributes: a synchronization policy set on one stream is copied
  // to another.
  CUstream s1, s2;
  CHECK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
  CHECK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
  CUstreamAttrValue v;
  std::memset(&v, 0, sizeof v);
  v.syncPolicy = CU_SYNC_POLICY_YIELD;
  CHECK(cuStreamSetAttribute(s1, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY,
                             &v) == CUDA_SUCCESS);
  CHECK(cuStreamCopyAttributes(s2, s1) == CUDA_SUCCESS);
  CUstreamAttrValue got;
  std::memset(&got, 0, sizeof got);
  CHECK(cuStreamGetAttribute(s2, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY,
                             &got) == CUDA_SUCCESS);
  CHECK(got.syncPolicy == CU_SYNC_POLICY_YIELD);

  // A buffer filled by a kernel and an interprocess event, shared with a
  // child process through IPC handles.
  const int n = 256;
  CUdeviceptr buf;
  CHECK(cuMemAlloc(&buf, n * sizeof(int)) == CUDA_SUCCESS);
  fill<<<2, 128, 0, s1>>>(reinterpret_cast<int *>(buf), n, 7);
  CUevent done;
  CHECK(cuEventCreate(&done, CU_EVENT_INTERPROCESS |
                                 CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS);
  CHECK(cuEventRecordWithFlags(done, s1, CU_EVENT_RECORD_DEFAULT) ==
        CUDA_SUCCESS);
  CHECK(cuStreamSynchronize(s1) == CUDA_SUCCESS);
  CUipcMemHandle mem;
  CUipcEventHandle ev;
  CHECK(cuIpcGetMemHandle(&mem, buf) == CUDA_SUCCESS);
  CHECK(cuIpcGetEventHandle(&ev, done) == CUDA_SUCCESS);
  // A handle of this very process is not opened here (as CUDA).
  CUdeviceptr self = 0;
  CHECK(cuIpcOpenMemHandle(&self, mem, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) !=
        CUDA_SUCCESS);

  fflush(stdout);
  fflush(stderr);
  pid_t child = fork();
  if (child == 0) {
    int bad = 0;
    CUdeviceptr p = 0;
    CUevent e = nullptr;
    if (cuIpcOpenMemHandle(&p, mem, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) !=
            CUDA_SUCCESS ||
        cuIpcOpenEventHandle(&e, ev) != CUDA_SUCCESS ||
        cuEventSynchronize(e) != CUDA_SUCCESS)
      _exit(2);
    int host[n];
    if (cuMemcpyDtoH(host, p, sizeof host) != CUDA_SUCCESS)
      _exit(3);
    for (int i = 0; i < n; ++i)
      bad += host[i] != 7 + 3 * i;
    // The child writes back, which the parent sees in its own buffer.
    int mark = -1;
    if (cuMemcpyHtoD(p, &mark, sizeof mark) != CUDA_SUCCESS ||
        cuIpcCloseMemHandle(p) != CUDA_SUCCESS)
      _exit(4);
    _exit(bad ? 5 : 0);
  }
  int status = -1;
  CHECK(child > 0 && waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  int first = 0;
  CHECK(cuMemcpyDtoH(&first, buf, sizeof first) == CUDA_SUCCESS);
  CHECK(first == -1);

  CHECK(cuEventDestroy(done) == CUDA_SUCCESS);
  CHECK(cuMemFree(buf) == CUDA_SUCCESS);
  CHECK(cuStreamDestroy(s1) == CUDA_SUCCESS);
  CHECK(cuStreamDestroy(s2) == CUDA_SUCCESS);
  CHECK(cuDevicePrimaryCtxRelease(d0) == CUDA_SUCCESS);
  return finish();
}
