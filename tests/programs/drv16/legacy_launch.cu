/*
 * legacy_launch.cu: the launch calls of before CUDA 4.0 that CUDA 13's
 * cuda.h still declares, as an old driver-API program uses them: the block
 * shape, dynamic shared memory and parameters set one by one
 * (cuFuncSetBlockShape, cuFuncSetSharedSize, cuParamSetf/i/v,
 * cuParamSetSize) and cuLaunchGrid, cuLaunchGridAsync in a stream and
 * cuLaunch (one block); a second launch with one parameter changed;
 * cuFuncSetSharedMemConfig; and the errors of each. Prints PASS when all
 * is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#define CUDA_ENABLE_DEPRECATED 1
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

__global__ void axpy(float a, const float *x, float *y, int n) {
  const int i = blockIdx.y * gridDim.x * blockDim.x + blockIdx.x * blockDim.x +
                threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

/* Reverses each block's part of v through dynamic shared memory. */
__global__ void reverse_blocks(int *v) {
  extern __shared__ int tile[];
  const int base = blockIdx.x * blockDim.x;
  tile[threadIdx.x] = v[base + threadIdx.x];
  __syncthreads();
  v[base + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

/* The parameter offsets of axpy, each at its alignment. */
constexpr int kA = 0, kX = 8, kY = 16, kN = 24, kSize = 28;

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));

  CUfunction f_axpy, f_reverse;
  CHECK(cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&f_axpy),
                            reinterpret_cast<const void *>(axpy)) == cudaSuccess);
  CHECK(cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&f_reverse),
                            reinterpret_cast<const void *>(reverse_blocks)) ==
        cudaSuccess);

  const int n = 1000; /* 8 blocks of 128, the last partial */
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = 0.5f * i;
    hy[i] = 1.0f;
  }
  CUdeviceptr x, y;
  CU(cuMemAlloc(&x, n * sizeof(float)));
  CU(cuMemAlloc(&y, n * sizeof(float)));
  CU(cuMemcpyHtoD(x, hx.data(), n * sizeof(float)));
  CU(cuMemcpyHtoD(y, hy.data(), n * sizeof(float)));

  CU(cuFuncSetBlockShape(f_axpy, 128, 1, 1));
  CU(cuParamSetf(f_axpy, kA, 2.0f));
  void *px = reinterpret_cast<void *>(x), *py = reinterpret_cast<void *>(y);
  CU(cuParamSetv(f_axpy, kX, &px, sizeof px));
  CU(cuParamSetv(f_axpy, kY, &py, sizeof py));
  CU(cuParamSeti(f_axpy, kN, n));
  CU(cuParamSetSize(f_axpy, kSize));
  /* A grid of 4 x 2 blocks. */
  CU(cuLaunchGrid(f_axpy, 4, 2));
  CU(cuCtxSynchronize());
  std::vector<float> got(n);
  CU(cuMemcpyDtoH(got.data(), y, n * sizeof(float)));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += got[i] != 1.0f + 2.0f * 0.5f * i;
  CHECK(bad == 0);

  /* The state stays: only a changes, and the launch goes to a stream. */
  CU(cuParamSetf(f_axpy, kA, -2.0f));
  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CU(cuLaunchGridAsync(f_axpy, 8, 1, s));
  CU(cuStreamSynchronize(s));
  CU(cuMemcpyDtoH(got.data(), y, n * sizeof(float)));
  bad = 0;
  for (int i = 0; i < n; ++i) bad += got[i] != 1.0f;
  CHECK(bad == 0);

  /* Dynamic shared memory, one block by cuLaunch, then four by grid. */
  const int b = 64;
  std::vector<int> hv(4 * b);
  for (int i = 0; i < 4 * b; ++i) hv[i] = i;
  CUdeviceptr v;
  CU(cuMemAlloc(&v, hv.size() * sizeof(int)));
  CU(cuMemcpyHtoD(v, hv.data(), hv.size() * sizeof(int)));
  void *pv = reinterpret_cast<void *>(v);
  CU(cuFuncSetBlockShape(f_reverse, b, 1, 1));
  CU(cuFuncSetSharedSize(f_reverse, b * sizeof(int)));
  CU(cuParamSetv(f_reverse, 0, &pv, sizeof pv));
  CU(cuParamSetSize(f_reverse, sizeof pv));
  CU(cuLaunch(f_reverse));
  CU(cuCtxSynchronize());
  std::vector<int> gv(4 * b);
  CU(cuMemcpyDtoH(gv.data(), v, gv.size() * sizeof(int)));
  bad = 0;
  for (int i = 0; i < 4 * b; ++i) bad += gv[i] != (i < b ? b - 1 - i : i);
  CHECK(bad == 0);
  CU(cuLaunchGrid(f_reverse, 4, 1));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(gv.data(), v, gv.size() * sizeof(int)));
  bad = 0;
  for (int i = 0; i < 4 * b; ++i) {
    const int blk = i / b, j = i % b;
    const int want = blk == 0 ? i : blk * b + (b - 1 - j);
    bad += gv[i] != want;
  }
  CHECK(bad == 0);

  CU(cuFuncSetSharedMemConfig(f_reverse, CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE));

  /* Errors. */
  CHECK(cuFuncSetBlockShape(f_axpy, 0, 1, 1) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuParamSetv(f_axpy, 4092, &px, sizeof px) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuParamSetSize(f_axpy, 4097) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuLaunch(nullptr) == CUDA_ERROR_INVALID_HANDLE);
  CHECK(cuFuncSetBlockShape(nullptr, 1, 1, 1) == CUDA_ERROR_INVALID_HANDLE);
  CHECK(cuFuncSetSharedMemConfig(f_reverse, static_cast<CUsharedconfig>(7)) ==
        CUDA_ERROR_INVALID_VALUE);

  CU(cuStreamDestroy(s));
  CU(cuMemFree(x));
  CU(cuMemFree(y));
  CU(cuMemFree(v));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
