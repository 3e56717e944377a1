// xcompiler_pre_include.cu: nvcc force-includes the headers of -Xcompiler
// -include,FILE before its cuda_runtime.h and those of its own -include
// after it, wherever each stands on the command line (nvcc --dryrun:
// `-include per_thread_stream.h ... -include "cuda_runtime.h" -include
// "pre_included.cuh"`). So:
//  - per_thread_stream.h, which defines CUDA_API_PER_THREAD_DEFAULT_STREAM,
//    selects the per-thread default stream: stream 0 is
//    cudaStreamPerThread (one stream identifier), not the legacy stream.
//    cuemu-nvcc once read it after cuda_runtime.h and silently stayed on
//    the legacy default stream;
//  - pre_included.cuh, given first with nvcc's -include, still comes after
//    cuda_runtime.h and may use float2 and cudaSuccess.
// CUEMU_OPTIONS: -include pre_included.cuh -Xcompiler -include,per_thread_stream.h
// NVCC_OPTIONS: -include pre_included.cuh -Xcompiler -include,per_thread_stream.h
#include "../check.cuh"

#ifndef CUDA_API_PER_THREAD_DEFAULT_STREAM
#error "per_thread_stream.h was not force-included"
#endif

// Scales the range that pre_included.cuh's widen() widens, per element.
__global__ void widen_all(const float2 *in, float2 *out, float by, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = widen(in[i], by * (float)(i % 4));
}

// Counts the elements whose range holds zero.
__global__ void count_spanning(const float2 *r, int n, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && r[i].x <= 0.0f && r[i].y >= 0.0f)
    atomicAdd(count, 1);
}

int main() {
  // Stream 0 is this thread's default stream: the identifier of
  // cudaStreamPerThread, not that of cudaStreamLegacy.
  unsigned long long zero = 0, per_thread = 1, legacy = 2;
  CHECK(PRE_INCLUDED_CHECK(cudaStreamGetId(0, &zero)));
  CHECK(PRE_INCLUDED_CHECK(cudaStreamGetId(cudaStreamPerThread, &per_thread)));
  CHECK(PRE_INCLUDED_CHECK(cudaStreamGetId(cudaStreamLegacy, &legacy)));
  CHECK(zero == per_thread);
  CHECK(zero != legacy);

  const int n = 1000;
  float2 *in, *out;
  int *count;
  CHECK(PRE_INCLUDED_CHECK(cudaMallocManaged(&in, n * sizeof(float2))));
  CHECK(PRE_INCLUDED_CHECK(cudaMallocManaged(&out, n * sizeof(float2))));
  CHECK(PRE_INCLUDED_CHECK(cudaMallocManaged(&count, sizeof(int))));
  int expected = 0;
  for (int i = 0; i < n; ++i) {
    // Ranges [i/10 - 30, i/10 - 29]: widened by 0, 5, 10 or 15 each side.
    in[i] = make_float2(i / 10 - 30.0f, i / 10 - 29.0f);
    float by = 5.0f * (float)(i % 4);
    if (in[i].x - by <= 0.0f && in[i].y + by >= 0.0f)
      ++expected;
  }
  *count = 0;
  widen_all<<<(n + 127) / 128, 128>>>(in, out, 5.0f, n);
  count_spanning<<<(n + 127) / 128, 128>>>(out, n, count);
  // Work on stream 0 is work on cudaStreamPerThread.
  CHECK(PRE_INCLUDED_CHECK(cudaStreamSynchronize(cudaStreamPerThread)));
  CHECK(*count == expected);
  CHECK(out[7].x == in[7].x - 15.0f && out[7].y == in[7].y + 15.0f);
  CHECK(PRE_INCLUDED_CHECK(cudaFree(in)));
  CHECK(PRE_INCLUDED_CHECK(cudaFree(out)));
  CHECK(PRE_INCLUDED_CHECK(cudaFree(count)));
  return finish();
}
