// shared_limit.cu: nvcc's limit of 48 KiB on a kernel's static shared
// memory, counted as ptxas counts it: the kernel body's __shared__
// variables, those of closed inner blocks, and those of every __device__
// function the kernel calls, each declaration once however often it is
// called. Each -DCASE=N is a kernel past the limit, which ptxas refuses
// with the line `// case N: MESSAGE` (tests/driver_shared_limit.sh);
// without CASE, the near misses build and run.
#include <cstdio>

#define TILE 4096 /* floats: 16 KiB */

/* 32 KiB. */
__device__ float rotate(float v) {
  __shared__ float ring[8192];
  ring[threadIdx.x] = v;
  __syncthreads();
  float r = ring[(threadIdx.x + 1) % blockDim.x];
  __syncthreads();
  return r;
}

/* Calls rotate() twice: its variable counts once. */
__device__ float rotate_twice(float v) { return rotate(rotate(v)); }

/* 16 KiB of its own and rotate()'s 32 KiB: exactly 48 KiB. */
__global__ void at_limit(float *out) {
  __shared__ float tile[TILE];
  tile[threadIdx.x] = rotate_twice((float)threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 2) % blockDim.x];
}

/* A template instance of 48 KiB with rotate()'s. */
template <int N> __global__ void at_limit_t(float *out) {
  __shared__ float tile[N];
  tile[threadIdx.x] = rotate((float)threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x] + 1.0f;
}

#if CASE == 1 || CASE == 4
/* 40 KiB. */
__device__ float rotate_big(float v) {
  __shared__ float ring[10240];
  ring[threadIdx.x] = v;
  __syncthreads();
  return ring[(threadIdx.x + 1) % blockDim.x];
}
__device__ float rotate_big_twice(float v) { return rotate_big(rotate_big(v)); }
#endif

#if CASE == 1
/* 16 KiB and rotate_big()'s 40 KiB: 56 KiB. */
__global__ void callee_past(float *out) { // case 1: Entry function '_Z11callee_pastPf' uses too much shared data (0xe000 bytes, 0xc000 max)
  __shared__ float tile[TILE];
  tile[threadIdx.x] = rotate_big((float)threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}
#elif CASE == 2
/* Two closed blocks of 32 KiB each: their variables do not overlap. */
__global__ void closed_blocks(float *out) { // case 2: Entry function '_Z13closed_blocksPf' uses too much shared data (0x10000 bytes, 0xc000 max)
  {
    __shared__ float a[8192];
    a[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = a[0];
  }
  {
    __shared__ float b[8192];
    b[threadIdx.x] = 2.0f;
    __syncthreads();
    out[threadIdx.x] += b[0];
  }
}
#elif CASE == 3
/* One float more than the limit in one instance of the template. */
template __global__ void at_limit_t<TILE + 1>(float *); // case 3: Entry function '_Z10at_limit_tILi4097EEvPf' uses too much shared data (0xc004 bytes, 0xc000 max)
#elif CASE == 4
/* A kernel of internal linkage, through two levels of calls. */
static __global__ void local_kernel(float *out) { // case 4: Entry function '_Z12local_kernelPf' uses too much shared data (0xe000 bytes, 0xc000 max)
  __shared__ float tile[TILE];
  tile[threadIdx.x] = rotate_big_twice((float)threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}
void launch_local(float *out) { local_kernel<<<1, 32>>>(out); }
#endif

int main() {
  float *out, host[32];
  if (cudaMalloc(&out, sizeof host) != cudaSuccess)
    return 1;
  int ok = 1;
  cudaFuncAttributes a;
  ok &= cudaFuncGetAttributes(&a, at_limit) == cudaSuccess &&
        a.sharedSizeBytes == 48 * 1024;
  at_limit<<<1, 32>>>(out);
  ok &= cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess;
  for (int i = 0; i < 32; ++i)
    ok &= host[i] == (float)((i + 4) % 32);
  ok &= cudaFuncGetAttributes(&a, at_limit_t<TILE>) == cudaSuccess &&
        a.sharedSizeBytes == 48 * 1024;
  at_limit_t<TILE><<<1, 32>>>(out);
  ok &= cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess;
  for (int i = 0; i < 32; ++i)
    ok &= host[i] == (float)((i + 1) % 32) + 1.0f;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
