/*
 * block_scan.cu: exclusive and inclusive prefix sums of each block's
 * segment of `seg` elements (seg == blockDim.x, any size from 1 to 1024).
 * Each warp scans its lanes with __shfl_up_sync over the lanes that exist
 * (the last warp of a block whose size is not a multiple of 32 is partial),
 * warp totals go to shared memory, warp 0 scans them, and every thread adds
 * the total of the warps before its own. Threads past the end of x take part
 * with 0 but write nothing.
 */
extern "C" __global__ void block_scan(int n, int seg, const int *x,
                                      int *inclusive, int *exclusive) {
  __shared__ int warp_totals[32];
  unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  unsigned warps = (blockDim.x + 31) / 32;
  unsigned lanes = min(32u, blockDim.x - warp * 32);
  unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  long long i = (long long)blockIdx.x * seg + t;
  if ((int)blockDim.x != seg) __trap();
  int v = i < n ? x[i] : 0;
  int sum = v;
  for (unsigned d = 1; d < 32; d *= 2) {
    int up = __shfl_up_sync(mask, sum, d);
    if (lane >= d) sum += up;
  }
  if (lane == lanes - 1) warp_totals[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    unsigned wmask = warps == 32 ? 0xffffffffu : (1u << warps) - 1;
    if (lane < warps) {
      int total = warp_totals[lane];
      for (unsigned d = 1; d < 32; d *= 2) {
        int up = __shfl_up_sync(wmask, total, d);
        if (lane >= d) total += up;
      }
      warp_totals[lane] = total;
    }
  }
  __syncthreads();
  if (warp > 0) sum += warp_totals[warp - 1];
  if (i < n) {
    inclusive[i] = sum;
    exclusive[i] = sum - v;
  }
}
