// exported.cu: relocatable device code whose host function has default
// visibility, as a Python extension's PyInit_NAME has (PYBIND11_MODULE),
// and uses host variables and functions that no input of the device link
// defines: the host program's (exported_main.cpp here, the Python
// interpreter's PyExc_TypeError and PyType_Type there). nvcc's device
// link sees device code alone, so -dlink of exported.o alone passes
// (tests/driver_dlink_undefined.sh).
#include <cuda_runtime.h>

extern "C" int host_counter;
extern "C" int host_bump(int x);

__global__ void fill(int *out, int base) { out[threadIdx.x] = base + int(threadIdx.x); }

extern "C" __attribute__((visibility("default"))) int exported_entry() {
  int *d = nullptr, h[4] = {0, 0, 0, 0};
  if (cudaMalloc(&d, sizeof h) != cudaSuccess)
    return -1;
  fill<<<1, 4>>>(d, host_bump(host_counter));
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return h[3];
}
