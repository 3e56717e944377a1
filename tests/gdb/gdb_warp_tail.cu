// gdb_warp_tail.cu: the unrolled last warp of a reduction, through a
// volatile pointer and without __syncwarp(), whose volatile accesses cuemu
// runs in lockstep with the warp (docs/warp-lockstep.md), for
// gdb_step_volatile.sh.
#include <cstdio>

__global__ void warp_tail_sum(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 32) {
    volatile int *v = s;
    v[t] += v[t + 32]; /* LINE:step32 */
    v[t] += v[t + 16]; /* LINE:step16 */
    v[t] += v[t + 8]; /* LINE:step8 */
    v[t] += v[t + 4]; /* LINE:step4 */
    v[t] += v[t + 2]; /* LINE:step2 */
    v[t] += v[t + 1]; /* LINE:step1 */
  }
  if (t == 0) out[blockIdx.x] = s[0]; /* LINE:result */
}

int main() {
  const int blocks = 3;
  int *in, *out;
  cudaMallocManaged(&in, blocks * 64 * sizeof(int));
  cudaMallocManaged(&out, blocks * sizeof(int));
  for (int i = 0; i < blocks * 64; ++i) in[i] = i;
  warp_tail_sum<<<blocks, 64>>>(in, out);
  cudaDeviceSynchronize();
  int ok = 1;
  for (int b = 0; b < blocks; ++b)
    ok &= out[b] == 64 * 64 * b + 63 * 64 / 2;
  printf("gdb_warp_tail: %s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
