// sysinclude/lib_kernels.cuh: kernels with internal linkage in a header
// included with -isystem, as a library's generic kernels are declared
// (`#define LIB_GLOBAL __global__ static`, CUTLASS's CUTLASS_GLOBAL). Each
// writes which compile pass it came from: a GPU runs device code.
#ifndef TRIALCUTLASS_LIB_KERNELS_CUH
#define TRIALCUTLASS_LIB_KERNELS_CUH

#define LIB_GLOBAL __global__ static

template <class Op> LIB_GLOBAL void lib_kernel(typename Op::Params params) {
#ifdef __CUDA_ARCH__
  params.out[threadIdx.x] = params.base + threadIdx.x;
#else
  params.out[threadIdx.x] = -1;
#endif
}

static __global__ void lib_plain(int *out) {
#ifdef __CUDA_ARCH__
  out[0] = 700;
#else
  out[0] = -1;
#endif
}

#endif
