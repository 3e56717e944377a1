// undeclared_instantiated.cu: a class template that only the device pass
// sees names a variable declared nowhere, and a kernel instantiates it:
// nvcc's device pass refuses it, so cuemu-nvcc must too
// (tests/driver_device_undeclared.sh).
#ifdef __CUDA_ARCH__
template <int N> struct device_only {
  __device__ static int get() { return nowhere_used + N; }
};
#endif

__global__ void use_it(int *out) {
#ifdef __CUDA_ARCH__
  *out = device_only<1>::get();
#endif
}

int main() { return 0; }
