/*
 * bad_host_calls.cu: host functions that end the process, called from
 * device code through __host__ __device__ functions, whose calls the
 * compile does not judge (nvcc only warns of each call there, #20011-D;
 * the file is not built with nvcc). Each
 * must end the launch with an error naming the function and the line, and
 * leave the host process running (tests/check_faults.c).
 */
#include <csignal>
#include <cstdlib>

__host__ __device__ void stop_with_exit(int code) {
  exit(code); /* FAULT_LINE exit */
}

__host__ __device__ void stop_with_abort() {
  std::abort(); /* FAULT_LINE abort */
}

/* What a library's abort() does (std::terminate, a failed glibc check):
 * SIGABRT on the kernel thread. */
__host__ __device__ void stop_with_sigabrt() {
  raise(SIGABRT); /* FAULT_LINE sigabrt */
}

extern "C" __global__ void host_call(int *out, int how, unsigned bad_block,
                                     unsigned bad_thread) {
  if (blockIdx.x == bad_block && threadIdx.x == bad_thread) {
    if (how == 0)
      stop_with_exit(3);
    else if (how == 1)
      stop_with_abort();
    else
      stop_with_sigabrt();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

extern "C" __global__ void fill(int *out, int value) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}
