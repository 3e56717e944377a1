// worker_kernels.cu: the kernels that ctx_threads loads (as a .cubin) in
// several contexts and threads.
extern "C" __global__ void stamp(int *out, int n, int tag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tag * 100000 + i;
}
__device__ int g_counter;
extern "C" __global__ void bump(int times) {
  for (int k = 0; k < times; ++k) atomicAdd(&g_counter, 1);
}
