// large_copy_source_once.cu: a copy of 1 MiB to pinned host memory from a
// device buffer whose every 256 KiB ends in 10 elements never written,
// queued on a stream under racecheck and initcheck: racecheck guards the
// pinned memory while the copy runs, which is then made 256 KiB at a time
// (docs/checkers.md), and initcheck still judges its source as one copy:
// one report, that names 160 unwritten bytes of the 1048576 copied
// (tests/checkers_reports.sh), not one for each part. Prints PASS when the
// copy brought the written elements.
#include <cstdio>

#include <cuda_runtime.h>

constexpr int kPart = 1 << 16; // 256 KiB of int

/* Writes all but the last `gap` elements of each part. */
__global__ void fill_parts(int *out, int gap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i % kPart < kPart - gap)
    out[i] = i;
}

int main() {
  const int n = 1 << 18; // 1 MiB of int
  int *host = nullptr, *dev = nullptr;
  cudaMallocHost(&host, n * sizeof(int));
  cudaMalloc(&dev, n * sizeof(int));
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  fill_parts<<<n / 256, 256, 0, stream>>>(dev, 10);
  cudaMemcpyAsync(host, dev, n * sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaError_t e = cudaStreamSynchronize(stream);
  bool ok = e == cudaSuccess;
  for (int i = 0; i < n && ok; ++i)
    ok = i % kPart >= kPart - 10 || host[i] == i;
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaStreamDestroy(stream);
  cudaFree(dev);
  cudaFreeHost(host);
  return 0;
}
