// fix_lib.cu: the definitions of fix_lib.cuh, whose device code
// fix_main.cu's kernels run (relocatable device code, one or two
// architectures). tests/programs_rdcfix.sh.
// NVCC_OPTIONS: -rdc=true
#include <new>

#include "fix_lib.cuh"

// The branch of the code that runs.
static __host__ __device__ int branch()
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

template <class T> __device__ T Ops<T>::apply(T v) const
{
  return v + branch();
}
template struct Ops<int>;

__device__ int Tally::dev_static() { return branch(); }
__host__ __device__ int Tally::hd_static() { return branch(); }
__device__ int Tally::operator()(int v) const { return base + v + branch(); }
__host__ __device__ int Tally::operator+(int v) const
{
  return base + v + branch();
}

__device__ int Shape::dev_kind() const { return branch(); }
__host__ __device__ int Shape::hd_kind() const { return branch(); }
__device__ int Square::dev_kind() const { return 10 + branch(); }
__host__ __device__ int Square::hd_kind() const { return 20 + branch(); }
__device__ Shape *make_square(void *mem) { return new (mem) Square(); }

__device__ int SysProbe::dev_mark() const { return 30 + branch(); }
__host__ __device__ int SysProbe::hd_mark() const { return 40 + branch(); }

static __device__ int plus_branch(int v) { return v + branch(); }
__device__ int neg_branch(int v) { return v - branch(); }
__device__ op_t chosen_op = plus_branch;
__device__ op_t op_table[2] = {plus_branch, neg_branch};
__constant__ op_t const_op = neg_branch;

// Static shared memory of device functions that another unit's kernel
// calls (shared_user, fix_main.cu): 128 bytes here, 256 in its callee.
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
