// paired_double_loads.cu: a correct program whose kernels read and write
// pairs of doubles of 8-byte aligned records at addresses that are 8 past a
// multiple of 16 (records of 48 and 40 bytes, every other one): linear
// interpolation between two table points, field by field, and complex
// numbers of two doubles copied whole. A GPU makes these as 8-byte
// accesses; the host compiler joins each pair into one 16-byte vector move
// (clang++, which compiles a unit that includes Thrust, at -O2), and
// ThreadSanitizer's instrumentation announces it as an aligned 16-byte
// access (LLVM calls __tsan_read16 for any alignment of 8 or more).
// memcheck reported "misaligned read of 16 bytes" at the interpolation's
// first line (XSBench's and RSBench's CUDA versions, trialproxy): a
// 16-byte access needs only 8-byte alignment there, a misaligned float4 or
// double2 being found by the alignment test that every build makes
// (docs/checkers.md).
// CUEMU_OPTIONS: --check=all
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <cstdio>

#include "../check.cuh"

struct TablePoint {
  double x, y0, y1, y2, y3, y4;
};

struct Cplx {
  double re, im;
};

struct Term {
  Cplx weight, pole;
  int order;
};

__device__ __noinline__ void interpolate(const TablePoint *__restrict__ table,
                                         int k, double x,
                                         double *__restrict__ y) {
  const TablePoint *a = &table[k], *b = a + 1;
  double t = (b->x - x) / (b->x - a->x);
  y[0] = b->y0 - t * (b->y0 - a->y0);
  y[1] = b->y1 - t * (b->y1 - a->y1);
  y[2] = b->y2 - t * (b->y2 - a->y2);
  y[3] = b->y3 - t * (b->y3 - a->y3);
  y[4] = b->y4 - t * (b->y4 - a->y4);
}

__global__ void lookup(const TablePoint *table, int points, double *sums,
                       unsigned long *argmax) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= points - 1)
    return;
  double y[5];
  interpolate(table, i, table[i].x + 0.25, y);
  int best = 0;
  for (int c = 1; c < 5; c++)
    if (y[c] > y[best])
      best = c;
  sums[i] = y[0] + y[1] + y[2] + y[3] + y[4];
  argmax[i] = best + 1;
}

__device__ Cplx mul(Cplx a, Cplx b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

__global__ void evaluate(const Term *terms, int n, Cplx *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Term t = terms[i];
  Cplx w = t.weight;
  for (int k = 0; k < t.order; k++)
    w = mul(w, t.pole);
  out[i] = w;
}

int main() {
  const int points = 64, n = 32;
  TablePoint host_table[points];
  for (int i = 0; i < points; i++)
    host_table[i] = {1.0 * i, 2.0 * i, 3.0 * i, 5.0 * i, 4.0 * i, 1.0};
  Term host_terms[n];
  for (int i = 0; i < n; i++)
    host_terms[i] = {{1.0 + i, 0.5}, {0.0, 1.0}, i % 4};

  TablePoint *table;
  double *sums;
  unsigned long *argmax;
  Term *terms;
  Cplx *out;
  CHECK(cudaMalloc(&table, sizeof host_table) == cudaSuccess);
  CHECK(cudaMalloc(&sums, points * sizeof(double)) == cudaSuccess);
  CHECK(cudaMalloc(&argmax, points * sizeof(unsigned long)) == cudaSuccess);
  CHECK(cudaMalloc(&terms, sizeof host_terms) == cudaSuccess);
  CHECK(cudaMalloc(&out, n * sizeof(Cplx)) == cudaSuccess);
  CHECK(cudaMemcpy(table, host_table, sizeof host_table,
                   cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(terms, host_terms, sizeof host_terms,
                   cudaMemcpyHostToDevice) == cudaSuccess);

  lookup<<<2, 32>>>(table, points, sums, argmax);
  CHECK(cudaGetLastError() == cudaSuccess);
  evaluate<<<1, n>>>(terms, n, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  /* y2 (5x) is the largest field after the interpolation: index 2, 3. */
  unsigned long votes =
      thrust::reduce(thrust::device, argmax, argmax + points - 1, 0ul);
  double host_sums[points];
  Cplx host_out[n];
  /* The points - 1 sums the lookup writes: initcheck reports a copy of
   * unwritten bytes. */
  CHECK(cudaMemcpy(host_sums, sums, (points - 1) * sizeof(double),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(votes == 3ul * (points - 1));
  for (int i = 0; i < points - 1; i++) {
    double x = i + 0.25;
    CHECK(host_sums[i] == 2.0 * x + 3.0 * x + 5.0 * x + 4.0 * x + 1.0);
  }
  for (int i = 0; i < n; i++) {
    /* (1 + i + 0.5 j) * j^order */
    double re = 1.0 + i, im = 0.5;
    for (int k = 0; k < i % 4; k++) {
      double r = -im;
      im = re;
      re = r;
    }
    CHECK(host_out[i].re == re && host_out[i].im == im);
  }
  return finish();
}
