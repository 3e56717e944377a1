/*
 * device_refusals.cu: device code that nvcc refuses, one form per CASE
 * (tests/device_refusals.sh compiles each with -DCASE=N and expects an
 * error at the line marked `// case N: MESSAGE`, MESSAGE in nvcc's words,
 * from cuemu-nvcc and from nvcc); without CASE,
 * the near misses that nvcc accepts build and run, and print PASS.
 */
#include <cstdio>
#include <typeinfo>

#if !defined(CASE)
#define CASE 0
#endif

/* GCC's built-in functions that nvcc takes for host functions. */
#if CASE == 1
__global__ void trapping(int *p) {
  if (*p < 0) __builtin_trap(); // case 1: calling a __host__ function("__builtin_trap") from a __global__ function("trapping") is not allowed
}
#endif
#if CASE == 2
__device__ bool add_checked(int a, int b, int *r) {
  return __builtin_add_overflow(a, b, r); // case 2: calling a __host__ function("__builtin_add_overflow") from a __device__ function("add_checked") is not allowed
}
#endif
#if CASE == 3
__device__ bool sub_checked(int a, int b, int *r) {
  return __builtin_sub_overflow(a, b, r); // case 3: calling a __host__ function("__builtin_sub_overflow") from a __device__ function("sub_checked") is not allowed
}
#endif
#if CASE == 4
__global__ void mul_checked(long *r, long a, long b) {
  *r = __builtin_mul_overflow(a, b, r) ? -1 : *r; // case 4: calling a __host__ function("__builtin_mul_overflow") from a __global__ function("mul_checked") is not allowed
}
#endif
#if CASE == 5
__device__ int trailing_zeros(unsigned v) {
  return __builtin_ctz(v); // case 5: calling a __host__ function("__builtin_ctz") from a __device__ function("trailing_zeros") is not allowed
}
#endif
#if CASE == 6
__device__ unsigned swapped(unsigned v) {
  return __builtin_bswap32(v); // case 6: calling a __host__ function("__builtin_bswap32") from a __device__ function("swapped") is not allowed
}
#endif

/* Without -rdc, nvcc makes an extern device variable a definition (warning
 * #20044-D, "extern declaration ... is treated as a static definition"),
 * so that a definition in the same file is its host compiler's
 * "redefinition of". tests/device_refusals.sh builds case 7 with -rdc. */
#if CASE == 7
extern __constant__ float weights[4];
__constant__ float weights[4] = {1, 2, 3, 4}; // case 7: redefinition of 'weights': without relocatable device code (-rdc=true) an extern __device__, __constant__ or __managed__ declaration is a definition, as with nvcc
__global__ void weigh(float *out) { out[threadIdx.x] *= weights[threadIdx.x]; }
#endif
#if CASE == 8
__device__ int counter = 3;
extern __device__ int counter; // case 8: redefinition of 'counter': without relocatable device code (-rdc=true) an extern __device__, __constant__ or __managed__ declaration is a definition, as with nvcc
#endif

/* What nvcc's front end refuses in device code. */
#if CASE == 9
__global__ void initialised(int *out) {
  __shared__ int s = 5; // case 9: initializer not allowed for __shared__ variable
  out[threadIdx.x] = s;
}
#endif
#if CASE == 10
__global__ void throwing(int *out) {
  if (*out < 0) throw 1; // case 10: device code does not support exception handling
}
#endif
#if CASE == 11
__device__ void catching() {
  try { // case 11: device code does not support exception handling
  } catch (...) {
  }
}
#endif
#if CASE == 12
__global__ void typed(char *out) {
  out[0] = typeid(*out).name()[0]; // case 12: The operator 'typeid' is not allowed in device code
}
#endif
#if CASE == 13
__global__ void per_thread(int *out) {
  thread_local int t = 1; // case 13: cannot use thread_local specifier for variable declarations in device code
  out[0] = t;
}
#endif

/* The runtime API's host-only functions, which the device runtime does not
 * have (nvcc refuses them with -rdc too). */
#if CASE == 14
__global__ void relaunching(float *d, int n) {
  void *args[] = {&d, &n};
  cudaLaunchKernel((const void *)relaunching, dim3(1), dim3(1), args, 0, 0); // case 14: calling a __host__ function("cudaLaunchKernel") from a __global__ function("relaunching") is not allowed
}
#endif
#if CASE == 15
__device__ void copying(int *p) {
  cudaMemcpy(p, p + 1, sizeof *p, cudaMemcpyDeviceToDevice); // case 15: calling a __host__ function("cudaMemcpy") from a __device__ function("copying") is not allowed
}
#endif

/* ---- What nvcc accepts: built and run --------------------------------- */

/* The same name in two namespaces, one of them extern. */
namespace one {
extern __device__ int same_name;
}
namespace two {
__device__ int same_name = 2;
}

/* __trap() is CUDA's form; __builtin_expect, __builtin_clz(ll),
 * __builtin_popcount(ll), __builtin_ffs and __builtin_memcpy are taken in
 * device code. */
__global__ void near_misses(const unsigned *in, unsigned *out) {
  unsigned v = in[threadIdx.x];
  if (__builtin_expect(v == 0xdeadu, 0)) __trap();
  unsigned long long w = (unsigned long long)v << 20;
  out[threadIdx.x * 4 + 0] = (unsigned)__builtin_clz(v);
  out[threadIdx.x * 4 + 1] = (unsigned)(__builtin_popcount(v) + __builtin_popcountll(w));
  out[threadIdx.x * 4 + 2] = (unsigned)(__builtin_clzll(w) + __builtin_ffs((int)v));
  unsigned copy;
  __builtin_memcpy(&copy, &v, sizeof copy);
  /* A __shared__ struct (its braces are no initializer), and a static
   * variable. */
  __shared__ struct {
    unsigned word[2];
  } staged;
  static __device__ unsigned zero;
  staged.word[threadIdx.x] = copy + zero;
  __syncthreads();
  out[threadIdx.x * 4 + 3] = staged.word[threadIdx.x];
}

/* Checked arithmetic in host code, and in a __host__ __device__ function
 * (nvcc's warning #20011-D only) called from host code. */
__host__ __device__ inline bool hd_add(int a, int b, int *r) {
  return __builtin_add_overflow(a, b, r);
}

int main() {
  const unsigned in[2] = {1u, 0x00f0u};
  unsigned *din, *dout, out[8];
  cudaMalloc(&din, sizeof in);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
  near_misses<<<1, 2>>>(din, dout);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  const unsigned want[8] = {31, 2, 43 + 1, 1, 24, 8, 36 + 5, 0xf0};
  int ok = 1;
  for (int i = 0; i < 8; ++i)
    if (out[i] != want[i]) {
      printf("out[%d] = %u, want %u\n", i, out[i], want[i]);
      ok = 0;
    }
  int r = 0;
  if (!__builtin_mul_overflow(1 << 20, 1 << 12, &r) || hd_add(2, 3, &r) || r != 5) {
    printf("host checked arithmetic: r = %d\n", r);
    ok = 0;
  }
  cudaFree(din);
  cudaFree(dout);
  puts(ok ? "PASS" : "FAIL");
  return !ok;
}
