// host_pass_kernels.cuh: kernel templates whose parameters a call cannot
// simply name (one without a name, packs, arrays, a pointer to an array, a
// function pointer without a name), each with code that g++ -Wall warns
// about (an int compared with blockDim's unsigned). nvcc's host compiler
// never sees a kernel's body, so -Xcompiler -Wall,-Werror builds them.
#ifndef HOST_PASS_KERNELS_CUH
#define HOST_PASS_KERNELS_CUH

// The second parameter has no name: the kernel does not use it.
template <typename T> __global__ void fill_unnamed(T *x, int, T value) {
  for (int i = threadIdx.x; i < blockDim.x; i += blockDim.x)
    x[i] = value;
}

// A named pack: each element gets the sum of the pack and its count.
template <typename T, typename... Ts>
__global__ void sum_pack(T *x, Ts... rest) {
  for (int i = threadIdx.x; i < blockDim.x; i += blockDim.x)
    x[i] = (T(0) + ... + T(rest)) + T(sizeof...(rest));
}

// A pack without a name: only its size is used.
template <typename T, typename... Ts> __global__ void count_pack(T *x, Ts...) {
  for (int i = threadIdx.x; i < blockDim.x; i += blockDim.x)
    x[i] = T(sizeof...(Ts));
}

// Array parameters (pointers), one of them a pointer to rows of N.
template <typename T, int N>
__global__ void gather(T *out, const T table[N], const int idx[],
                       const int (*rows)[N]) {
  for (int i = threadIdx.x; i < blockDim.x; i += blockDim.x)
    out[i] = table[idx[i]] + T(rows[i][i % N]);
}

// A function pointer without a name (a callback the kernel ignores), and
// a const parameter without a name.
template <typename T>
__global__ void offset(T *x, T (*)(T), const T, T by) {
  for (int i = threadIdx.x; i < blockDim.x; i += blockDim.x)
    x[i] += by;
}

// Applies a function object (a __device__ lambda of host code).
template <typename F> __global__ void apply(float *x, int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] = f(x[i]);
}

#endif
