// callback_after_fault.cu: a stream callback queued behind a kernel that
// faults still runs and is told the error: CUDA's cudaStreamAddCallback
// says "in the event of a device error, all subsequently executed
// callbacks will receive an appropriate cudaError_t" (a tutorial logs each
// phase of a stream from its callback, and the log of a failed run is the
// one that matters). A host function of cudaLaunchHostFunc is not called
// then ("in contrast to cuStreamAddCallback, the function will not be
// called in the event of an error in the CUDA context"). The kernel here
// traps (the error's code is the trap's, cudaErrorIllegalInstruction on
// current GPUs); its report on stderr is expected.
#include <cstdio>

#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void trap_first(int *out) {
  if (threadIdx.x == 0)
    __trap();
  out[threadIdx.x] = 1;
}

static int calls[3];
static cudaError_t statuses[3];

static void CUDART_CB phase_done(cudaStream_t, cudaError_t status,
                                 void *data) {
  int phase = *static_cast<int *>(data);
  statuses[phase] = status;
  calls[phase]++;
}

static void host_func(void *) { calls[2]++; }

int main() {
  int *out = nullptr;
  CHECK(cudaMalloc(&out, 32 * sizeof(int)) == cudaSuccess);
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream) == cudaSuccess);
  static int phases[2] = {0, 1};
  trap_first<<<1, 32, 0, stream>>>(out);
  cudaStreamAddCallback(stream, phase_done, &phases[0], 0);
  cudaLaunchHostFunc(stream, host_func, nullptr);
  cudaStreamAddCallback(stream, phase_done, &phases[1], 0);
  cudaError_t e = cudaStreamSynchronize(stream);
  CHECK(e != cudaSuccess);
  for (int phase = 0; phase < 2; ++phase) {
    CHECK(calls[phase] == 1);
    CHECK(statuses[phase] == e);
  }
  CHECK(calls[2] == 0);
  return finish();
}
