// NVCC_OPTIONS: -rdc=true -I../../../include --expt-relaxed-constexpr
#include "types.cuh"

__constant__ md::TypeTable c_types;

cudaError_t geom_set_types(const md::TypeTable &t, cudaStream_t stream) {
  return cudaMemcpyToSymbolAsync(c_types, &t, sizeof(t), 0, cudaMemcpyHostToDevice, stream);
}
