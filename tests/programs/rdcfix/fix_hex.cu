// fix_hex.cu: Hexagon's virtual members (fix_lib.cuh), the only
// definitions of this unit: in a -lib archive, only the table that another
// member (fix_shape.cu's build_hexagon) references brings it into the
// link, as nvlink links it. tests/programs_rdcfix.sh.
// NVCC_OPTIONS: -rdc=true
#include "fix_lib.cuh"

// The branch of the code that runs.
static __host__ __device__ int hex_branch()
{
#ifdef __CUDA_ARCH__
#if __CUDA_ARCH__ >= 900
  return 900;
#else
  return 800;
#endif
#else
  return -1;
#endif
}

__device__ int Hexagon::dev_kind() const { return 70 + hex_branch(); }
__host__ __device__ int Hexagon::hd_kind() const { return 80 + hex_branch(); }
