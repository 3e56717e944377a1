// module_globals.cu: global variables of a module, found by
// cuemu_module_get_global (tests/check_compile.c).
__device__ int counter = 41;
__constant__ float factors[4] = {1.0f, 2.0f, 3.0f, 4.0f};

namespace ns {
__device__ double value = 2.5;
}

__global__ void bump(int *out) { out[threadIdx.x] = atomicAdd(&counter, 1); }

template <int N> __global__ void scale(float *x) { x[threadIdx.x] *= N; }
