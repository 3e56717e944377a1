/*
 * bad_static_shared_total.cu: a Smith-Waterman kernel, one thread per pair,
 * with its score rows H and E in static shared memory, 32 KiB each for a
 * block of 128 threads and queries of 128 residues: each under the 48 KiB a
 * kernel may have, 64 KiB together. nvcc refuses the instance ("ptxas
 * error: Entry function ... uses too much shared data (0x18000 bytes,
 * 0xc000 max)": it counts the scratch of the inner block too); so does
 * cuemu, at compile time, naming the variables it can name at the line of
 * the last (those in scope there; what it does not see, the launch's check
 * of the kernel's static shared memory refuses). The instance of 64
 * residues (48 KiB in all, as nvcc counts) compiles.
 */
template <int BLOCK, int MAXQ>
__global__ void sw_rows(int *out) {
  {
    __shared__ short scratch[MAXQ][BLOCK]; /* ended before h and e */
    scratch[0][threadIdx.x] = 1;
    out[threadIdx.x] = scratch[0][threadIdx.x];
  }
  __shared__ short h[MAXQ][BLOCK];
  __shared__ short e[MAXQ][BLOCK]; /* TOO_MUCH */
  h[threadIdx.x % MAXQ][threadIdx.x] = 1;
  e[0][threadIdx.x] = 2;
  __syncthreads();
  out[threadIdx.x] += h[0][threadIdx.x] + e[0][threadIdx.x];
}

template __global__ void sw_rows<128, 64>(int *);
template __global__ void sw_rows<128, 128>(int *);
