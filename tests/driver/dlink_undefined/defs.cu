// defs.cu: what refs.cu's kernel references, but for the function that
// only its unused device function calls, which nvcc's device link does
// not look for (tests/driver_dlink_undefined.sh).
__device__ int bias = 1;

__device__ int offset(int x) { return x + 1; }

namespace geo {
__device__ float area(float r) { return 3.0f * r * r; }
}

template <class T> __device__ T doubled(T x) { return x + x; }
template __device__ float doubled<float>(float);
