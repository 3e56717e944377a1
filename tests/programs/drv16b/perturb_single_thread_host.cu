// perturb_single_thread_host.cu: a launch of one thread that keeps a running
// best in pageable host memory (the device has pageableMemoryAccess, as a
// GPU with HMM does), run under schedule perturbation
// (CUEMU_CHECK_SCHEDULES=1, set here before the first CUDA call; a GPU
// ignores it). A public particle swarm passes &best, a host
// stack variable, to a <<<1,1>>> kernel each iteration. Perturbation ran
// such a launch twice and restores only tracked memory, so the second run
// found the host variable already changed: it reported "the launch's results
// depend on the order of threads and blocks" for a launch that has a single
// order, and the host counter below advanced twice. A one-thread launch now
// runs once.
#include <cstdlib>
#include <cstring>

#include "../check.cuh"

#ifdef __CUEMU__
#include <cuemu/cuemu.h>
#endif

// Takes the smaller of *best and the values, counts the call, and records
// what it saw in device memory.
__global__ void keep_best(const float *values, int n, float *best,
                          int *calls, float *seen) {
  for (int i = 0; i < n; ++i) {
    if (values[i] < *best)
      *best = values[i];
    seen[i] = *best;
  }
  ++*calls;
}

int main() {
  setenv("CUEMU_CHECK_SCHEDULES", "1", 1);
  int device = 0, pageable = 0;
  CHECK(cudaGetDevice(&device) == cudaSuccess);
  CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess,
                               device) == cudaSuccess);
  if (!pageable) // a GPU without HMM cannot reach host stack memory
    return finish();
  const int n = 4;
  const float h[n] = {5.0f, 3.0f, 4.0f, 1.0f};
  float *values, *seen;
  CHECK(cudaMalloc(&values, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMalloc(&seen, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMemcpy(values, h, sizeof h, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  float best = 10.0f;
  int calls = 0;
  for (int round = 0; round < 3; ++round) {
    keep_best<<<1, 1>>>(values, n, &best, &calls, seen);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
  }
  CHECK(best == 1.0f);
  CHECK(calls == 3);
  float s[n];
  CHECK(cudaMemcpy(s, seen, sizeof s, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    CHECK(s[i] == 1.0f);
#ifdef __CUEMU__
  const char *report = "";
  CHECK(cuemu_check_reports(&report) == 0);
#endif
  CHECK(cudaFree(values) == cudaSuccess);
  CHECK(cudaFree(seen) == cudaSuccess);
  return finish();
}
