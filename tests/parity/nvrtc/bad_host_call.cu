// bad_host_call.cu: a kernel that calls a function without __device__. CUDA
// does not accept it: nvcc rejects the call (and so does cuemu with g++),
// and NVRTC (without -default-device) rejects the unannotated function
// itself, so the NVRTC leg must fail with a log naming the function and its
// line.
// Deliberately not compiled by tests/nvcc_kernels.sh.

// No execution-space qualifier: host-only under nvcc and NVRTC.
int twice(int v) { return 2 * v; } // HOST_ONLY_LINE

__global__ void doubled(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = twice(i); // HOST_CALL_LINE
}
