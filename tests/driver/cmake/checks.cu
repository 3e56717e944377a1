/* checks.cu: what the host-linked programs of the project check (their
 * main is host_main.cpp, a plain C++ file, so CMake links them with the
 * C++ compiler): the histogram against the host's, and that a kernel that
 * reaches exit() (through a __host__ __device__ function, whose calls the
 * compile does not judge) ends its launch with an error, not the process.
 * nvcc warns of that call (#20011-D), so it is made under cuemu only. */
#include <cstdio>
#include <cstdlib>

#include "histogram.cuh"

__host__ __device__ void give_up(int code) {
#ifdef CUEMU_TRANSLATING
  exit(code);
#else
  (void)code;
#endif
}

__global__ void stop_early(int *flag) {
  if (threadIdx.x == 3)
    give_up(7);
  flag[threadIdx.x] = 1;
}

int histogram_checks() {
  const int n = 5000;
  unsigned *data, *bins, want[BINS];
  cudaMallocManaged(&data, n * sizeof(unsigned));
  cudaMallocManaged(&bins, BINS * sizeof(unsigned));
  for (int i = 0; i < n; ++i)
    data[i] = (unsigned)(i * 2654435761u);
  for (int b = 0; b < BINS; ++b)
    bins[b] = 0;
  histogram_gpu(data, bins, n);
  int bad = cudaDeviceSynchronize() != cudaSuccess;
  histogram_reference(data, want, n);
  for (int b = 0; b < BINS; ++b)
    bad += bins[b] != want[b];
#ifdef CUEMU_TRANSLATING
  int *flag;
  cudaMallocManaged(&flag, 32 * sizeof(int));
  stop_early<<<1, 32>>>(flag);
  /* The launch fails (the process goes on), and the error is sticky. */
  bad += cudaDeviceSynchronize() == cudaSuccess;
#endif
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
