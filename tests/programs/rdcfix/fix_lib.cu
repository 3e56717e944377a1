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

