/*
 * launch_ex_attributes.cu: cudaLaunchKernelEx in its C++ template form and
 * its C form (cudaLaunchKernelExC) with CUDA 13's launch attributes:
 * cooperative (a grid-wide sync), cluster dimensions (checked against the
 * grid and the device, non-portable sizes after opting in), priority,
 * access-policy window, synchronization policy, memory sync domain,
 * programmatic stream serialization with cudaGridDependencySynchronize,
 * programmatic and launch-completion events, and the errors CUDA gives.
 * Also stream attributes and the cache / shared-memory configuration
 * calls. Prints PASS when all is well.
 */
#include <cstdio>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "../check.cuh"

namespace cg = cooperative_groups;

template <typename T> __global__ void axpy(T a, const T *x, T *y, int n) {
  cudaGridDependencySynchronize();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
  cudaTriggerProgrammaticLaunchCompletion();
}

/* Two phases separated by a grid-wide barrier: each block reads what
 * another block wrote before the barrier. */
__global__ void rotate_blocks(int *data, int *out) {
  cg::grid_group grid = cg::this_grid();
  data[blockIdx.x] = static_cast<int>(blockIdx.x) * 10;
  grid.sync();
  if (threadIdx.x == 0)
    out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
}

__global__ void mark(int *out) { out[blockIdx.x] = 1; }

static cudaLaunchConfig_t config(dim3 grid, dim3 block, cudaStream_t s,
                                 cudaLaunchAttribute *attrs, unsigned n) {
  cudaLaunchConfig_t c = {};
  c.gridDim = grid;
  c.blockDim = block;
  c.dynamicSmemBytes = 0;
  c.stream = s;
  c.attrs = attrs;
  c.numAttrs = n;
  return c;
}

int main() {
  const int n = 1000;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, 0) ==
        cudaSuccess);
  float *x = nullptr, *y = nullptr;
  CHECK(cudaMallocManaged(&x, n * sizeof *x) == cudaSuccess);
  CHECK(cudaMallocManaged(&y, n * sizeof *y) == cudaSuccess);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }

  /* Hints and programmatic serialization, the typed template form with a
   * template kernel (arguments converted as CUDA converts them). */
  cudaEvent_t done;
  CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming) ==
        cudaSuccess);
  cudaLaunchAttribute hints[7] = {};
  hints[0].id = cudaLaunchAttributePriority;
  hints[0].val.priority = -1;
  hints[1].id = cudaLaunchAttributeAccessPolicyWindow;
  hints[1].val.accessPolicyWindow.base_ptr = y;
  hints[1].val.accessPolicyWindow.num_bytes = n * sizeof *y;
  hints[1].val.accessPolicyWindow.hitRatio = 0.6f;
  hints[1].val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  hints[1].val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  hints[2].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  hints[2].val.programmaticStreamSerializationAllowed = 1;
  hints[3].id = cudaLaunchAttributeMemSyncDomain;
  hints[3].val.memSyncDomain = cudaLaunchMemSyncDomainRemote;
  hints[4].id = cudaLaunchAttributeSynchronizationPolicy;
  hints[4].val.syncPolicy = cudaSyncPolicyYield;
  hints[5].id = cudaLaunchAttributeLaunchCompletionEvent;
  hints[5].val.launchCompletionEvent.event = done;
  hints[6].id = cudaLaunchAttributeIgnore;
  cudaLaunchConfig_t c = config(dim3((n + 127) / 128), dim3(128), s, hints, 7);
  CHECK(cudaLaunchKernelEx(&c, axpy<float>, 2, x, y, n) == cudaSuccess);
  CHECK(cudaLaunchKernelEx(&c, axpy<float>, 1.0, x, y, n) == cudaSuccess);
  CHECK(cudaEventSynchronize(done) == cudaSuccess);
  CHECK(cudaEventQuery(done) == cudaSuccess);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && y[i] == 3.0f * i + 1.0f;
  CHECK(ok);

  /* Cooperative, by the C form. */
  const int blocks = 4;
  int *data = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&data, blocks * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&out, 16 * sizeof(int)) == cudaSuccess);
  cudaLaunchAttribute coop[1] = {};
  coop[0].id = cudaLaunchAttributeCooperative;
  coop[0].val.cooperative = 1;
  c = config(dim3(blocks), dim3(32), s, coop, 1);
  void *args[] = {&data, &out};
  CHECK(cudaLaunchKernelExC(&c, reinterpret_cast<const void *>(rotate_blocks),
                            args) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  for (int b = 0; b < blocks; ++b)
    CHECK(out[b] == ((b + 1) % blocks) * 10);

  /* Clusters: the cluster must divide the grid, and hold at most 8 blocks
   * unless the kernel opts in to non-portable sizes (16). */
  cudaLaunchAttribute cluster[1] = {};
  cluster[0].id = cudaLaunchAttributeClusterDimension;
  cluster[0].val.clusterDim.x = 2;
  cluster[0].val.clusterDim.y = 1;
  cluster[0].val.clusterDim.z = 1;
  c = config(dim3(8), dim3(32), s, cluster, 1);
  CHECK(cudaLaunchKernelEx(&c, mark, out) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(out[7] == 1);
  cluster[0].val.clusterDim.x = 3;
  CHECK(cudaLaunchKernelEx(&c, mark, out) == cudaErrorInvalidClusterSize);
  CHECK(cudaGetLastError() == cudaErrorInvalidClusterSize);
  cluster[0].val.clusterDim.x = 16;
  c = config(dim3(16), dim3(32), s, cluster, 1);
  CHECK(cudaLaunchKernelEx(&c, mark, out) == cudaErrorInvalidClusterSize);
  CHECK(cudaFuncSetAttribute(mark,
                             cudaFuncAttributeNonPortableClusterSizeAllowed,
                             1) == cudaSuccess);
  CHECK(cudaLaunchKernelEx(&c, mark, out) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(out[15] == 1);
  cudaGetLastError();

  /* Cluster occupancy: the largest cluster (16 now that the kernel allows
   * non-portable sizes), and how many clusters of 4 blocks of 32 threads
   * are resident at once: every SM holds 32 such blocks. */
  int largest = 0, active = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) ==
        cudaSuccess);
  CHECK(cudaOccupancyMaxPotentialClusterSize(&largest, mark, &c) ==
        cudaSuccess);
  CHECK(largest == 16);
  cluster[0].val.clusterDim.x = 4;
  CHECK(cudaOccupancyMaxActiveClusters(&active, mark, &c) == cudaSuccess);
  CHECK(active == 32 * sms / 4);
  c.numAttrs = 0;
  CHECK(cudaOccupancyMaxActiveClusters(&active, mark, &c) ==
        cudaErrorInvalidClusterSize);
  cudaGetLastError();

  /* Bad attributes. */
  cudaLaunchAttribute bad[1] = {};
  c = config(dim3(1), dim3(32), s, bad, 1);
  bad[0].id = cudaLaunchAttributeAccessPolicyWindow;
  bad[0].val.accessPolicyWindow.hitRatio = 2.0f;
  CHECK(cudaLaunchKernelEx(&c, mark, out) == cudaErrorInvalidValue);
  bad[0].id = cudaLaunchAttributeProgrammaticEvent;
  cudaEvent_t timed;
  CHECK(cudaEventCreate(&timed) == cudaSuccess);
  bad[0].val.programmaticEvent.event = timed; /* it must not time */
  CHECK(cudaLaunchKernelEx(&c, mark, out) == cudaErrorInvalidValue);
  bad[0].id = cudaLaunchAttributeDeviceUpdatableKernelNode;
  bad[0].val.deviceUpdatableKernelNode.deviceUpdatable = 1;
  CHECK(cudaLaunchKernelEx(&c, mark, out) == cudaErrorInvalidValue);
  bad[0].id = static_cast<cudaLaunchAttributeID>(15);
  CHECK(cudaLaunchKernelEx(&c, mark, out) == cudaErrorInvalidValue);
  cudaGetLastError();

  /* Stream attributes. */
  cudaStreamAttrValue v = {};
  v.accessPolicyWindow = hints[1].val.accessPolicyWindow;
  CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow,
                               &v) == cudaSuccess);
  cudaStreamAttrValue back = {};
  CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow,
                               &back) == cudaSuccess);
  CHECK(back.accessPolicyWindow.base_ptr == y &&
        back.accessPolicyWindow.num_bytes == n * sizeof *y &&
        back.accessPolicyWindow.hitRatio == 0.6f &&
        back.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting);
  v.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
  CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow,
                               &v) == cudaErrorInvalidValue);
  v.syncPolicy = cudaSyncPolicyBlockingSync;
  CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy,
                               &v) == cudaSuccess);
  CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy,
                               &back) == cudaSuccess &&
        back.syncPolicy == cudaSyncPolicyBlockingSync);
  int least = 0, greatest = 0, priority = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess);
  v.priority = greatest;
  CHECK(cudaStreamSetAttribute(s, cudaStreamAttributePriority, &v) ==
        cudaSuccess);
  CHECK(cudaStreamGetPriority(s, &priority) == cudaSuccess &&
        priority == greatest);
  cudaStream_t t;
  CHECK(cudaStreamCreate(&t) == cudaSuccess);
  CHECK(cudaStreamCopyAttributes(t, s) == cudaSuccess);
  CHECK(cudaStreamGetAttribute(t, cudaStreamAttributeSynchronizationPolicy,
                               &back) == cudaSuccess &&
        back.syncPolicy == cudaSyncPolicyBlockingSync);
  /* The persisting lines can be reset at any time. */
  CHECK(cudaCtxResetPersistingL2Cache() == cudaSuccess);
  cudaGetLastError();

  /* Cache and shared-memory preferences: accepted, recorded, queryable. */
  cudaFuncCache cache = cudaFuncCachePreferNone;
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared) == cudaSuccess);
  CHECK(cudaDeviceGetCacheConfig(&cache) == cudaSuccess &&
        cache == cudaFuncCachePreferShared);
  CHECK(cudaFuncSetCacheConfig(mark, cudaFuncCachePreferL1) == cudaSuccess);
  CHECK(cudaFuncSetCacheConfig(axpy<float>, cudaFuncCachePreferEqual) ==
        cudaSuccess);
  CHECK(cudaDeviceSetCacheConfig(static_cast<cudaFuncCache>(7)) ==
        cudaErrorInvalidValue);
  /* The shared-memory bank calls are deprecated in CUDA 13. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  cudaSharedMemConfig bank = cudaSharedMemBankSizeDefault;
  CHECK(cudaFuncSetSharedMemConfig(mark, cudaSharedMemBankSizeEightByte) ==
        cudaSuccess);
  CHECK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte) ==
        cudaSuccess);
  CHECK(cudaDeviceGetSharedMemConfig(&bank) == cudaSuccess &&
        bank == cudaSharedMemBankSizeFourByte);
#pragma GCC diagnostic pop
  int on_stack = 0;
  CHECK(cudaFuncSetCacheConfig(static_cast<const void *>(&on_stack),
                               cudaFuncCachePreferL1) ==
        cudaErrorInvalidDeviceFunction);
  CHECK(cudaGetLastError() == cudaErrorInvalidDeviceFunction);

  CHECK(cudaStreamDestroy(t) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  return finish();
}
