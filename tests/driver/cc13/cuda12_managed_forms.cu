// cuda12_managed_forms.cu: the CUDA 12 forms of the unified-memory hints,
// which CUDA 13's headers no longer have: a device ordinal for a location
// (lines 10 and 11) and the _v2 names (lines 12 and 13). nvcc with CUDA 13
// refuses each; with -DCUDA13_FORMS the unit uses CUDA 13's forms only.
#include <cuda_runtime.h>

void hints(float *p, size_t n, cudaStream_t s) {
#ifndef CUDA13_FORMS
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
  cudaMemPrefetchAsync(p, n, 0, s);
  cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, 0);
  cudaMemPrefetchAsync_v2(p, n, gpu, 0, s);
  cudaMemAdvise_v2(p, n, cudaMemAdviseSetAccessedBy, gpu);
#else
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
  cudaMemPrefetchAsync(p, n, gpu, 0, s);
  cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, gpu);
#endif
}
