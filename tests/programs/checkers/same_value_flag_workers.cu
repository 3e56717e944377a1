// same_value_flag_workers.cu: thread 0 of every block raises one flag in
// global memory (`*changed = true`, as a BFS or a spanning-tree kernel
// does), with the blocks running side by side on two workers. The writes
// store the value the flag ends with in any order, so racecheck reports
// nothing (docs/checkers.md, a write's race is held until its store). A
// write is recorded before its store: a worker that checks its own write
// while another block's thread sits between its check and its store must
// wait for that store before it keeps the flag's bytes, or it keeps them
// from before both writes and reports a race that changed nothing (a
// thread preempted there; pub20's trial of a public spanning-tree program,
// 2 runs in 8). CUEMU_CHECK_STORE_DELAY_US makes every such window 20 ms
// long: without the wait, every round here reports.
// CUEMU_OPTIONS: --check=all
#include <cuda_runtime.h>

#include <cstdlib>

#include "../check.cuh"

constexpr int kBlocks = 8;
constexpr int kThreads = 32;
constexpr int kRounds = 6;

__global__ void raise_flag(bool *changed) {
  if (threadIdx.x == 0)
    *changed = true; // every block: the same value
}

int main() {
#ifdef __CUEMU__
  setenv("CUEMU_WORKERS", "2", 1);
  setenv("CUEMU_CHECK_STORE_DELAY_US", "20000", 1);
#endif
  for (int r = 0; r < kRounds; ++r) {
    // A new flag each round, as the programs that do this allocate it:
    // its first writes take the whole check.
    bool *changed = nullptr, host = false;
    CHECK(cudaMalloc(&changed, sizeof(bool)) == cudaSuccess);
    CHECK(cudaMemcpy(changed, &host, sizeof(bool), cudaMemcpyHostToDevice) ==
          cudaSuccess);
    raise_flag<<<kBlocks, kThreads>>>(changed);
    CHECK(cudaMemcpy(&host, changed, sizeof(bool), cudaMemcpyDeviceToHost) ==
          cudaSuccess);
    CHECK(host);
    CHECK(cudaFree(changed) == cudaSuccess);
  }
  return finish();
}
