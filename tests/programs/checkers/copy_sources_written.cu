// copy_sources_written.cu: a correct program built with every checker whose
// copies read only device memory that was written before they run, so
// initcheck reports none of them (tests/buggy/init_copy_source_*.cu are the
// copies it reports): a copy queued on a stream behind the kernel that
// writes its source (judged when it runs, not when it is issued), the 2D
// copy of a pitched table's written columns (the padding between rows is
// no part of it) and the 3D copy of a box set by cudaMemset3D.
// CUEMU_OPTIONS: --check=all
#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void fill(int *out, size_t pitch, int cols, int value) {
  int *row = (int *)((char *)out + blockIdx.x * pitch);
  if ((int)threadIdx.x < cols)
    row[threadIdx.x] = value + (int)(blockIdx.x * cols + threadIdx.x);
}

int main() {
  const int rows = 8, cols = 16;
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) ==
        cudaSuccess);
  int *host;
  CHECK(cudaMallocHost(&host, rows * cols * sizeof(int)) == cudaSuccess);

  /* Issued while the kernel before it may not have run yet. */
  int *dev;
  CHECK(cudaMalloc(&dev, rows * cols * sizeof(int)) == cudaSuccess);
  for (int round = 0; round < 20; ++round) {
    fill<<<rows, cols, 0, stream>>>(dev, cols * sizeof(int), cols, round);
    CHECK(cudaMemcpyAsync(host, dev, rows * cols * sizeof(int),
                          cudaMemcpyDeviceToHost, stream) == cudaSuccess);
    CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
    CHECK(host[rows * cols - 1] == round + rows * cols - 1);
  }

  /* The written columns of a pitched table, synchronously and queued. */
  int *table;
  size_t pitch;
  CHECK(cudaMallocPitch(&table, &pitch, cols * sizeof(int), rows) ==
        cudaSuccess);
  fill<<<rows, cols, 0, stream>>>(table, pitch, cols - 2, 100);
  CHECK(cudaMemcpy2DAsync(host, cols * sizeof(int), table, pitch,
                          (cols - 2) * sizeof(int), rows,
                          cudaMemcpyDeviceToHost, stream) == cudaSuccess);
  CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(host[cols] == 100 + cols - 2);
  CHECK(cudaMemcpy2D(host, cols * sizeof(int), table, pitch,
                     (cols - 2) * sizeof(int), rows,
                     cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(host[(rows - 1) * cols + cols - 3] == 100 + rows * (cols - 2) - 1);

  /* A box set by cudaMemset3D, copied whole. */
  cudaExtent extent = make_cudaExtent(cols * sizeof(int), 4, 2);
  cudaPitchedPtr box;
  CHECK(cudaMalloc3D(&box, extent) == cudaSuccess);
  CHECK(cudaMemset3D(box, 0, extent) == cudaSuccess);
  cudaMemcpy3DParms p = {};
  p.srcPtr = box;
  p.dstPtr = make_cudaPitchedPtr(host, cols * sizeof(int), cols, 4);
  p.extent = extent;
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&p) == cudaSuccess);
  CHECK(host[2 * 4 * cols - 1] == 0);

  CHECK(cudaFree(box.ptr) == cudaSuccess);
  CHECK(cudaFree(table) == cudaSuccess);
  CHECK(cudaFree(dev) == cudaSuccess);
  CHECK(cudaFreeHost(host) == cudaSuccess);
  CHECK(cudaStreamDestroy(stream) == cudaSuccess);
  return finish();
}
