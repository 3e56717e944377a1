// A software grid barrier in a kernel launched with ONE block more than the
// device holds at once (SM count x the occupancy of the kernel): the blocks
// that are resident spin at the barrier for the block that cannot start
// until one of them ends. A GPU hangs here; cuemu reports it
// (tests/progress_not_resident.sh checks the message and that it comes in
// seconds).
#include <cstdio>
#include <cuda_runtime.h>

static const int kThreads = 256;

__device__ unsigned arrived;

__global__ void too_many_blocks(volatile unsigned *out) {
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(&arrived, 1u);
    volatile unsigned *count = &arrived;
    while (*count < gridDim.x) {
    }
    out[blockIdx.x] = *count;
  }
}

int main() {
  int device = 0, sms = 0, per_sm = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, too_many_blocks,
                                                kThreads, 0);
  int blocks = sms * per_sm + 1;
  printf("%d SMs x %d blocks per SM: launching %d blocks\n", sms, per_sm,
         blocks);
  unsigned *out;
  cudaMalloc(&out, blocks * sizeof(unsigned));
  too_many_blocks<<<blocks, kThreads>>>(out);
  cudaError_t err = cudaDeviceSynchronize();
  printf("cudaDeviceSynchronize: %s\n", cudaGetErrorString(err));
  return err == cudaSuccess ? 0 : 1;
}
