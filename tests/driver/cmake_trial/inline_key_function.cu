// A CUDA program whose unit holds a library's C++ class with its virtual
// functions defined inline after the class, as Open MPI's C++ bindings are
// (mpi.h included from a .cu file of an MPI + CUDA program whose CMake
// target links MPI::MPI_C alone). The host compiler emits such a class's
// vtable in every unit, and with it a reference to the library function
// that one of them calls, which the program's link must drop as nvcc's
// host code never has it: CMake's link of a CUDA target (cuemu-host-link)
// failed with an undefined reference where nvcc's links.
#include <cstdio>

// In a library that this program does not link.
extern "C" void binding_release_handle(void *handle);

struct Binding {
  virtual ~Binding();
  virtual void release();
};
inline Binding::~Binding() {}
inline void Binding::release() { binding_release_handle(this); }

__global__ void twice(int *values) { values[threadIdx.x] *= 2; }

int main() {
  const int n = 32;
  int host[n], *device = nullptr;
  for (int i = 0; i < n; ++i) host[i] = i;
  if (cudaMalloc(&device, sizeof host) != cudaSuccess) return 1;
  cudaMemcpy(device, host, sizeof host, cudaMemcpyHostToDevice);
  twice<<<1, n>>>(device);
  cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(device);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += host[i] != 2 * i;
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
