// lambda_by_reference.cu: extended lambdas of host code that capture by
// reference, which nvcc refuses at the lambda's line ("An extended
// __device__ lambda cannot capture variables by reference"; REFUSE=1..3,
// tests/driver_extended_lambda.sh): the kernel runs after the host's frame
// may be gone, on a GPU in another memory. Without REFUSE, the captures
// nvcc accepts build and run: by copy, an init-capture that takes an
// address, `this`, and a by-reference lambda in device code.
#include <cstdio>

template <typename F> __global__ void apply(int *out, F f) { out[threadIdx.x] = f(threadIdx.x); }

struct Offset {
  int base = 1;
  void run(int *out) { apply<<<1, 4>>>(out, [this] __device__(int i) { return base + i; }); }
};

__device__ int twice_by_reference(int v) {
  auto add = [&](int w) { v += w; };
  add(v);
  return v;
}

void host_side(int *out) {
  int base = 5;
#if REFUSE == 1
  apply<<<1, 4>>>(out, [&] __device__(int i) { return base + i; });
#elif REFUSE == 2
  apply<<<1, 4>>>(out, [=, &base] __host__ __device__(int i) { return base + i; });
#elif REFUSE == 3
  apply<<<1, 4>>>(out, [&r = base] __device__(int i) { return r + i; });
#else
  apply<<<1, 4>>>(out, [=] __device__(int i) { return base + i; });
  apply<<<1, 4>>>(out + 4, [p = &out[0]] __device__(int i) { return p == nullptr ? -1 : 10 + i; });
  apply<<<1, 4>>>(out + 8, [] __device__(int i) { return twice_by_reference(i); });
#endif
}

int main() {
  int *out;
  cudaMallocManaged(&out, 16 * sizeof(int));
  host_side(out);
  Offset().run(out + 12);
  cudaDeviceSynchronize();
  std::printf("%d %d %d %d\n", out[1], out[5], out[9], out[13]);
  return 0;
}
