// array_copies_in_order.cu: the stream copies with CUDA arrays and the
// stream attributes are in stream order without holding the host, as on a
// GPU: while a kernel holds the stream (it spins until the host raises a
// flag in mapped pinned memory), cudaMemcpy2DToArrayAsync,
// cudaMemcpy2DFromArrayAsync, the deprecated cudaMemcpyToArrayAsync and
// cudaMemcpyFromArrayAsync, cudaStreamSetAttribute/GetAttribute and
// cudaStreamIsCapturing all
// return at once (cuemu once ran them when issued, so the host waited for
// the held kernel); once released, the copies see the data that the kernels
// before them wrote, and the kernels after them see theirs. Also
// cudaFreeArray and cudaFreeMipmappedArray wait for the work queued on
// every device first, as cudaFree does (cuemu once freed a mipmapped
// array, and an array of another device than the current one, while a
// queued copy still wrote into it). Also
// cuDeviceGetP2PAttribute (the driver API), which answers as
// cudaDeviceGetP2PAttribute does on two emulated devices.
// CUEMU_OPTIONS: -std=c++17 -Wno-deprecated-declarations -lcuda
// NVCC_OPTIONS: -Wno-deprecated-declarations -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdlib>
#include <vector>

#include "../check.cuh"
#include "../ordered/ordered_kernels.cuh"

#define RT(call) CHECK((call) == cudaSuccess)

constexpr int kW = 64, kH = 16; // the array: kW x kH floats

// out[y * kW + x] = in[y * kW + x] + 1000 * y (a stage after the copy out).
__global__ void add_rows(const float *in, float *out) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * kW + x] = in[y * kW + x] + 1000.0f * (float)y;
}

static void copies(cudaStream_t s) {
  const size_t row = kW * sizeof(float), bytes = row * kH;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a, b;
  RT(cudaMallocArray(&a, &desc, kW, kH));
  RT(cudaMallocArray(&b, &desc, kW, kH));
  float *src, *mid, *out, *pinned_in, *pinned_out, *pinned_lin;
  RT(cudaMalloc(&src, bytes));
  RT(cudaMalloc(&mid, bytes));
  RT(cudaMalloc(&out, bytes));
  RT(cudaMallocHost(&pinned_in, bytes));
  RT(cudaMallocHost(&pinned_out, bytes));
  RT(cudaMallocHost(&pinned_lin, bytes));
  for (int i = 0; i < kW * kH; ++i) {
    pinned_in[i] = -1.0f;
    pinned_out[i] = pinned_lin[i] = 0.0f;
  }
  {
    Hold hold(5.0);
    hold_until<<<1, 32, 0, s>>>(hold.dflag);
    // Everything below is issued while the stream is held.
    fill<float><<<kH, kW, 0, s>>>(src, kW * kH, 2.0f, 1.0f); // 2i + 1
    RT(cudaMemcpy2DToArrayAsync(a, 0, 0, src, row, row, kH,
                                cudaMemcpyDeviceToDevice, s));
    RT(cudaMemcpy2DFromArrayAsync(mid, row, a, 0, 0, row, kH,
                                  cudaMemcpyDeviceToDevice, s));
    add_rows<<<kH, kW, 0, s>>>(mid, out);
    RT(cudaMemcpyAsync(pinned_out, out, bytes, cudaMemcpyDeviceToHost, s));
    // Pinned host memory into the array's third row on, across rows, and
    // back out from the same place.
    RT(cudaMemcpyToArrayAsync(a, 0, 2, pinned_in, 3 * row,
                              cudaMemcpyHostToDevice, s));
    RT(cudaMemcpyFromArrayAsync(pinned_lin, a, 0, 1, 5 * row,
                                cudaMemcpyDeviceToHost, s));
    // Stream attributes, set and read back while the stream is held.
    cudaLaunchAttributeValue v = {}, got = {};
    v.syncPolicy = cudaSyncPolicyYield;
    RT(cudaStreamSetAttribute(s, cudaLaunchAttributeSynchronizationPolicy,
                              &v));
    RT(cudaStreamGetAttribute(s, cudaLaunchAttributeSynchronizationPolicy,
                              &got));
    CHECK(got.syncPolicy == cudaSyncPolicyYield);
    // A capture query does not wait for the stream either.
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
    RT(cudaStreamIsCapturing(s, &status));
    CHECK(status == cudaStreamCaptureStatusNone);
    // Nothing has run yet: the host was not held (the valve did not fire).
    CHECK(cudaStreamQuery(s) == cudaErrorNotReady || streams_run_inline());
    CHECK(pinned_out[kW + 1] == 0.0f || streams_run_inline());
    CHECK(hold.release());
    RT(cudaStreamSynchronize(s));
  }
  // Worked out independently: src[i] = 2i + 1; out = src + 1000 * row.
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      int i = y * kW + x;
      CHECK(pinned_out[i] == 2.0f * (float)i + 1.0f + 1000.0f * (float)y);
    }
  // From row 1: row 1 is still 2i + 1, rows 2..4 are the pinned -1s, row 5
  // is 2i + 1 again.
  for (int i = 0; i < 5 * kW; ++i) {
    int at = kW + i;
    float want = (at >= 2 * kW && at < 5 * kW) ? -1.0f
                                               : 2.0f * (float)at + 1.0f;
    CHECK(pinned_lin[i] == want);
  }
  // A copy past the array's end is the call's error, at once.
  CHECK(cudaMemcpy2DToArrayAsync(a, 0, 1, src, row, row, kH,
                                 cudaMemcpyDeviceToDevice,
                                 s) == cudaErrorInvalidValue);
  CHECK(cudaMemcpyToArrayAsync(a, 0, kH - 1, pinned_in, 2 * row,
                               cudaMemcpyHostToDevice,
                               s) == cudaErrorInvalidValue);
  cudaGetLastError();
  RT(cudaFreeArray(a));
  RT(cudaFreeArray(b));
  RT(cudaFree(src));
  RT(cudaFree(mid));
  RT(cudaFree(out));
  RT(cudaFreeHost(pinned_in));
  RT(cudaFreeHost(pinned_out));
  RT(cudaFreeHost(pinned_lin));
}

// A copy into an array is queued behind a held kernel; the array is freed
// (from device 0 while the stream is device `device`'s): the free waits for
// the copy, so the stream is idle once it returns. The hold is released by
// its valve after 0.3 s, long after a free that does not wait returns.
static void frees_wait_for_queued_copies(int device, bool mipmapped) {
  const size_t row = kW * sizeof(float);
  RT(cudaSetDevice(device));
  cudaStream_t s;
  RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr, level = nullptr;
  cudaMipmappedArray_t mm = nullptr;
  if (mipmapped) {
    RT(cudaMallocMipmappedArray(&mm, &desc, make_cudaExtent(kW, kH, 0), 2));
    RT(cudaGetMipmappedArrayLevel(&level, mm, 0));
  } else {
    RT(cudaMallocArray(&a, &desc, kW, kH));
    level = a;
  }
  float *src;
  RT(cudaMalloc(&src, row * kH));
  {
    Hold hold(0.3);
    hold_until<<<1, 32, 0, s>>>(hold.dflag);
    RT(cudaMemcpy2DToArrayAsync(level, 0, 0, src, row, row, kH,
                                cudaMemcpyDeviceToDevice, s));
    RT(cudaSetDevice(0));
    if (mipmapped)
      RT(cudaFreeMipmappedArray(mm));
    else
      RT(cudaFreeArray(a));
    CHECK(cudaStreamQuery(s) == cudaSuccess); // the copy has run
    hold.release();
  }
  RT(cudaStreamSynchronize(s));
  RT(cudaStreamDestroy(s));
  RT(cudaFree(src));
}

// cuDeviceGetP2PAttribute on two devices, against cudaDeviceGetP2PAttribute.
static void p2p_attributes() {
  CHECK(cuInit(0) == CUDA_SUCCESS);
  const CUdevice_P2PAttribute attrs[] = {
      CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK,
      CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED,
      CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED,
      CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED};
  int can = -1;
  CHECK(cuDeviceCanAccessPeer(&can, 0, 1) == CUDA_SUCCESS && can == 1);
  for (CUdevice_P2PAttribute attr : attrs) {
    int drv = -1, rt = -2;
    CHECK(cuDeviceGetP2PAttribute(&drv, attr, 0, 1) == CUDA_SUCCESS);
    RT(cudaDeviceGetP2PAttribute(&rt, (cudaDeviceP2PAttr)attr, 0, 1));
    CHECK(drv == rt);
    // Rank 0 is the best link; the other attributes say "supported".
    CHECK(drv == (attr == CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK ? 0 : can));
  }
  int v = 0;
  CHECK(cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED,
                                1, 1) == CUDA_ERROR_INVALID_DEVICE);
  CHECK(cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED,
                                0, 2) == CUDA_ERROR_INVALID_DEVICE);
  CHECK(cuDeviceGetP2PAttribute(nullptr,
                                CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0,
                                1) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuDeviceGetP2PAttribute(&v, (CUdevice_P2PAttribute)42, 0, 1) ==
        CUDA_ERROR_INVALID_VALUE);
}

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  RT(cudaSetDeviceFlags(cudaDeviceMapHost));
  cudaStream_t s;
  RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  copies(s);
  RT(cudaStreamDestroy(s));
  RT(cudaSetDevice(1));
  RT(cudaSetDeviceFlags(cudaDeviceMapHost));
  frees_wait_for_queued_copies(0, true);
  frees_wait_for_queued_copies(1, false);
  RT(cudaSetDevice(0));
  p2p_attributes();
  return finish();
}
