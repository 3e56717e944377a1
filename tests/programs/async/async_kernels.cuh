// async_kernels.cuh: kernels the stream tests share: a kernel that spins on
// a flag in mapped host memory until the host (or another stream) raises
// it, and the stages of a small pipeline.
#ifndef ASYNC_KERNELS_CUH
#define ASYNC_KERNELS_CUH

// One thread waits until *flag reaches `want`, then records what it read
// and writes `out`: the classic "kernel waits for the host" handshake.
__global__ void wait_for_flag(const volatile int *flag, int want, int *seen,
                              int *out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    while (*flag < want) {
    }
    *seen = *flag;
    __threadfence_system();
    *out = 1;
  }
}

// data[i] = i * scale + offset.
template <class T>
__global__ void fill(T *data, int n, T scale, T offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = (T)i * scale + offset;
}

// out[i] = in[i] + add (a stage that needs the stage before it).
template <class T>
__global__ void add_to(const T *in, T *out, int n, T add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + add;
}

// Counts the elements of data equal to i * scale + offset.
template <class T>
__global__ void count_expected(const T *data, int n, T scale, T offset,
                               int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && data[i] == (T)i * scale + offset)
    atomicAdd(count, 1);
}

#endif
