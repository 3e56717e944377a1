// device_new_virtual_initcheck.cu: objects of a class hierarchy with
// virtual functions made with `new` in a one-thread kernel (the "ray
// tracing in one weekend" CUDA port's world), called through base
// pointers by every thread of another kernel and deleted by a third.
// Under initcheck, the virtual call's load of the vtable pointer was
// reported as a read of uninitialised device-heap memory: the
// constructor's store of it reaches the checkers as
// __tsan_vptr_update, which recorded nothing. Reduced from a path tracer
// of branch trialapps.
// CUEMU_OPTIONS: --check=init,race,mem
#include <cstdio>

struct shape {
  __device__ virtual ~shape() {}
  __device__ virtual float area() const = 0;
};
struct square : shape {
  float side;
  __device__ explicit square(float s) : side(s) {}
  __device__ float area() const override { return side * side; }
};
struct disc : shape {
  float radius;
  __device__ explicit disc(float r) : radius(r) {}
  __device__ float area() const override { return 3.0f * radius * radius; }
};

__global__ void make_world(shape **list, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    for (int i = 0; i < n; i++)
      list[i] = i % 2 ? static_cast<shape *>(new disc(float(i)))
                      : static_cast<shape *>(new square(float(i)));
}

__global__ void areas(shape *const *list, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = list[i]->area();
}

__global__ void free_world(shape **list, int n) {
  for (int i = 0; i < n; i++)
    delete list[i];
}

int main() {
  const int n = 40;
  shape **list;
  float *out;
  cudaMalloc(&list, n * sizeof(shape *));
  cudaMallocManaged(&out, n * sizeof(float));
  make_world<<<1, 1>>>(list, n);
  areas<<<2, 32>>>(list, n, out);
  free_world<<<1, 1>>>(list, n);
  cudaError_t err = cudaDeviceSynchronize();
  int ok = err == cudaSuccess;
  for (int i = 0; i < n && ok; i++)
    ok = out[i] == (i % 2 ? 3.0f * i * i : float(i) * i);
  printf("status %s, area[3] %.1f\n", cudaGetErrorName(err), out[3]);
  cudaFree(list);
  cudaFree(out);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
