// bench_warp_sync.cu: the cost of warp synchronisation and block barriers in
// the shapes scientific codes use them, each measured against a version of
// the same computation without them, in one process (the least CPU time of
// 7 interleaved launches of each):
//
//  - CSR SpMV of the 5-point Laplacian on a 128 x 128 grid (16384 rows, as
//    a CG solver's matrix), "vector" kernels with a warp per row (each lane
//    sums every 32nd entry of the row, then one __syncwarp and a tree of 5
//    __shfl_down_sync, or 5 steps through shared memory with a __syncwarp
//    before and after each, or the pre-Volta volatile tail), against the "scalar" kernel with a thread per
//    row and no synchronisation;
//  - a 3-D 7-point stencil over 64^3 points, 16 x 16 blocks marching in z,
//    each plane staged in shared memory between two __syncthreads, against
//    the same stencil reading its neighbours from global memory.
//
// Run by hand (docs/warp-lockstep.md, bench/RESULTS.md [warp sync]):
//   cuemu-nvcc -O2 bench/bench_warp_sync.cu -o b && CUEMU_WORKERS=1 ./b
// It also builds with nvcc (nvcc -arch=sm_90 bench/bench_warp_sync.cu).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <cuda_runtime.h>

// One warp per row: lanes stride the row, then the shuffle tree.
__global__ void spmv_vector_shfl(int n, const int *rp, const int *ci, const float *v,
                                 const float *x, float *y) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
  if (row >= n) return;
  float s = 0.0f;
  for (int k = rp[row] + lane; k < rp[row + 1]; k += 32) s += v[k] * x[ci[k]];
  __syncwarp();
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[row] = s;
}

// The same, reduced through shared memory with __syncwarp around each step
// (the form of CUSP-style vector kernels after Volta).
__global__ void spmv_vector_shared(int n, const int *rp, const int *ci, const float *v,
                                   const float *x, float *y) {
  __shared__ float part[128];
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
  if (row >= n) return;
  float s = 0.0f;
  for (int k = rp[row] + lane; k < rp[row + 1]; k += 32) s += v[k] * x[ci[k]];
  part[threadIdx.x] = s;
  __syncwarp();
  for (int o = 16; o > 0; o >>= 1) {
    if (lane < o) s += part[threadIdx.x + o];
    __syncwarp();
    part[threadIdx.x] = s;
    __syncwarp();
  }
  if (lane == 0) y[row] = s;
}

// The pre-Volta form, still common: the tail through volatile shared
// memory with no synchronisation, lanes dropping out as the tree narrows
// (cuemu runs it in lockstep, docs/warp-lockstep.md: 5 steps of a load
// and a store, and the lanes past 16 exit first).
__global__ void spmv_vector_volatile(int n, const int *rp, const int *ci, const float *v,
                                     const float *x, float *y) {
  __shared__ float part[128];
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
  if (row >= n) return;
  float s = 0.0f;
  for (int k = rp[row] + lane; k < rp[row + 1]; k += 32) s += v[k] * x[ci[k]];
  volatile float *p = part;
  p[threadIdx.x] = s;
  if (lane < 16) p[threadIdx.x] = s = s + p[threadIdx.x + 16];
  if (lane < 8) p[threadIdx.x] = s = s + p[threadIdx.x + 8];
  if (lane < 4) p[threadIdx.x] = s = s + p[threadIdx.x + 4];
  if (lane < 2) p[threadIdx.x] = s = s + p[threadIdx.x + 2];
  if (lane < 1) y[row] = s + p[threadIdx.x + 1];
}

// One thread per row, no synchronisation.
__global__ void spmv_scalar(int n, const int *rp, const int *ci, const float *v, const float *x,
                            float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  float s = 0.0f;
  for (int k = rp[row]; k < rp[row + 1]; ++k) s += v[k] * x[ci[k]];
  y[row] = s;
}

const int NX = 64, NY = 64, NZ = 64, T = 16;

// 7-point stencil: each z-plane (with a halo) in shared memory, two
// __syncthreads per plane (after the load, before the next plane's load).
__global__ void stencil_shared(const float *in, float *out) {
  __shared__ float p[T + 2][T + 2];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  for (int z = 1; z < NZ - 1; ++z) {
    const float *c = in + (size_t)z * NX * NY;
    p[ty][tx] = c[y * NX + x];
    if (threadIdx.x == 0) p[ty][0] = x > 0 ? c[y * NX + x - 1] : 0.0f;
    if (threadIdx.x == T - 1) p[ty][T + 1] = x < NX - 1 ? c[y * NX + x + 1] : 0.0f;
    if (threadIdx.y == 0) p[0][tx] = y > 0 ? c[(y - 1) * NX + x] : 0.0f;
    if (threadIdx.y == T - 1) p[T + 1][tx] = y < NY - 1 ? c[(y + 1) * NX + x] : 0.0f;
    __syncthreads();
    if (x > 0 && x < NX - 1 && y > 0 && y < NY - 1)
      out[(size_t)z * NX * NY + y * NX + x] =
          p[ty][tx - 1] + p[ty][tx + 1] + p[ty - 1][tx] + p[ty + 1][tx] +
          c[y * NX + x - NX * NY] + c[y * NX + x + NX * NY] - 6.0f * p[ty][tx];
    __syncthreads();
  }
}

// The same from global memory: no barrier.
__global__ void stencil_global(const float *in, float *out) {
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  for (int z = 1; z < NZ - 1; ++z) {
    const float *c = in + (size_t)z * NX * NY;
    if (x > 0 && x < NX - 1 && y > 0 && y < NY - 1)
      out[(size_t)z * NX * NY + y * NX + x] =
          c[y * NX + x - 1] + c[y * NX + x + 1] + c[(y - 1) * NX + x] + c[(y + 1) * NX + x] +
          c[y * NX + x - NX * NY] + c[y * NX + x + NX * NY] - 6.0f * c[y * NX + x];
  }
}

static double cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
  const int reps = argc > 1 ? atoi(argv[1]) : 7;
  const int G = 128, n = G * G;
  int *rp, *ci;
  float *v, *x, *y1, *y2, *y3, *y4;
  cudaMallocManaged(&rp, (n + 1) * sizeof(int));
  cudaMallocManaged(&ci, 5 * n * sizeof(int));
  cudaMallocManaged(&v, 5 * n * sizeof(float));
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y1, n * sizeof(float));
  cudaMallocManaged(&y2, n * sizeof(float));
  cudaMallocManaged(&y3, n * sizeof(float));
  cudaMallocManaged(&y4, n * sizeof(float));
  int nnz = 0;
  for (int r = 0; r < n; ++r) {
    int i = r / G, j = r % G;
    rp[r] = nnz;
    const int di[5] = {-1, 0, 0, 0, 1}, dj[5] = {0, -1, 0, 1, 0};
    for (int k = 0; k < 5; ++k) {
      int a = i + di[k], b = j + dj[k];
      if (a < 0 || a >= G || b < 0 || b >= G) continue;
      ci[nnz] = a * G + b;
      v[nnz++] = k == 2 ? 4.0f : -1.0f;
    }
    x[r] = (float)(r % 17) * 0.25f;
  }
  rp[n] = nnz;
  const size_t points = (size_t)NX * NY * NZ;
  float *sin_, *s1, *s2;
  cudaMallocManaged(&sin_, points * sizeof(float));
  cudaMallocManaged(&s1, points * sizeof(float));
  cudaMallocManaged(&s2, points * sizeof(float));
  for (size_t i = 0; i < points; ++i) { sin_[i] = (float)(i % 29) * 0.5f; s1[i] = s2[i] = 0.0f; }

  double best[6] = {1e30, 1e30, 1e30, 1e30, 1e30, 1e30};
  dim3 sb(T, T), sg(NX / T, NY / T);
  for (int r = 0; r < reps; ++r) {
    for (int k = 0; k < 6; ++k) {
      double a = cpu_ms();
      switch (k) {
      case 0: spmv_vector_shfl<<<n * 32 / 128, 128>>>(n, rp, ci, v, x, y1); break;
      case 1: spmv_vector_shared<<<n * 32 / 128, 128>>>(n, rp, ci, v, x, y2); break;
      case 2: spmv_scalar<<<(n + 127) / 128, 128>>>(n, rp, ci, v, x, y3); break;
      case 3: stencil_shared<<<sg, sb>>>(sin_, s1); break;
      case 4: stencil_global<<<sg, sb>>>(sin_, s2); break;
      case 5: spmv_vector_volatile<<<n * 32 / 128, 128>>>(n, rp, ci, v, x, y4); break;
      }
      cudaDeviceSynchronize();
      double ms = cpu_ms() - a;
      if (ms < best[k]) best[k] = ms;
    }
  }
  int bad = 0;
  for (int r = 0; r < n; ++r)
    if (fabsf(y1[r] - y3[r]) > 1e-3f || fabsf(y2[r] - y3[r]) > 1e-3f ||
        fabsf(y4[r] - y3[r]) > 1e-3f)
      ++bad;
  for (size_t i = 0; i < points; ++i)
    if (fabsf(s1[i] - s2[i]) > 1e-3f) ++bad;
  if (cudaGetLastError() != cudaSuccess || bad) {
    printf("bench_warp_sync: wrong results (%d)\n", bad);
    return 1;
  }
  // Per lane per synchronisation: 6 in the shuffle kernel (1 __syncwarp,
  // 5 shuffles), 11 in the shared one; per thread per barrier: 2 per plane.
  const double lanes = 32.0 * n, threads = (double)NX * NY;
  printf("spmv_vector_shfl_ms: %.3f\nspmv_vector_shared_ms: %.3f\nspmv_scalar_ms: %.3f\n", best[0],
         best[1], best[2]);
  printf("spmv_vector_volatile_ms: %.3f\nspmv_volatile_over_scalar: %.1f\n", best[5],
         best[5] / best[2]);
  printf("spmv_shfl_over_scalar: %.1f\nspmv_shared_over_scalar: %.1f\n", best[0] / best[2],
         best[1] / best[2]);
  printf("spmv_shfl_ns_per_lane_sync: %.2f\nspmv_shared_ns_per_lane_sync: %.2f\n",
         best[0] * 1e6 / (lanes * 6), best[1] * 1e6 / (lanes * 11));
  printf("stencil_shared_ms: %.3f\nstencil_global_ms: %.3f\nstencil_shared_over_global: %.2f\n",
         best[3], best[4], best[3] / best[4]);
  printf("stencil_ns_per_thread_barrier: %.2f\n",
         best[3] * 1e6 / (threads * 2 * (NZ - 2)));
  return 0;
}
