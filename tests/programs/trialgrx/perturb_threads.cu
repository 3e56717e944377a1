// perturb_threads.cu: reduced from the trialgrx project's capture_threads
// run under schedule perturbation (CUEMU_CHECK_SCHEDULES=1, set here before
// the first CUDA call; a GPU ignores it). Host threads each launch kernels
// into their own stream, each writing its own elements of one shared
// allocation: legal, and their grids run at the same time. Perturbation
// saves, compares and restores every tracked allocation around a launch,
// so it once took another thread's concurrent writes for an
// order-dependent result ("racecheck: schedule perturbation ... bytes
// differ") and its restore undid them. Perturbed launches now run one at a
// time.
#include <cstdlib>
#include <thread>
#include <vector>

#include "../check.cuh"

// Some work first, so that the grids of the threads overlap.
__global__ void bump(int *p, int stride) {
  unsigned acc = threadIdx.x;
  for (int i = 0; i < 4096; ++i)
    acc = acc * 1664525u + 1013904223u;
  p[threadIdx.x * stride] += 1 + (acc == 0xffffffffu);
}

int main() {
  setenv("CUEMU_CHECK_SCHEDULES", "1", 1);
  const int threads = 4, rounds = 10, lanes = 256;
  int *d;
  CHECK(cudaMalloc(&d, threads * lanes * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(d, 0, threads * lanes * sizeof(int)) == cudaSuccess);
  std::vector<std::thread> pool;
  int failures[threads] = {0};
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([=, &failures] {
      cudaStream_t s;
      if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
        failures[t]++;
        return;
      }
      for (int r = 0; r < rounds; ++r)
        bump<<<1, lanes, 0, s>>>(d + t, threads);
      if (cudaStreamSynchronize(s) != cudaSuccess)
        failures[t]++;
      cudaStreamDestroy(s);
    });
  for (auto &th : pool)
    th.join();
  for (int t = 0; t < threads; ++t)
    CHECK(failures[t] == 0);
  std::vector<int> h(threads * lanes);
  CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(int),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  int bad = 0;
  for (int v : h)
    bad += v != rounds;
  CHECK(bad == 0);
  CHECK(cudaFree(d) == cudaSuccess);
  return finish();
}
