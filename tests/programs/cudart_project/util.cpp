// util.cpp: host C++ compiled by the host compiler with CUDA's headers and
// CUDA_API_PER_THREAD_DEFAULT_STREAM, so that its stream-0 calls are the
// per-thread spellings (cudaMemcpyAsync_ptsz, cudaStreamSynchronize_ptsz).
#include "kernels.h"

#include <cuda_runtime.h>

#include <vector>

extern "C" int count_wrong(const float *device_data, const float *data0,
                           float factor, int n) {
  std::vector<float> host(n);
  if (cudaMemcpyAsync(host.data(), device_data, n * sizeof(float),
                      cudaMemcpyDeviceToHost, 0) != cudaSuccess ||
      cudaStreamSynchronize(0) != cudaSuccess)
    return -1;
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    if (host[i] != data0[i] * factor + i)
      ++wrong;
  return wrong;
}
