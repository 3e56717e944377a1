// memcpy_batch.cu: CUDA 12.8/13's batched copies as a data loader uses
// them: cudaMemcpyBatchAsync with attributes applying to runs of copies
// (host to device, then device to host), cudaMemcpy3DBatchAsync between
// pitched host rows, a CUDA array and device memory, the driver's
// cuMemcpyBatchAsync and cuMemPrefetchBatchAsync / cuMemDiscardBatchAsync,
// and CUDA 12.8's form with a failIdx through cuGetProcAddress at version
// 12080. Errors as CUDA documents them: the legacy stream, bad attribute
// indices or access orders, a copy past an allocation (no copy of the batch
// runs), a capturing stream (cudaErrorStreamCaptureUnsupported, the capture
// goes on).
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)
#define RT(call) CHECK((call) == cudaSuccess)

template <class T> __global__ void scale(T *v, int n, T by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= by;
}

__global__ void add_into(float *dst, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = a[i] + b[i];
}

static cudaMemcpyAttributes attributes(cudaMemcpySrcAccessOrder order,
                                       unsigned flags) {
  cudaMemcpyAttributes a = {};
  a.srcAccessOrder = order;
  a.flags = flags;
  return a;
}

// Three buffers in, a kernel on each, three out: two attribute runs.
static void batch_round_trip(cudaStream_t s) {
  const int n = 256;
  std::vector<float> h[3], back[3];
  float *d[3];
  for (int k = 0; k < 3; ++k) {
    h[k].resize(n);
    back[k].assign(n, -1.0f);
    for (int i = 0; i < n; ++i)
      h[k][i] = float(k * 1000 + i);
    RT(cudaMalloc(&d[k], n * sizeof(float)));
  }
  void *dsts[3] = {d[0], d[1], d[2]};
  const void *srcs[3] = {h[0].data(), h[1].data(), h[2].data()};
  size_t sizes[3] = {n * sizeof(float), n * sizeof(float), n * sizeof(float)};
  cudaMemcpyAttributes attrs[2] = {
      attributes(cudaMemcpySrcAccessOrderStream, 0),
      attributes(cudaMemcpySrcAccessOrderDuringApiCall,
                 cudaMemcpyFlagPreferOverlapWithCompute)};
  size_t idxs[2] = {0, 2};
  RT(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, idxs, 2, s));
  for (int k = 0; k < 3; ++k)
    scale<float><<<(n + 127) / 128, 128, 0, s>>>(d[k], n, 2.0f);
  add_into<<<(n + 127) / 128, 128, 0, s>>>(d[2], d[0], d[1], n);
  void *outs[3] = {back[0].data(), back[1].data(), back[2].data()};
  const void *ins[3] = {d[0], d[1], d[2]};
  cudaMemcpyAttributes any = attributes(cudaMemcpySrcAccessOrderAny, 0);
  size_t zero = 0;
  RT(cudaMemcpyBatchAsync(outs, ins, sizes, 3, &any, &zero, 1, s));
  RT(cudaStreamSynchronize(s));
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    ok = ok && back[0][i] == 2.0f * i && back[1][i] == 2.0f * (1000 + i) &&
         back[2][i] == back[0][i] + back[1][i];
  }
  CHECK(ok);

  // Errors: nothing is copied by a failing batch.
  std::vector<float> guard(n, 7.0f);
  void *gd[2] = {d[0], d[1]};
  const void *gs[2] = {guard.data(), guard.data()};
  size_t too_big[2] = {n * sizeof(float), (n + 1) * sizeof(float)};
  cudaMemcpyAttributes st = attributes(cudaMemcpySrcAccessOrderStream, 0);
  CHECK(cudaMemcpyBatchAsync(gd, gs, too_big, 2, &st, &zero, 1, s) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  float first = 0;
  RT(cudaMemcpy(&first, d[0], sizeof first, cudaMemcpyDeviceToHost));
  CHECK(first == 0.0f); // 2 * 0: the batch's first copy did not run
  // The legacy default stream, an index list not starting at 0 or not
  // increasing, more attributes than copies, an invalid access order, an
  // unknown flag: cudaErrorInvalidValue.
  CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, &st, &zero, 1, 0) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, &st, &zero, 1,
                             cudaStreamLegacy) == cudaErrorInvalidValue);
  size_t bad_first[2] = {1, 2}, not_increasing[2] = {0, 0};
  CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, bad_first, 2, s) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, not_increasing, 2,
                             s) == cudaErrorInvalidValue);
  size_t four[4] = {0, 1, 2, 3};
  cudaMemcpyAttributes four_attrs[4] = {st, st, st, st};
  CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, four_attrs, four, 4, s) ==
        cudaErrorInvalidValue);
  cudaMemcpyAttributes invalid = attributes(cudaMemcpySrcAccessOrderInvalid, 0);
  CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, &invalid, &zero, 1, s) ==
        cudaErrorInvalidValue);
  cudaMemcpyAttributes odd_flag = attributes(cudaMemcpySrcAccessOrderStream, 4);
  CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, &odd_flag, &zero, 1, s) ==
        cudaErrorInvalidValue);
  // The per-thread default stream is a stream of its own: accepted.
  RT(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, &st, &zero, 1,
                          cudaStreamPerThread));
  RT(cudaStreamSynchronize(cudaStreamPerThread));
  (void)cudaGetLastError();

  // A capturing stream: the call fails, the capture goes on.
  cudaGraph_t graph;
  RT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, &st, &zero, 1, s) ==
        cudaErrorStreamCaptureUnsupported);
  scale<float><<<(n + 127) / 128, 128, 0, s>>>(d[0], n, 3.0f);
  RT(cudaStreamEndCapture(s, &graph));
  size_t nodes = 0;
  RT(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(nodes == 1);
  RT(cudaGraphDestroy(graph));
  (void)cudaGetLastError();
  for (int k = 0; k < 3; ++k)
    RT(cudaFree(d[k]));
}

// A 6 x 4 x 2 box: host rows of 8 floats (layers of 5 rows) into a CUDA
// array at an offset, out of it into tightly packed device memory, then
// device to host with a row length and layer height of its own.
static void batch_3d(cudaStream_t s) {
  const size_t W = 6, H = 4, D = 2, RL = 8, LH = 5;
  std::vector<float> host(RL * LH * D);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = float(i);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  RT(cudaMalloc3DArray(&array, &fd, make_cudaExtent(W + 1, H + 1, D)));
  float *packed;
  RT(cudaMalloc(&packed, W * H * D * sizeof(float)));

  cudaMemcpy3DBatchOp ops[2] = {};
  ops[0].src.type = cudaMemcpyOperandTypePointer;
  ops[0].src.op.ptr.ptr = host.data();
  ops[0].src.op.ptr.rowLength = RL;
  ops[0].src.op.ptr.layerHeight = LH;
  ops[0].dst.type = cudaMemcpyOperandTypeArray;
  ops[0].dst.op.array.array = array;
  ops[0].dst.op.array.offset = {1, 1, 0};
  ops[0].extent = make_cudaExtent(W, H, D);
  ops[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  RT(cudaMemcpy3DBatchAsync(1, ops, 0, s));
  ops[1].src.type = cudaMemcpyOperandTypeArray;
  ops[1].src.op.array.array = array;
  ops[1].src.op.array.offset = {1, 1, 0};
  ops[1].dst.type = cudaMemcpyOperandTypePointer;
  ops[1].dst.op.ptr.ptr = packed;
  ops[1].extent = make_cudaExtent(W, H, D);
  ops[1].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  RT(cudaMemcpy3DBatchAsync(1, ops + 1, 0, s));
  scale<float><<<1, 64, 0, s>>>(packed, int(W * H * D), 10.0f);

  // Pointer to pointer: the extent's width is in bytes.
  std::vector<float> out(RL * LH * D, -1.0f);
  cudaMemcpy3DBatchOp back = {};
  back.src.type = cudaMemcpyOperandTypePointer;
  back.src.op.ptr.ptr = packed;
  back.dst.type = cudaMemcpyOperandTypePointer;
  back.dst.op.ptr.ptr = out.data();
  back.dst.op.ptr.rowLength = RL * sizeof(float);
  back.dst.op.ptr.layerHeight = LH;
  back.extent = make_cudaExtent(W * sizeof(float), H, D);
  back.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  RT(cudaMemcpy3DBatchAsync(1, &back, 0, s));
  RT(cudaStreamSynchronize(s));
  bool ok = true;
  for (size_t z = 0; z < D; ++z)
    for (size_t y = 0; y < LH; ++y)
      for (size_t x = 0; x < RL; ++x) {
        size_t i = (z * LH + y) * RL + x;
        float want = (x < W && y < H) ? 10.0f * host[i] : -1.0f;
        ok = ok && out[i] == want;
      }
  CHECK(ok);

  // Errors: a zero extent, a row length under the width, flags, a box past
  // the array.
  cudaMemcpy3DBatchOp bad = ops[1];
  bad.extent.depth = 0;
  CHECK(cudaMemcpy3DBatchAsync(1, &bad, 0, s) == cudaErrorInvalidValue);
  bad = ops[0];
  bad.src.op.ptr.rowLength = W - 1;
  CHECK(cudaMemcpy3DBatchAsync(1, &bad, 0, s) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy3DBatchAsync(1, ops, 1, s) == cudaErrorInvalidValue);
  bad = ops[0];
  bad.dst.op.array.offset = {2, 1, 0};
  CHECK(cudaMemcpy3DBatchAsync(1, &bad, 0, s) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy3DBatchAsync(1, ops, 0, 0) == cudaErrorInvalidValue);
  (void)cudaGetLastError();
  RT(cudaFreeArray(array));
  RT(cudaFree(packed));
}

// The driver's forms, and CUDA 12.8's cuMemcpyBatchAsync with a failIdx.
static void driver_batches(CUstream s) {
  const size_t n = 64;
  CUdeviceptr a, b;
  CU(cuMemAlloc(&a, n * sizeof(int)));
  CU(cuMemAlloc(&b, n * sizeof(int)));
  std::vector<int> h(n), back(n, 0);
  for (size_t i = 0; i < n; ++i)
    h[i] = int(3 * i + 1);
  CUdeviceptr dsts[2] = {a, b};
  CUdeviceptr srcs[2] = {(CUdeviceptr)(uintptr_t)h.data(),
                         (CUdeviceptr)(uintptr_t)h.data()};
  size_t sizes[2] = {n * sizeof(int), n * sizeof(int)};
  CUmemcpyAttributes attr = {};
  attr.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  size_t zero = 0;
  CU(cuMemcpyBatchAsync(dsts, srcs, sizes, 2, &attr, &zero, 1, s));
  scale<int><<<1, 64, 0, (cudaStream_t)s>>>((int *)(uintptr_t)b, int(n), 5);
  CU(cuMemcpyDtoHAsync(back.data(), b, n * sizeof(int), s));
  CU(cuStreamSynchronize(s));
  bool ok = true;
  for (size_t i = 0; i < n; ++i)
    ok = ok && back[i] == 5 * h[i];
  CHECK(ok);
  CHECK(cuMemcpyBatchAsync(dsts, srcs, sizes, 2, &attr, &zero, 1, 0) ==
        CUDA_ERROR_INVALID_VALUE);

  // CUDA 12.8's ABI: the index of the copy at fault, SIZE_MAX otherwise.
  void *fn = nullptr;
  CUdriverProcAddressQueryResult q;
  CU(cuGetProcAddress("cuMemcpyBatchAsync", &fn, 12080, 0, &q));
  CHECK(q == CU_GET_PROC_ADDRESS_SUCCESS && fn);
  if (fn) {
    PFN_cuMemcpyBatchAsync_v12080 v12080 = (PFN_cuMemcpyBatchAsync_v12080)fn;
    size_t fail = 0;
    size_t bad_sizes[2] = {n * sizeof(int), (n + 1) * sizeof(int)};
    CHECK(v12080(dsts, srcs, bad_sizes, 2, &attr, &zero, 1, &fail, s) ==
          CUDA_ERROR_INVALID_VALUE);
    CHECK(fail == 1);
    CHECK(v12080(dsts, srcs, sizes, 2, &attr, &zero, 1, &fail, 0) ==
          CUDA_ERROR_INVALID_VALUE);
    CHECK(fail == SIZE_MAX);
    CU(v12080(dsts, srcs, sizes, 2, &attr, &zero, 1, &fail, s));
  }
  void *fn13 = nullptr;
  CU(cuGetProcAddress("cuMemcpyBatchAsync", &fn13, 13000, 0, &q));
  CHECK(q == CU_GET_PROC_ADDRESS_SUCCESS && fn13 && fn13 != fn);
  CU(cuGetProcAddress("cuMemcpyBatchAsync", &fn, 12060, 0, &q));
  CHECK(q == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT && !fn);

  // Prefetch and discard batches of managed memory.
  CUdeviceptr m;
  CU(cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_GLOBAL));
  CUdeviceptr ranges[2] = {m, m + 2048};
  size_t lens[2] = {2048, 2048};
  CUmemLocation loc = {};
  loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
  loc.id = 0;
  CU(cuMemPrefetchBatchAsync(ranges, lens, 2, &loc, &zero, 1, 0, s));
  CU(cuMemDiscardBatchAsync(ranges, lens, 2, 0, s));
  CU(cuMemDiscardAndPrefetchBatchAsync(ranges, lens, 2, &loc, &zero, 1, 0, s));
  CHECK(cuMemDiscardBatchAsync(ranges, lens, 2, 1, s) ==
        CUDA_ERROR_INVALID_VALUE);
  CU(cuStreamSynchronize(s));
  CU(cuMemFree(m));
  CU(cuMemFree(a));
  CU(cuMemFree(b));
}

int main() {
  cudaStream_t s;
  RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  batch_round_trip(s);
  batch_3d(s);
  CU(cuInit(0));
  driver_batches((CUstream)s);
  RT(cudaStreamDestroy(s));
  return finish();
}
