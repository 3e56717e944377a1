/*
 * header_forms.cuh: CUDA syntax in a header (issue 13): launches, kernel
 * templates launched with deduced arguments, extern __shared__ in several
 * forms, including inside a function template and a class template.
 */
#ifndef HEADER_FORMS_CUH
#define HEADER_FORMS_CUH

template <typename T> __global__ void header_fill(T *out, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value;
}

/* The dynamic buffer, declared in a function template (g++ drops an asm
 * label on a block-scope extern in a template). */
template <typename T> __global__ void header_reverse(T *data, int n) {
  extern __shared__ T buffer[];
  int i = threadIdx.x;
  if (i < n)
    buffer[i] = data[i];
  __syncthreads();
  if (i < n)
    data[i] = buffer[n - 1 - i];
}

/* In a member of a class template, with the type after `extern`. */
template <int N> struct header_block_sum {
  __device__ static int run(const int *in) {
    extern int __shared__ partial[];
    partial[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    int total = 0;
    for (int k = 0; k < N; ++k)
      total += partial[k];
    return total;
  }
};

__global__ void header_sum(const int *in, int *out) {
  int s = header_block_sum<8>::run(in);
  if (threadIdx.x == 0)
    *out = s;
}

/* A launch in a header's function. */
template <typename T> void header_launch_fill(T *out, T value, int n) {
  header_fill<<<(n + 63) / 64, 64>>>(out, value, n);
}

#endif
