/*
 * Streams created and destroyed by the thousand, as a benchmark of stream
 * creation does (a HeCBench-style trial: each step creates streams, copies
 * into them asynchronously, synchronizes and destroys them). Every
 * destroyed stream's queue stayed on the list that each copy walks, so
 * that the copies of the last steps walked a thousand queues each. Here
 * the queues of destroyed streams leave that list, and the test checks
 * that what CUDA promises of them still holds: work left in a stream when
 * it is destroyed still runs, and cudaDeviceSynchronize waits for it; a
 * stream created after many destroyed ones queues and orders its work; a
 * blocking stream's kernel is done before a later copy in the legacy
 * default stream reads its result; events recorded in destroyed streams
 * still complete.
 */
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                     \
  do {                                                                  \
    cudaError_t e_ = (call);                                            \
    if (e_ != cudaSuccess) {                                            \
      printf("FAIL: %s: %s (line %d)\n", #call, cudaGetErrorString(e_), \
             __LINE__);                                                 \
      return 1;                                                         \
    }                                                                   \
  } while (0)

/* Adds `add` to each of the n values, slowly enough that the work is
 * still queued when the host destroys the stream. */
__global__ void add_slowly(int *v, int n, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < add; ++k)
      atomicAdd(&v[i], 1);
}

int main() {
  const int steps = 1200, n = 64;
  std::vector<int> host(n);
  int *d = nullptr;
  CHECK(cudaMalloc(&d, steps * n * sizeof(int)));
  CHECK(cudaMemset(d, 0, steps * n * sizeof(int)));
  std::vector<cudaEvent_t> events(steps / 100);

  /* Each step: a new stream, a copy from pageable memory, a kernel, and
   * the stream destroyed at once, its work still pending. */
  for (int s = 0; s < steps; ++s) {
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    for (int i = 0; i < n; ++i)
      host[i] = s;
    CHECK(cudaMemcpyAsync(d + s * n, host.data(), n * sizeof(int),
                          cudaMemcpyHostToDevice, st));
    add_slowly<<<1, n, 0, st>>>(d + s * n, n, 3);
    if (s % 100 == 0) {
      CHECK(cudaEventCreate(&events[s / 100]));
      CHECK(cudaEventRecord(events[s / 100], st));
    }
    CHECK(cudaStreamDestroy(st));
  }
  CHECK(cudaDeviceSynchronize());
  for (size_t k = 0; k < events.size(); ++k) {
    if (cudaEventQuery(events[k]) != cudaSuccess) {
      printf("FAIL: the event recorded in destroyed stream %zu is not done\n",
             k * 100);
      return 1;
    }
    CHECK(cudaEventDestroy(events[k]));
  }
  std::vector<int> all(steps * n);
  CHECK(cudaMemcpy(all.data(), d, all.size() * sizeof(int),
                   cudaMemcpyDeviceToHost));
  for (int s = 0; s < steps; ++s)
    for (int i = 0; i < n; ++i)
      if (all[s * n + i] != s + 3) {
        printf("FAIL: step %d value %d is %d, not %d\n", s, i,
               all[s * n + i], s + 3);
        return 1;
      }

  /* A stream made after them: its copy, kernel and copy back in order. */
  cudaStream_t late;
  CHECK(cudaStreamCreate(&late));
  for (int i = 0; i < n; ++i)
    host[i] = 100 + i;
  CHECK(cudaMemcpyAsync(d, host.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice, late));
  add_slowly<<<1, n, 0, late>>>(d, n, 5);
  std::vector<int> back(n, -1);
  CHECK(cudaMemcpyAsync(back.data(), d, n * sizeof(int),
                        cudaMemcpyDeviceToHost, late));
  CHECK(cudaStreamSynchronize(late));
  for (int i = 0; i < n; ++i)
    if (back[i] != 105 + i) {
      printf("FAIL: late stream value %d is %d, not %d\n", i, back[i],
             105 + i);
      return 1;
    }

  /* A blocking stream's kernel before a copy in the legacy stream. */
  add_slowly<<<1, n, 0, late>>>(d, n, 7);
  CHECK(cudaStreamDestroy(late));
  CHECK(cudaMemcpy(back.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (back[i] != 112 + i) {
      printf("FAIL: legacy copy value %d is %d, not %d\n", i, back[i],
             112 + i);
      return 1;
    }
  CHECK(cudaFree(d));
  printf("PASS\n");
  return 0;
}
