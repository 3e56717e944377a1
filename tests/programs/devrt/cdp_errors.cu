/*
 * cdp_errors.cu: the errors of launches from kernel code: a bad launch
 * configuration is the launching thread's own last error (cudaGetLastError
 * resets it, cudaPeekAtLastError does not); the nesting depth (24) and
 * cudaLimitDevRuntimePendingLaunchCount are enforced with CUDA's errors;
 * device streams must be non-blocking; and a fault in a child grid is the
 * error of the host's launch, sticky until cudaDeviceReset.
 * CUEMU_OPTIONS: -rdc=true
 * NVCC_OPTIONS: -rdc=true
 */
#include <cstdio>

#include "../check.cuh"

__global__ void leaf(int *counter) { atomicAdd(counter, 1); }

struct Errors {
  int bad_config, after_take, peeked, peeked_again, other_thread;
  int stream_flags;
  int depth_error, depth_reached;
  int pending[12];
  int leaves;
};

__global__ void config_errors(Errors *e) {
  if (threadIdx.x == 1) {
    leaf<<<1, 2048>>>(&e->leaves); /* more threads than a block may have */
    e->peeked = cudaPeekAtLastError();
    e->peeked_again = cudaPeekAtLastError();
    e->bad_config = cudaGetLastError();
    e->after_take = cudaGetLastError();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    e->other_thread = cudaGetLastError(); /* thread 1's error is its own */
    cudaStream_t s;
    e->stream_flags = cudaStreamCreateWithFlags(&s, cudaStreamDefault);
  }
}

__global__ void dive(Errors *e, int depth) {
  atomicMax(&e->depth_reached, depth);
  dive<<<1, 1>>>(e, depth + 1);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    e->depth_error = err;
    return;
  }
}

__global__ void many(Errors *e) {
  for (int i = 0; i < 12; ++i) {
    leaf<<<1, 1>>>(&e->leaves);
    e->pending[i] = cudaGetLastError();
  }
}

__global__ void faulty_child(int *p) { p[threadIdx.x] = 1; }

__global__ void faulty_parent(int *ok) {
  *ok = 1;
  faulty_child<<<1, 4>>>(nullptr);
}

int main() {
  Errors *e;
  cudaMallocManaged(&e, sizeof(Errors));
  cudaMemset(e, 0, sizeof(Errors));

  config_errors<<<1, 32>>>(e);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(e->bad_config == cudaErrorInvalidConfiguration);
  CHECK(e->peeked == cudaErrorInvalidConfiguration);
  CHECK(e->peeked_again == cudaErrorInvalidConfiguration);
  CHECK(e->after_take == cudaSuccess);
  CHECK(e->other_thread == cudaSuccess);
  CHECK(e->stream_flags == cudaErrorInvalidValue);
  CHECK(e->leaves == 0);

  /* The host's grid is depth 0; a launch from depth 24 goes too deep. */
  dive<<<1, 1>>>(e, 0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(e->depth_reached == 24);
  CHECK(e->depth_error == cudaErrorLaunchMaxDepthExceeded);

  size_t limit = 0;
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount) ==
        cudaSuccess);
  CHECK(limit == 2048);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 8) ==
        cudaSuccess);
  many<<<1, 1>>>(e);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 12; ++i)
    CHECK(e->pending[i] ==
          (i < 8 ? cudaSuccess : cudaErrorLaunchPendingCountExceeded));
  CHECK(e->leaves == 8);

  int *ok;
  cudaMallocManaged(&ok, sizeof(int));
  *ok = 0;
  faulty_parent<<<1, 1>>>(ok);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  CHECK(cudaGetLastError() == cudaErrorIllegalAddress);
  leaf<<<1, 1>>>(&e->leaves); /* the error is sticky */
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  CHECK(cudaDeviceReset() == cudaSuccess);
  std::printf("the fault above was expected\n");
  return finish();
}
