// graph_memory_life.cu: graph memory as CUDA's graph memory nodes give it:
// a graph that allocates, fills, reduces and frees its scratch buffer, the
// device's graph memory counters (used from the launch or upload of an
// executable graph that holds the memory, as CUDA maps it then and not at
// instantiation; reserved until cudaDeviceGraphMemTrim, which also unmaps
// the memory of an idle executable graph until its next launch; high
// marks reset), and a
// graph whose allocation outlives its launch: used by a kernel in the
// stream, a relaunch before it is freed fails with cudaErrorInvalidValue,
// freed by cudaFreeAsync (a second cudaFree is an error), then relaunched;
// with cudaGraphInstantiateFlagAutoFreeOnLaunch relaunches free it.
#include <cuda_runtime.h>

#include <cstdio>

#include "../check.cuh"

#define RT(call) CHECK((call) == cudaSuccess)

template <int N> __global__ void iota(int *v) {
  for (int i = threadIdx.x; i < N; i += blockDim.x)
    v[i] = i + 1;
}

template <int N> __global__ void total(const int *v, int *out) {
  int s = 0;
  for (int i = threadIdx.x; i < N; i += blockDim.x)
    s += v[i];
  atomicAdd(out, s);
}

static unsigned long long attr(cudaGraphMemAttributeType a) {
  unsigned long long v = ~0ull;
  RT(cudaDeviceGetGraphMemAttribute(0, a, &v));
  return v;
}

constexpr int N = 4096;
constexpr size_t BYTES = N * sizeof(int);

// Captures alloc -> iota -> total (-> free when `free_it`).
static cudaGraph_t capture(cudaStream_t s, int *out, bool free_it,
                           int **buffer) {
  cudaGraph_t g;
  RT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  RT(cudaMallocAsync(buffer, BYTES, s));
  iota<N><<<1, 256, 0, s>>>(*buffer);
  total<N><<<1, 256, 0, s>>>(*buffer, out);
  if (free_it)
    RT(cudaFreeAsync(*buffer, s));
  RT(cudaStreamEndCapture(s, &g));
  return g;
}

int main() {
  cudaStream_t s;
  RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int *out;
  RT(cudaMalloc(&out, sizeof(int)));
  const int want = N * (N + 1) / 2;
  unsigned long long zero = 0;
  RT(cudaDeviceGraphMemTrim(0));
  RT(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  RT(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh,
                                    &zero));
  CHECK(attr(cudaGraphMemAttrUsedMemCurrent) == 0);

  // Scratch memory freed inside the graph.
  int *scratch = nullptr;
  cudaGraph_t g = capture(s, out, true, &scratch);
  CHECK(attr(cudaGraphMemAttrUsedMemCurrent) == 0); // not instantiated
  cudaGraphExec_t exec;
  RT(cudaGraphInstantiate(&exec, g, 0));
  CHECK(attr(cudaGraphMemAttrUsedMemCurrent) == 0); // mapped at launch
  RT(cudaGraphUpload(exec, s));
  CHECK(attr(cudaGraphMemAttrUsedMemCurrent) >= BYTES);
  RT(cudaStreamSynchronize(s));
  for (int round = 0; round < 4; ++round) {
    if (round == 3) {
      // Idle, its scratch freed: a trim unmaps the graph's memory, and
      // the next launch maps it again.
      RT(cudaDeviceGraphMemTrim(0));
      CHECK(attr(cudaGraphMemAttrUsedMemCurrent) == 0);
      CHECK(attr(cudaGraphMemAttrReservedMemCurrent) == 0);
    }
    RT(cudaMemsetAsync(out, 0, sizeof(int), s));
    RT(cudaGraphLaunch(exec, s));
    int host = 0;
    RT(cudaMemcpyAsync(&host, out, sizeof host, cudaMemcpyDeviceToHost, s));
    RT(cudaStreamSynchronize(s));
    CHECK(host == want);
    CHECK(attr(cudaGraphMemAttrUsedMemCurrent) >= BYTES);
  }
  CHECK(attr(cudaGraphMemAttrReservedMemCurrent) >= BYTES);
  RT(cudaGraphExecDestroy(exec));
  RT(cudaGraphDestroy(g));
  // Released to the graph allocator, kept in reserve until a trim.
  CHECK(attr(cudaGraphMemAttrUsedMemCurrent) == 0);
  CHECK(attr(cudaGraphMemAttrUsedMemHigh) >= BYTES);
  CHECK(attr(cudaGraphMemAttrReservedMemCurrent) >= BYTES);
  RT(cudaDeviceGraphMemTrim(0));
  CHECK(attr(cudaGraphMemAttrReservedMemCurrent) == 0);
  CHECK(attr(cudaGraphMemAttrReservedMemHigh) >= BYTES);
  RT(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh,
                                    &zero));
  CHECK(attr(cudaGraphMemAttrReservedMemHigh) == 0);
  unsigned long long one = 1;
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh,
                                       &one) == cudaErrorInvalidValue);
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent,
                                       &zero) == cudaErrorInvalidValue);
  CHECK(cudaDeviceGraphMemTrim(99) == cudaErrorInvalidDevice);
  (void)cudaGetLastError();

  // An allocation that outlives the launch.
  int *kept = nullptr;
  g = capture(s, out, false, &kept);
  RT(cudaGraphInstantiate(&exec, g, 0));
  RT(cudaMemsetAsync(out, 0, sizeof(int), s));
  RT(cudaGraphLaunch(exec, s));
  total<N><<<1, 128, 0, s>>>(kept, out); // after the graph: allowed
  int host = 0;
  RT(cudaMemcpyAsync(&host, out, sizeof host, cudaMemcpyDeviceToHost, s));
  RT(cudaStreamSynchronize(s));
  CHECK(host == 2 * want);
  CHECK(attr(cudaGraphMemAttrUsedMemCurrent) >= BYTES);
  CHECK(cudaGraphLaunch(exec, s) == cudaErrorInvalidValue); // not freed
  (void)cudaGetLastError();
  RT(cudaFreeAsync(kept, s));
  RT(cudaStreamSynchronize(s));
  CHECK(cudaFree(kept) == cudaErrorInvalidValue); // freed already
  (void)cudaGetLastError();
  RT(cudaMemsetAsync(out, 0, sizeof(int), s));
  RT(cudaGraphLaunch(exec, s));
  RT(cudaFree(kept)); // the relaunch allocated it again, at the same address
  RT(cudaGraphExecDestroy(exec));

  // Freed by each relaunch.
  RT(cudaGraphInstantiate(&exec, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  for (int round = 0; round < 2; ++round) {
    RT(cudaMemsetAsync(out, 0, sizeof(int), s));
    RT(cudaGraphLaunch(exec, s));
    RT(cudaMemcpyAsync(&host, out, sizeof host, cudaMemcpyDeviceToHost, s));
    RT(cudaStreamSynchronize(s));
    CHECK(host == want);
  }
  RT(cudaFreeAsync(kept, s));
  RT(cudaStreamSynchronize(s));
  RT(cudaGraphExecDestroy(exec));
  RT(cudaGraphDestroy(g));
  RT(cudaDeviceGraphMemTrim(0));
  CHECK(attr(cudaGraphMemAttrReservedMemCurrent) == 0);
  RT(cudaFree(out));
  RT(cudaStreamDestroy(s));
  return finish();
}
