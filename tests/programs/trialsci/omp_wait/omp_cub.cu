// omp_cub.cu: a unit that includes CUB and has an OpenMP loop on the host,
// built with -Xcompiler -fopenmp as the benchmark collections build theirs
// (a CUB block reduction checked against a host reference computed by an
// OpenMP loop), and with --coverage. cuemu-nvcc compiles a unit that
// includes CUB with clang++, whose OpenMP code calls LLVM's runtime
// (__kmpc_fork_call) and whose counters LLVM's profile runtime writes
// (llvm_gcda_start_file), while a link apart is g++'s, with libgomp and
// libgcov: it failed with undefined references until it named the
// runtimes that the objects call (tests/programs_trialsci.sh).
#include <cstdio>

#include <cub/cub.cuh>
#include <omp.h>

#define THREADS 128
#define ROWS 64

__global__ void row_sums(const float *in, float *out) {
  typedef cub::BlockReduce<float, THREADS> Reduce;
  __shared__ typename Reduce::TempStorage storage;
  float v = in[blockIdx.x * THREADS + threadIdx.x];
  float total = Reduce(storage).Sum(v);
  if (threadIdx.x == 0)
    out[blockIdx.x] = total;
}

int main() {
  static float in[ROWS * THREADS], out[ROWS], ref[ROWS];
  for (int i = 0; i < ROWS * THREADS; ++i)
    in[i] = (float)(i % 7);
#pragma omp parallel for
  for (int r = 0; r < ROWS; ++r) {
    float s = 0.0f;
    for (int t = 0; t < THREADS; ++t)
      s += in[r * THREADS + t];
    ref[r] = s;
  }
  float *din, *dout;
  cudaMalloc(&din, sizeof in);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
  row_sums<<<ROWS, THREADS>>>(din, dout);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < ROWS; ++r)
    bad += out[r] != ref[r];
  printf("threads %d, %d wrong sums\n", omp_get_max_threads(), bad);
  printf("%s\n", bad ? "FAIL" : "PASS");
  cudaFree(din);
  cudaFree(dout);
  return bad != 0;
}
