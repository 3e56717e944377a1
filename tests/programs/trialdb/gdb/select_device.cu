// select_device.cu: the LIKE pattern in constant memory and the row-id
// kernel declared in select.cuh.
// NVCC_OPTIONS: -rdc=true -I..
#include "gdb/select.cuh"

namespace gdb {

__constant__ char c_prefix[kStrWidth];
__constant__ int c_prefix_len;

__global__ void iota_kernel(int* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = i;
}

}  // namespace gdb
