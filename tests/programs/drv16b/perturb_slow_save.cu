// perturb_slow_save.cu: schedule perturbation (CUEMU_CHECK_SCHEDULES=1, set
// here before the first CUDA call; a GPU ignores it) of a launch whose
// allocations take long to save and restore between its two runs, as
// gigabytes do (CUEMU_CHECK_PERTURB_SAVE_DELAY_MS makes each save take
// 1.2 s). The watchdog watches each run, not the saves: a save of more than
// a second once made it note that no block had started ("blocks may spin")
// and start 16 more workers for a kernel that never waits. The launch must
// give its results with no such note.
#include <cstdlib>
#include <string>

#include "../check.cuh"
#include "../stderr_capture.cuh"

__global__ void scale(float *x, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

int main() {
  setenv("CUEMU_CHECK_SCHEDULES", "1", 1);
  setenv("CUEMU_CHECK_PERTURB_SAVE_DELAY_MS", "1200", 1);
  setenv("CUEMU_QUIET", "0", 1);
  const int n = 4096;
  float *x = nullptr;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    x[i] = static_cast<float>(i);
  std::string notes = stderr_of([&] {
    scale<<<n / 128, 128>>>(x, n, 2.0f);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
  });
  CHECK(notes.find("may spin") == std::string::npos);
  CHECK(notes.find("workers") == std::string::npos);
  for (int i = 0; i < n; ++i)
    CHECK(x[i] == 2.0f * static_cast<float>(i));
  CHECK(cudaFree(x) == cudaSuccess);
  return finish();
}
