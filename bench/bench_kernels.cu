// bench_kernels.cu: the kernels that bench/run_bench.sh measures.
//
// They are ordinary CUDA and also compile with nvcc
// (nvcc -std=c++17 -arch=sm_90 -c bench_kernels.cu -o /dev/null).

// Barrier-free: y = a * x + y, one element per thread.
extern "C" __global__ void bench_saxpy(int n, float a, const float *x,
                                       float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// A shared-memory tree reduction over blocks of exactly 256 threads: one
// barrier after the loads and one after each of the 8 halving steps, so every
// thread passes 9 barriers. Each block writes its sum to out[blockIdx.x].
extern "C" __global__ void bench_reduce256(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256u + t];
  __syncthreads();
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// One barrier between a read and a write, so that every thread of a block
// (of any size) is suspended once and needs its own stack.
extern "C" __global__ void bench_barrier(float *data) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = data[i];
  __syncthreads();
  data[i] = 2.0f * v + 1.0f;
}

// The saxpy above with a barrier that only the threads of the last block
// reach (all of them, so it is not divergent): every other block should run
// as the barrier-free kernel does, each thread a plain call.
extern "C" __global__ void bench_saxpy_rare_barrier(int n, float a,
                                                    const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
  if (blockIdx.x == gridDim.x - 1)
    __syncthreads();
}
