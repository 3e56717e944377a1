/*
 * green_contexts.cu: green contexts as a partitioning program uses them:
 * the device's SM resource, a split into groups of 2 SMs (ignoring
 * co-scheduling) with the remainder, a descriptor of two groups, a green context with that many
 * SMs (its resource, its context's resource, its identifier), a stream of
 * it running a kernel (cuStreamGetGreenCtx, cuStreamGetCtx_v2), its events,
 * and the errors: another resource type, a group split again, groups of two
 * splits, a missing CU_GREEN_CTX_DEFAULT_STREAM, a blocking stream, a
 * destroyed green context. Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include <cstdio>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

__global__ void iota(int *v) {
  v[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * blockDim.x + threadIdx.x;
}

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext primary;
  CU(cuDevicePrimaryCtxRetain(&primary, dev));
  CU(cuCtxSetCurrent(primary));
  int sms = 0;
  CU(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));

  CUdevResource whole = {};
  CU(cuDeviceGetDevResource(dev, &whole, CU_DEV_RESOURCE_TYPE_SM));
  CHECK(whole.type == CU_DEV_RESOURCE_TYPE_SM &&
        whole.sm.smCount == static_cast<unsigned>(sms));
  CHECK(whole.sm.minSmPartitionSize >= 1 && whole.sm.smCoscheduledAlignment >= 1);
  CHECK(cuDeviceGetDevResource(dev, &whole, CU_DEV_RESOURCE_TYPE_INVALID) ==
        CUDA_ERROR_INVALID_RESOURCE_TYPE);

  /* The whole device is one group at the default rules when it has fewer
   * than twice the minimum partition. */
  unsigned groups = 0;
  CU(cuDevSmResourceSplitByCount(nullptr, &groups, &whole, nullptr, 0,
                                 whole.sm.minSmPartitionSize));
  CHECK(groups == static_cast<unsigned>(sms) / whole.sm.minSmPartitionSize);
  /* How many groups of 2 SMs, ignoring co-scheduling, then the split
   * itself. */
  const unsigned kFlags = CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING;
  CU(cuDevSmResourceSplitByCount(nullptr, &groups, &whole, nullptr, kFlags, 2));
  CHECK(groups == static_cast<unsigned>(sms) / 2 && groups >= 2);
  std::vector<CUdevResource> parts(groups);
  CUdevResource rest = {};
  unsigned asked = groups;
  CU(cuDevSmResourceSplitByCount(parts.data(), &asked, &whole, &rest, kFlags, 2));
  CHECK(asked == groups);
  for (unsigned i = 0; i < asked; ++i) CHECK(parts[i].sm.smCount == 2);
  CHECK(rest.sm.smCount == static_cast<unsigned>(sms) - 2 * groups);
  /* A group of a split is not split again. */
  unsigned again = 1;
  CUdevResource sub;
  CHECK(cuDevSmResourceSplitByCount(&sub, &again, &parts[0], nullptr, kFlags, 2) ==
        CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
  CHECK(cuDevSmResourceSplitByCount(&sub, &again, &whole, nullptr, 0, sms + 1) ==
        CUDA_ERROR_INVALID_VALUE);

  /* Two groups of one split make a descriptor of 4 SMs. */
  CUdevResourceDesc desc;
  CU(cuDevResourceGenerateDesc(&desc, parts.data(), 2));
  CUdevResource other[2];
  unsigned two = 2;
  CU(cuDevSmResourceSplitByCount(other, &two, &whole, nullptr, kFlags, 2));
  CUdevResource mixed[2] = {parts[0], other[1]};
  CUdevResourceDesc bad_desc;
  CHECK(cuDevResourceGenerateDesc(&bad_desc, mixed, 2) ==
        CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);

  CUgreenCtx green;
  CHECK(cuGreenCtxCreate(&green, desc, dev, 0) == CUDA_ERROR_INVALID_VALUE);
  CU(cuGreenCtxCreate(&green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
  /* Creating it set nothing current. */
  CUcontext cur;
  CU(cuCtxGetCurrent(&cur));
  CHECK(cur == primary);
  CUdevResource got = {};
  CU(cuGreenCtxGetDevResource(green, &got, CU_DEV_RESOURCE_TYPE_SM));
  CHECK(got.sm.smCount == 4);
  CUcontext gctx;
  CU(cuCtxFromGreenCtx(&gctx, green));
  CHECK(gctx != nullptr && gctx != primary);
  CU(cuCtxGetDevResource(gctx, &got, CU_DEV_RESOURCE_TYPE_SM));
  CHECK(got.sm.smCount == 4);
  CU(cuCtxGetDevResource(primary, &got, CU_DEV_RESOURCE_TYPE_SM));
  CHECK(got.sm.smCount == static_cast<unsigned>(sms));
  unsigned long long id = 0, ctx_id = 0;
  CU(cuGreenCtxGetId(green, &id));
  CU(cuCtxGetId(gctx, &ctx_id));
  CHECK(id != 0 && id == ctx_id);

  /* A stream of the green context runs a kernel. */
  CUstream s;
  CHECK(cuGreenCtxStreamCreate(&s, green, CU_STREAM_DEFAULT, 0) ==
        CUDA_ERROR_INVALID_VALUE);
  CU(cuGreenCtxStreamCreate(&s, green, CU_STREAM_NON_BLOCKING, 0));
  CUgreenCtx of = nullptr;
  CU(cuStreamGetGreenCtx(s, &of));
  CHECK(of == green);
  CUcontext pctx = nullptr;
  CUgreenCtx pgreen = nullptr;
  CU(cuStreamGetCtx_v2(s, &pctx, &pgreen));
  CHECK(pctx == primary && pgreen == green);
  CUstream plain;
  CU(cuStreamCreate(&plain, CU_STREAM_NON_BLOCKING));
  CU(cuStreamGetGreenCtx(plain, &of));
  CHECK(of == nullptr);

  CUdeviceptr v;
  CU(cuMemAlloc(&v, 256 * sizeof(int)));
  iota<<<2, 128, 0, s>>>(reinterpret_cast<int *>(v));
  CUevent e;
  CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
  CU(cuGreenCtxRecordEvent(green, e));
  CU(cuEventSynchronize(e));
  CU(cuGreenCtxWaitEvent(green, e));
  std::vector<int> host(256);
  CU(cuMemcpyDtoH(host.data(), v, host.size() * sizeof(int)));
  int bad = 0;
  for (int i = 0; i < 256; ++i) bad += host[i] != i;
  CHECK(bad == 0);

  CU(cuEventDestroy(e));
  CU(cuStreamDestroy(plain));
  CU(cuStreamDestroy(s));
  CU(cuMemFree(v));
  CU(cuGreenCtxDestroy(green));
  CHECK(cuGreenCtxDestroy(green) == CUDA_ERROR_INVALID_CONTEXT);
  CHECK(cuCtxFromGreenCtx(&gctx, green) == CUDA_ERROR_INVALID_CONTEXT);
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
