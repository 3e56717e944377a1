// fix_shape.cu: Circle's virtual members (fix_lib.cuh): in a -lib
// archive, fix_main.cu's kernel, which builds a Circle, brings it into the
// link through Circle's virtual table. Also build_hexagon, whose Hexagon's
// table alone brings fix_hex.cu's member of the archive in.
// tests/programs_rdcfix.sh.
// NVCC_OPTIONS: -rdc=true
#include <new>

#include "fix_lib.cuh"

// The branch of the code that runs.
static __host__ __device__ int shape_branch()
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

__device__ int Circle::dev_kind() const { return 50 + shape_branch(); }
__host__ __device__ int Circle::hd_kind() const { return 60 + shape_branch(); }

// Not inlined into its caller: this member's reference to Hexagon's table
// is what brings fix_hex.o in.
__device__ __noinline__ Shape *build_hexagon(void *mem)
{
  return new (mem) Hexagon();
}

// Static shared memory of device functions that another unit's kernel
// calls (shared_user, fix_main.cu): 128 bytes here, 256 in its callee; in
// the -lib archive, the link reads them from this member.
static __device__ __noinline__ int staged_inner(int v)
{
  __shared__ int inner[64];
  for (unsigned k = threadIdx.x; k < 64; k += blockDim.x)
    inner[k] = v + (int)k;
  __syncthreads();
  return inner[(threadIdx.x * 7 + v) % 64] - (int)((threadIdx.x * 7 + v) % 64);
}
__device__ int staged_sum(int v)
{
  __shared__ int outer[32];
  int got = staged_inner(v);
  for (unsigned k = threadIdx.x; k < 32; k += blockDim.x)
    outer[k] = got + 1 + (int)k;
  __syncthreads();
  return outer[(threadIdx.x * 5 + v) % 32] - (int)((threadIdx.x * 5 + v) % 32);
}
