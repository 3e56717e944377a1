// NVCC_OPTIONS: -I../include -Xcompiler -fopenmp
// Multi-GPU Jacobi solver in the style of the multi-GPU programming
// models: one OpenMP thread per device, halos written by P2P stores,
// per-device streams and events, cross-device waits; then a cooperative
// grid-wide sum on each device. Checked against a single-device run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
#include <omp.h>
#include "jacobi.h"
#include "mgpu_check.h"

struct Opts {
  int nx = 128, ny = 128, iters = 50;
  bool p2p = true;
};

static int get_arg(char **b, char **e, const char *name, int dflt) {
  char **it = std::find_if(b, e, [&](char *a) { return !strcmp(a, name); });
  return (it != e && ++it != e) ? atoi(*it) : dflt;
}

// Runs Jacobi on a single device and returns the final grid.
static void single_gpu(const Opts &o, std::vector<real> &out, double &l2) {
  CUDA_RT_CALL(cudaSetDevice(0));
  real *a, *a_new, *norm;
  size_t bytes = (size_t)o.nx * o.ny * sizeof(real);
  CUDA_RT_CALL(cudaMalloc(&a, bytes));
  CUDA_RT_CALL(cudaMalloc(&a_new, bytes));
  CUDA_RT_CALL(cudaMalloc(&norm, sizeof(real)));
  CUDA_RT_CALL(cudaMemset(a, 0, bytes));
  CUDA_RT_CALL(cudaMemset(a_new, 0, bytes));
  cudaStream_t s;
  CUDA_RT_CALL(cudaStreamCreate(&s));
  launch_init_boundaries(a, a_new, (real)M_PI, 0, o.nx, o.ny, o.ny, s);
  real h = 0;
  for (int it = 0; it < o.iters; ++it) {
    CUDA_RT_CALL(cudaMemsetAsync(norm, 0, sizeof(real), s));
    launch_jacobi(a_new, a, norm, 1, o.ny - 1, o.nx, nullptr, 0, nullptr, 0, s);
    std::swap(a, a_new);
  }
  CUDA_RT_CALL(cudaMemcpyAsync(&h, norm, sizeof h, cudaMemcpyDeviceToHost, s));
  out.resize((size_t)o.nx * o.ny);
  CUDA_RT_CALL(cudaMemcpyAsync(out.data(), a, bytes, cudaMemcpyDeviceToHost, s));
  CUDA_RT_CALL(cudaStreamSynchronize(s));
  l2 = std::sqrt(h);
  CUDA_RT_CALL(cudaStreamDestroy(s));
  CUDA_RT_CALL(cudaFree(a));
  CUDA_RT_CALL(cudaFree(a_new));
  CUDA_RT_CALL(cudaFree(norm));
}

int main(int argc, char **argv) {
  Opts o;
  o.nx = get_arg(argv, argv + argc, "-nx", o.nx);
  o.ny = get_arg(argv, argv + argc, "-ny", o.ny);
  o.iters = get_arg(argv, argv + argc, "-niter", o.iters);
  o.p2p = get_arg(argv, argv + argc, "-p2p", 1) != 0;
  int ndev = 0;
  CUDA_RT_CALL(cudaGetDeviceCount(&ndev));
  ndev = std::min(ndev, MAX_DEVICES);
  printf("Jacobi %dx%d, %d iterations on %d devices (p2p %s)\n", o.nx, o.ny,
         o.iters, ndev, o.p2p ? "on" : "off");

  std::vector<real> ref;
  double ref_l2 = 0;
  single_gpu(o, ref, ref_l2);

  std::vector<real> result((size_t)o.nx * o.ny, 0);
  real *a[MAX_DEVICES], *a_new[MAX_DEVICES], *norm_d[MAX_DEVICES];
  real norm_h[MAX_DEVICES];
  cudaStream_t stream[MAX_DEVICES];
  cudaEvent_t done[2][MAX_DEVICES];
  int chunk_size[MAX_DEVICES];
  int counts[MAX_DEVICES];
  float ms_dev[MAX_DEVICES];
  double l2 = 0;
  int interior = o.ny - 2;
  int low = interior / ndev, high = low + 1, nhigh = interior % ndev;

#pragma omp parallel num_threads(ndev) shared(l2)
  {
    int dev = omp_get_thread_num();
    CUDA_RT_CALL(cudaSetDevice(dev));
    CUDA_RT_CALL(cudaFree(0));
    int top = dev > 0 ? dev - 1 : ndev - 1;
    int bottom = (dev + 1) % ndev;
    if (o.p2p) {
      int can = 0;
      CUDA_RT_CALL(cudaDeviceCanAccessPeer(&can, dev, top));
      if (can && top != dev) CUDA_RT_CALL(cudaDeviceEnablePeerAccess(top, 0));
      CUDA_RT_CALL(cudaDeviceCanAccessPeer(&can, dev, bottom));
      if (can && bottom != top && bottom != dev)
        CUDA_RT_CALL(cudaDeviceEnablePeerAccess(bottom, 0));
    }
    int my = dev < nhigh ? high : low;
    chunk_size[dev] = my;
    int iy_start_global = dev < nhigh ? dev * high + 1
                                      : nhigh * high + (dev - nhigh) * low + 1;

    size_t bytes = (size_t)o.nx * (my + 2) * sizeof(real);
    CUDA_RT_CALL(cudaMalloc(&a[dev], bytes));
    CUDA_RT_CALL(cudaMalloc(&a_new[dev], bytes));
    CUDA_RT_CALL(cudaMalloc(&norm_d[dev], sizeof(real)));
    CUDA_RT_CALL(cudaMemset(a[dev], 0, bytes));
    CUDA_RT_CALL(cudaMemset(a_new[dev], 0, bytes));
    CUDA_RT_CALL(cudaStreamCreateWithFlags(&stream[dev], cudaStreamNonBlocking));
    CUDA_RT_CALL(cudaEventCreateWithFlags(&done[0][dev], cudaEventDisableTiming));
    CUDA_RT_CALL(cudaEventCreateWithFlags(&done[1][dev], cudaEventDisableTiming));
    // Boundaries over the local rows plus halos (global rows offset-1..).
    launch_init_boundaries(a[dev], a_new[dev], (real)M_PI, iy_start_global - 1,
                           o.nx, my + 2, o.ny, stream[dev]);
    CUDA_RT_CALL(cudaStreamSynchronize(stream[dev]));
#pragma omp barrier
    cudaEvent_t t0, t1;
    CUDA_RT_CALL(cudaEventCreate(&t0));
    CUDA_RT_CALL(cudaEventCreate(&t1));
    CUDA_RT_CALL(cudaEventRecord(t0, stream[dev]));
    for (int it = 0; it < o.iters; ++it) {
      int cur = it % 2;
      CUDA_RT_CALL(cudaMemsetAsync(norm_d[dev], 0, sizeof(real), stream[dev]));
      if (it > 0) {
        // Wait for the neighbours' previous sweep (they wrote our halos).
        CUDA_RT_CALL(cudaStreamWaitEvent(stream[dev], done[1 - cur][top], 0));
        CUDA_RT_CALL(cudaStreamWaitEvent(stream[dev], done[1 - cur][bottom], 0));
      }
      // Top device's bottom halo row is my+1 of top; my first row goes there.
      int top_row = chunk_size[top] + 1;
      launch_jacobi(a_new[dev], a[dev], norm_d[dev], 1, my + 1, o.nx,
                    dev == 0 ? nullptr : a_new[top],
                    dev == 0 ? 0 : top_row,
                    dev == ndev - 1 ? nullptr : a_new[bottom],
                    dev == ndev - 1 ? my + 1 : 0, stream[dev]);
      CUDA_RT_CALL(cudaEventRecord(done[cur][dev], stream[dev]));
      // Every thread has read its neighbours' pointers before any swaps.
#pragma omp barrier
      std::swap(a[dev], a_new[dev]);
#pragma omp barrier
    }
    CUDA_RT_CALL(cudaEventRecord(t1, stream[dev]));
    CUDA_RT_CALL(cudaMemcpyAsync(&norm_h[dev], norm_d[dev], sizeof(real),
                                 cudaMemcpyDeviceToHost, stream[dev]));
    // Copy the local rows back (rows 1..my map to global iy_start..).
    CUDA_RT_CALL(cudaMemcpyAsync(result.data() + (size_t)iy_start_global * o.nx,
                                 a[dev] + o.nx, (size_t)my * o.nx * sizeof(real),
                                 cudaMemcpyDeviceToHost, stream[dev]));
    CUDA_RT_CALL(cudaStreamSynchronize(stream[dev]));
    CUDA_RT_CALL(cudaEventElapsedTime(&ms_dev[dev], t0, t1));
#pragma omp barrier
#pragma omp single
    {
      for (int d = 0; d < ndev; ++d) l2 += norm_h[d];
      l2 = std::sqrt(l2);
    }
    counts[dev] = (my + 2) * o.nx;
    CUDA_RT_CALL(cudaEventDestroy(t0));
    CUDA_RT_CALL(cudaEventDestroy(t1));
  }
  // Boundary rows (0 and ny-1) come from the reference.
  for (int ix = 0; ix < o.nx; ++ix) {
    result[ix] = ref[ix];
    result[(size_t)(o.ny - 1) * o.nx + ix] = ref[(size_t)(o.ny - 1) * o.nx + ix];
  }
  int bad = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    if (std::fabs(ref[i] - result[i]) > 1e-5f) {
      if (bad < 5) printf("mismatch at %zu: %f vs %f\n", i, result[i], ref[i]);
      ++bad;
    }
  bool ok = bad == 0 && std::fabs(l2 - ref_l2) <= 1e-4 * ref_l2 + 1e-6;
  printf("l2 %.6f (single %.6f), %d mismatches\n", l2, ref_l2, bad);
  for (int d = 0; d < ndev; ++d) printf("  device %d: %d rows, %.3f ms\n", d, chunk_size[d], ms_dev[d]);

  double total = cooperative_sum(counts, a, ndev);
  double expect = 0;
  std::vector<real> tmp;
  for (int d = 0; d < ndev; ++d) {
    tmp.resize(counts[d]);
    CUDA_RT_CALL(cudaSetDevice(d));
    CUDA_RT_CALL(cudaMemcpy(tmp.data(), a[d], counts[d] * sizeof(real), cudaMemcpyDeviceToHost));
    for (real v : tmp) expect += v;
  }
  bool ok2 = std::fabs(total - expect) <= 1e-6 * std::fabs(expect) + 1e-6;
  printf("cooperative sum %.6f vs %.6f: %s\n", total, expect, ok2 ? "ok" : "WRONG");
  for (int d = 0; d < ndev; ++d) {
    CUDA_RT_CALL(cudaSetDevice(d));
    CUDA_RT_CALL(cudaFree(a[d]));
    CUDA_RT_CALL(cudaFree(a_new[d]));
    CUDA_RT_CALL(cudaFree(norm_d[d]));
    CUDA_RT_CALL(cudaEventDestroy(done[0][d]));
    CUDA_RT_CALL(cudaEventDestroy(done[1][d]));
    CUDA_RT_CALL(cudaStreamDestroy(stream[d]));
  }
  printf("%s\n", ok && ok2 ? "PASS" : "FAIL");
  return ok && ok2 ? 0 : 1;
}
