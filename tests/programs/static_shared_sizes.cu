/*
 * static_shared_sizes.cu: a kernel's static __shared__ size is known to the
 * device from the program's start, as nvcc's compile makes it known
 * (issue 12): cudaFuncGetAttributes' sharedSizeBytes and occupancy before
 * any launch, the launch's check of static plus dynamic shared memory on
 * the first launch, for plain kernels, kernel templates (a header's, with
 * an unnamed template parameter) and a kernel that is never launched; and
 * `__shared__ alignas(N)`, which nvcc accepts (a samples-collection form);
 * and the __shared__ variables of the __device__ functions a kernel can
 * call, which nvcc counts in the kernel's size (inlined or not, two
 * levels deep, two instances of a function template: nvcc 13.0's
 * --resource-usage says 448, 256 and 48 bytes smem).
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include "check.cuh"
#include "static_shared_sizes.cuh"

__global__ void big_tile(float *out) {
  __shared__ float tile[40 * 256]; /* 40 KiB */
  tile[threadIdx.x] = (float)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

__global__ void two_arrays(int *out) {
  __shared__ int a[100];
  __shared__ double b[10];
  a[threadIdx.x] = (int)threadIdx.x;
  if (threadIdx.x < 10)
    b[threadIdx.x] = 1.0;
  __syncthreads();
  out[threadIdx.x] = a[99 - threadIdx.x] + (int)b[0];
}

__global__ void never_launched(int *out) {
  __shared__ char bytes[3000];
  bytes[threadIdx.x] = 1;
  out[0] = bytes[0];
}

__global__ void no_shared(float *out) { out[threadIdx.x] = 1.0f; }

__global__ void aligned_tile(float *out, int *misaligned) {
  __shared__ alignas(alignof(float4)) float As[16][16];
  As[threadIdx.y][threadIdx.x] = (float)(threadIdx.x + 16 * threadIdx.y);
  if (reinterpret_cast<unsigned long long>(&As[0][0]) % alignof(float4))
    *misaligned = 1;
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = As[threadIdx.x][threadIdx.y];
}

__device__ int gather(int v) {
  __shared__ int slots[64];
  slots[threadIdx.x % 64] = v;
  __syncthreads();
  return slots[0];
}

__device__ __noinline__ int relay(int v) {
  __shared__ float tile[32];
  tile[threadIdx.x % 32] = (float)v;
  __syncthreads();
  return gather((int)tile[0]);
}

template <int N> __device__ int part(int v) {
  __shared__ int cells[N];
  cells[threadIdx.x % N] = v;
  __syncthreads();
  return cells[0];
}

__global__ void calls_two_levels(int *out) {
  __shared__ int own[16];
  if (threadIdx.x < 16)
    own[threadIdx.x] = 1;
  __syncthreads();
  int r = relay(own[0]);
  if (threadIdx.x == 0)
    out[0] = r;
}

__global__ void calls_one(int *out) { out[0] = gather(2); }

__global__ void calls_instances(int *out) { out[0] = part<8>(1) + part<4>(2); }

int main() {
  cudaFuncAttributes fa;
  /* A callee's __shared__ variables count (nvcc: 448, 256, 48). */
  CHECK(cudaFuncGetAttributes(&fa, calls_two_levels) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 16 * 4 + 32 * 4 + 64 * 4);
  CHECK(cudaFuncGetAttributes(&fa, calls_one) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 64 * 4);
  CHECK(cudaFuncGetAttributes(&fa, calls_instances) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 8 * 4 + 4 * 4);
  cudaFunction_t fn;
  int bytes = 0;
  CHECK(cudaGetFuncBySymbol(&fn, (const void *)calls_two_levels) ==
        cudaSuccess);
  CHECK(cuFuncGetAttribute(&bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                           (CUfunction)fn) == CUDA_SUCCESS);
  CHECK(bytes == 448);
  int *calls_out;
  CHECK(cudaMallocManaged(&calls_out, sizeof(int)) == cudaSuccess);
  calls_two_levels<<<1, 32>>>(calls_out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*calls_out == 1);
  cudaFree(calls_out);

  CHECK(cudaFuncGetAttributes(&fa, big_tile) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 40 * 256 * sizeof(float));
  CHECK(cudaFuncGetAttributes(&fa, two_arrays) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 100 * sizeof(int) + 10 * sizeof(double));
  CHECK(cudaFuncGetAttributes(&fa, never_launched) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 3000);
  CHECK(cudaFuncGetAttributes(&fa, staged<double, 64>) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 64 * sizeof(double) + 32 * sizeof(double));
  CHECK(cudaFuncGetAttributes(&fa, no_shared) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 0);
  CHECK(cudaFuncGetAttributes(&fa, aligned_tile) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 16 * 16 * sizeof(float));

  /* Occupancy counts the static memory before the first launch: 40 KiB
   * per block leaves room for at most 5 blocks in an SM's 228 KiB, while
   * the kernel without shared memory is limited by threads only. */
  int with_tile = 0, without = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&with_tile, big_tile,
                                                      256, 0) == cudaSuccess);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&without, no_shared,
                                                      256, 0) == cudaSuccess);
  CHECK(with_tile >= 1 && with_tile <= 5);
  CHECK(without > with_tile);

  /* The first launch counts static plus dynamic memory against the
   * block's limit: 40 KiB static plus 190 KiB dynamic is too much. */
  int optin = 0;
  CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                               0) == cudaSuccess);
  float *fout;
  CHECK(cudaMallocManaged(&fout, 256 * sizeof(float)) == cudaSuccess);
  size_t dynamic = (size_t)optin - 40 * 256 * sizeof(float) + 16;
  if (cudaFuncSetAttribute(big_tile, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           (int)dynamic) == cudaSuccess) {
    big_tile<<<1, 256, dynamic>>>(fout);
    CHECK(cudaGetLastError() != cudaSuccess);
  }
  (void)cudaGetLastError();
  big_tile<<<1, 256>>>(fout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(fout[0] == 255.0f && fout[255] == 0.0f);

  int *misaligned;
  CHECK(cudaMallocManaged(&misaligned, sizeof(int)) == cudaSuccess);
  *misaligned = 0;
  aligned_tile<<<1, dim3(16, 16)>>>(fout, misaligned);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*misaligned == 0);
  CHECK(fout[1] == 16.0f && fout[16] == 1.0f && fout[255] == 255.0f);
  cudaFree(misaligned);

  int *iout;
  CHECK(cudaMallocManaged(&iout, 100 * sizeof(int)) == cudaSuccess);
  two_arrays<<<1, 100>>>(iout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(iout[0] == 100 && iout[99] == 1);
  CHECK(cudaFuncGetAttributes(&fa, two_arrays) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 100 * sizeof(int) + 10 * sizeof(double));

  double *din, *dout;
  CHECK(cudaMallocManaged(&din, 64 * sizeof(double)) == cudaSuccess);
  CHECK(cudaMallocManaged(&dout, 32 * sizeof(double)) == cudaSuccess);
  for (int i = 0; i < 64; i++)
    din[i] = i;
  staged<double, 64><<<1, 64>>>(din, dout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(dout[0] == 1.0 && dout[31] == 125.0);
  CHECK(cudaFuncGetAttributes(&fa, staged<double, 64>) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 96 * sizeof(double));
  cudaFree(fout);
  cudaFree(iout);
  cudaFree(din);
  cudaFree(dout);
  return finish();
}
