// bench_warp.cu: the warp-level kernels that bench/run_bench.sh measures
// (benchmark [8]). They live apart from bench_kernels.cu because they need
// the warp intrinsics, which the ucontext build of [3] does not compile.
//
// Both kernels compute the same thing: the sum of each 32-element slice of
// `in` (one slice per warp of a 256-thread block), written by the slice's
// first thread to out[slice]. Each thread takes 5 steps, with offsets 16, 8,
// 4, 2 and 1, so that the two are compared step for step.
//
// They are ordinary CUDA and also compile with nvcc
// (nvcc -std=c++17 -arch=sm_90 -c bench_warp.cu -o /dev/null).

// The warp-shuffle tree: every lane of every full warp shuffles 5 times.
// Lanes whose source lies past the end of the warp get their own value back,
// which only lanes other than 0 ever use; lane 0 ends with the warp's sum.
extern "C" __global__ void bench_warp_shfl(const float *in, float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31u) == 0)
    out[i / 32u] = v;
}

// The same tree through shared memory, over each 32-element slice of a
// 256-thread block: one __syncthreads before each of the 5 steps, so that a
// thread passes 5 barriers where the kernel above does 5 shuffles. (No
// barrier is needed after the last step: thread 0 of a slice reads only the
// element it wrote itself.)
extern "C" __global__ void bench_warp_shared(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x, lane = t & 31u;
  unsigned i = blockIdx.x * 256u + t;
  s[t] = in[i];
  for (unsigned offset = 16; offset > 0; offset >>= 1) {
    __syncthreads();
    if (lane < offset)
      s[t] += s[t + offset];
  }
  if (lane == 0)
    out[i / 32u] = s[t];
}
