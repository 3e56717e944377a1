/*
 * graph_kernels.cuh: the kernels the graph tests put in their graphs, and
 * the host helpers they share.
 */
#ifndef GRAPH_KERNELS_CUH
#define GRAPH_KERNELS_CUH

#include <cuda_runtime.h>

#include <cstdio>

#define CUDA_OK(call)                                                          \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,      \
                   cudaGetErrorName(e_));                                      \
      ++check_failures;                                                        \
    }                                                                          \
  } while (0)

/* out[i] = a * in[i] */
__global__ void scale_into(float *out, const float *in, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * in[i];
}

/* y[i] += a * x[i], for any element type. */
template <typename T> __global__ void axpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

/* out[i] = a[i] + b[i] */
__global__ void add_into(float *out, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[i] + b[i];
}

/* A small struct passed by value: its bytes must be copied whole. */
struct Affine {
  float mul;
  float add;
  int shift;
};

__global__ void affine(int *data, Affine f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = static_cast<int>(f.mul * static_cast<float>(data[i]) + f.add) +
              f.shift;
}

/* One step of a loop run by a conditional while node: counts, adds the
 * count to *sum, and keeps the loop going while the count is below
 * *limit. */
__global__ void loop_step(int *count, int *sum, const int *limit,
                          cudaGraphConditionalHandle handle) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    int c = ++*count;
    *sum += c;
    cudaGraphSetConditional(handle, c < *limit ? 1u : 0u);
  }
}

/* Sets the value a conditional if or switch node tests. */
__global__ void set_condition(cudaGraphConditionalHandle handle,
                              const int *value) {
  if (threadIdx.x == 0)
    cudaGraphSetConditional(handle, static_cast<unsigned>(*value));
}

/* Writes `tag` into *slot. */
__global__ void write_tag(int *slot, int tag) {
  if (threadIdx.x == 0)
    *slot = tag;
}

/* Coefficients of a line, copied to the device per launch. */
__constant__ float line_coeffs[2];

/* out[i] = line_coeffs[0] + line_coeffs[1] * x[i] */
__global__ void eval_line(float *out, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = line_coeffs[0] + line_coeffs[1] * x[i];
}

static inline unsigned blocks_for(int n, unsigned threads) {
  return static_cast<unsigned>((n + static_cast<int>(threads) - 1) /
                               static_cast<int>(threads));
}

#endif
