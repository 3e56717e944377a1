// NVCC_OPTIONS: -I../common -Xcompiler -fopenmp
// jacobi_omp.cu - 2D Jacobi solver decomposed in row slabs over all GPUs,
// one OpenMP host thread per GPU. Halos are exchanged either by P2P kernel
// access to the neighbour's buffer (when peer access is available) or by
// cudaMemcpyPeerAsync into local halo rows (fallback, or forced with -copy).
#include <omp.h>
#include <cmath>
#include <cstring>
#include <vector>
#include "mgpu_check.h"

typedef float real;

__global__ void jacobi_kernel(real *__restrict__ a_new, const real *__restrict__ a,
                              const real *__restrict__ top_halo,
                              const real *__restrict__ bot_halo, int nx,
                              int rows, real *__restrict__ l2) {
  // a holds rows [1, rows] of the slab; row 0 and row rows+1 are halo rows
  // unless top_halo / bot_halo point at the neighbour's interior row.
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y + 1;
  real local = 0;
  if (ix > 0 && ix < nx - 1 && iy <= rows) {
    const real *up = (iy == 1 && top_halo) ? top_halo : a + (iy - 1) * nx;
    const real *dn = (iy == rows && bot_halo) ? bot_halo : a + (iy + 1) * nx;
    real v = real(0.25) * (up[ix] + dn[ix] + a[iy * nx + ix - 1] + a[iy * nx + ix + 1]);
    a_new[iy * nx + ix] = v;
    real d = v - a[iy * nx + ix];
    local = d * d;
  }
  // Warp reduction then one atomic per warp.
  for (int off = 16; off > 0; off /= 2)
    local += __shfl_down_sync(0xffffffff, local, off);
  if ((threadIdx.x + threadIdx.y * blockDim.x) % 32 == 0)
    atomicAdd(l2, local);
}

__global__ void init_boundary(real *a, real *a_new, int nx, int rows, int row_offset, int ny) {
  for (int iy = blockIdx.x * blockDim.x + threadIdx.x; iy < rows + 2; iy += blockDim.x * gridDim.x) {
    int gy = row_offset + iy - 1;
    real v = (gy >= 0 && gy < ny) ? sinf(2.0f * 3.14159265f * gy / (ny - 1)) : 0;
    a[iy * nx] = a_new[iy * nx] = v;
    a[iy * nx + nx - 1] = a_new[iy * nx + nx - 1] = v;
  }
}

static void jacobi_cpu(std::vector<real> &a, int nx, int ny, int iters) {
  std::vector<real> b(a);
  for (int it = 0; it < iters; ++it) {
    for (int iy = 1; iy < ny - 1; ++iy)
      for (int ix = 1; ix < nx - 1; ++ix)
        b[iy * nx + ix] = real(0.25) * (a[(iy - 1) * nx + ix] + a[(iy + 1) * nx + ix] +
                                        a[iy * nx + ix - 1] + a[iy * nx + ix + 1]);
    std::swap(a, b);
  }
}

int main(int argc, char **argv) {
  const int nx = 128, ny = 130, iters = 50;
  bool force_copy = argc > 1 && !std::strcmp(argv[1], "-copy");
  int ndev = 0;
  CUDA_CHECK(cudaGetDeviceCount(&ndev));
  if (ndev > 8) ndev = 8;
  int interior = ny - 2;
  std::vector<real> result((size_t)nx * ny, 0);
  // CPU reference with the same boundary.
  std::vector<real> ref((size_t)nx * ny, 0);
  for (int iy = 0; iy < ny; ++iy) {
    real v = sinf(2.0f * 3.14159265f * iy / (ny - 1));
    ref[iy * nx] = ref[iy * nx + nx - 1] = v;
  }
  for (int ix = 0; ix < nx; ++ix) result[ix] = ref[ix], result[(ny - 1) * nx + ix] = ref[(ny - 1) * nx + ix];
  jacobi_cpu(ref, nx, ny, iters);

  real *d_a[8], *d_anew[8];
  cudaEvent_t done[8][2];
  int rows_of[8], off_of[8];
  bool p2p_top[8] = {}, p2p_bot[8] = {};
  real l2_final = 0;
  int errors = 0;

#pragma omp parallel num_threads(ndev) reduction(+ : errors)
  {
    int dev = omp_get_thread_num();
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaFree(0));
    int chunk = interior / ndev, rem = interior % ndev;
    int rows = chunk + (dev < rem ? 1 : 0);
    int off = dev * chunk + (dev < rem ? dev : rem) + 1;  // global row of local row 1
    rows_of[dev] = rows;
    off_of[dev] = off;
    int top = dev - 1, bot = dev + 1;
    if (!force_copy) {
      int can = 0;
      if (top >= 0) {
        CUDA_CHECK(cudaDeviceCanAccessPeer(&can, dev, top));
        if (can) {
          cudaError_t e = cudaDeviceEnablePeerAccess(top, 0);
          if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
          else CUDA_CHECK(e);
          p2p_top[dev] = true;
        }
      }
      if (bot < ndev) {
        CUDA_CHECK(cudaDeviceCanAccessPeer(&can, dev, bot));
        if (can) {
          cudaError_t e = cudaDeviceEnablePeerAccess(bot, 0);
          if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
          else CUDA_CHECK(e);
          p2p_bot[dev] = true;
        }
      }
    }
    size_t bytes = (size_t)nx * (rows + 2) * sizeof(real);
    CUDA_CHECK(cudaMalloc(&d_a[dev], bytes));
    CUDA_CHECK(cudaMalloc(&d_anew[dev], bytes));
    CUDA_CHECK(cudaMemset(d_a[dev], 0, bytes));
    CUDA_CHECK(cudaMemset(d_anew[dev], 0, bytes));
    // The global top and bottom rows are fixed boundary values.
    if (dev == 0)
      CUDA_CHECK(cudaMemcpy(d_a[dev], result.data(), nx * sizeof(real), cudaMemcpyHostToDevice));
    if (dev == ndev - 1)
      CUDA_CHECK(cudaMemcpy(d_a[dev] + (rows + 1) * nx, result.data() + (ny - 1) * nx,
                            nx * sizeof(real), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_anew[dev], d_a[dev], bytes, cudaMemcpyDeviceToDevice));
    init_boundary<<<1, 128>>>(d_a[dev], d_anew[dev], nx, rows, off, ny);
    CUDA_CHECK(cudaGetLastError());
    cudaStream_t compute, halo;
    CUDA_CHECK(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&halo, cudaStreamNonBlocking));
    for (int k = 0; k < 2; ++k)
      CUDA_CHECK(cudaEventCreateWithFlags(&done[dev][k], cudaEventDisableTiming));
    real *d_l2;
    CUDA_CHECK(cudaMalloc(&d_l2, sizeof(real)));
    CUDA_CHECK(cudaDeviceSynchronize());
#pragma omp barrier

    dim3 block(32, 4), grid((nx + 31) / 32, (rows + 3) / 4);
    for (int it = 0; it < iters; ++it) {
      int cur = it % 2;
      real *a = cur ? d_anew[dev] : d_a[dev];
      real *an = cur ? d_a[dev] : d_anew[dev];
      // Wait until the neighbours have finished the previous iteration
      // (their interior rows are our halo).
      if (it > 0) {
        if (top >= 0) CUDA_CHECK(cudaStreamWaitEvent(compute, done[top][(it - 1) % 2], 0));
        if (bot < ndev) CUDA_CHECK(cudaStreamWaitEvent(compute, done[bot][(it - 1) % 2], 0));
      }
      const real *top_halo = nullptr, *bot_halo = nullptr;
      if (top >= 0 && p2p_top[dev]) {
        real *ta = cur ? d_anew[top] : d_a[top];
        top_halo = ta + rows_of[top] * nx;
      }
      if (bot < ndev && p2p_bot[dev]) {
        real *ba = cur ? d_anew[bot] : d_a[bot];
        bot_halo = ba + nx;
      }
      CUDA_CHECK(cudaMemsetAsync(d_l2, 0, sizeof(real), compute));
      jacobi_kernel<<<grid, block, 0, compute>>>(an, a, top_halo, bot_halo, nx, rows, d_l2);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaEventRecord(done[dev][it % 2], compute));
      // Push our new boundary rows into the neighbours' halo rows when they
      // cannot read them directly.
      CUDA_CHECK(cudaStreamWaitEvent(halo, done[dev][it % 2], 0));
      if (top >= 0 && !p2p_bot[top]) {
        real *tn = cur ? d_a[top] : d_anew[top];
        CUDA_CHECK(cudaMemcpyPeerAsync(tn + (rows_of[top] + 1) * nx, top, an + nx, dev,
                                       nx * sizeof(real), halo));
      }
      if (bot < ndev && !p2p_top[bot]) {
        real *bn = cur ? d_a[bot] : d_anew[bot];
        CUDA_CHECK(cudaMemcpyPeerAsync(bn, bot, an + rows * nx, dev, nx * sizeof(real), halo));
      }
      CUDA_CHECK(cudaEventRecord(done[dev][it % 2], halo));
      CUDA_CHECK(cudaStreamSynchronize(compute));
      CUDA_CHECK(cudaStreamSynchronize(halo));
#pragma omp barrier
    }
    real l2;
    CUDA_CHECK(cudaMemcpy(&l2, d_l2, sizeof(real), cudaMemcpyDeviceToHost));
#pragma omp atomic
    l2_final += l2;
    real *fin = iters % 2 ? d_anew[dev] : d_a[dev];
    CUDA_CHECK(cudaMemcpy(result.data() + (size_t)off * nx, fin + nx, (size_t)rows * nx * sizeof(real),
                          cudaMemcpyDeviceToHost));
#pragma omp barrier
    CUDA_CHECK(cudaFree(d_l2));
    CUDA_CHECK(cudaFree(d_a[dev]));
    CUDA_CHECK(cudaFree(d_anew[dev]));
    CUDA_CHECK(cudaStreamDestroy(compute));
    CUDA_CHECK(cudaStreamDestroy(halo));
  }

  double maxerr = 0;
  for (int iy = 0; iy < ny; ++iy)
    for (int ix = 0; ix < nx; ++ix)
      maxerr = fmax(maxerr, fabs((double)result[iy * nx + ix] - ref[iy * nx + ix]));
  int p2p = 0;
  for (int d = 0; d < ndev; ++d) p2p += p2p_top[d] + p2p_bot[d];
  std::printf("jacobi: %d device(s), %d p2p links, %dx%d, %d iters, max err %.3e, l2 %.5f\n",
              ndev, p2p, nx, ny, iters, maxerr, sqrt(l2_final));
  return mgpu_report(maxerr < 1e-5 && errors == 0, "jacobi_omp");
}
