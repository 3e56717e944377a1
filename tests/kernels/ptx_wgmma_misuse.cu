/*
 * ptx_wgmma_misuse.cu: wgmma.mma_async run by a block that is not whole
 * warpgroups, or by a warpgroup with an exited thread, for
 * tests/check_ptx.c: undefined on a GPU, here the end of the launch
 * naming wgmma.mma_async and the line.
 */
/* NVCC_OPTIONS: -arch=sm_90a */

/* nvcc's -arch=sm_90a also makes compute_90 PTX, whose ptxas refuses
 * wgmma: there the statement is left out, as Hopper code leaves it out. */
#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUEMU__)
#define MISUSE_WGMMA 1
#else
#define MISUSE_WGMMA 0
#endif

/* A (64 x 16 .f16) and B (16 x 8) of zeros, K-major without swizzle: A's
 * core matrices 128 bytes apart along M (SBO) and 1024 along K (LBO), B's
 * 128 along K. */
__device__ void product(float *out, int skip) {
  __shared__ __align__(128) unsigned short tile[2048];
  for (int i = threadIdx.x; i < 2048; i += blockDim.x) tile[i] = 0;
  __syncthreads();
  if (threadIdx.x == skip) return;
  const unsigned long long start = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  const unsigned long long a = ((start & 0x3ffff) >> 4) | (64ull << 16) | (8ull << 32);
  const unsigned long long b = (((start + 2048) & 0x3ffff) >> 4) | (8ull << 16) | (8ull << 32);
  float d[4] = {1, 1, 1, 1};
#if MISUSE_WGMMA
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 0, 1, 1, 0, 0;" /* WGMMA_MISUSE */
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "l"(a), "l"(b));
#endif
  out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
}

extern "C" __global__ void wgmma_whole(float *out) { product(out, -1); }

extern "C" __global__ void wgmma_exited_lane(float *out) { product(out, 37); }
