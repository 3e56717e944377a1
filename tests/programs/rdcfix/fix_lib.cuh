// fix_lib.cuh: what fix_lib.cu defines and fix_main.cu's kernels call
// (relocatable device code). Each function answers the branch of the
// code that runs: 900 or 800 by `#if __CUDA_ARCH__ >= 900` in device
// code, -1 in host code. tests/programs_rdcfix.sh.
#ifndef FIX_LIB_CUH
#define FIX_LIB_CUH

#include "fix_sys.h"

// A class template whose member fix_lib.cu defines outside the class and
// instantiates explicitly (`template struct Ops<int>;`): v + branch.
template <class T> struct Ops {
  __device__ T apply(T v) const;
};

// Static members and operators, defined in fix_lib.cu.
struct Tally {
  int base;
  __device__ static int dev_static();
  __host__ __device__ static int hd_static();
  __device__ int operator()(int v) const;            // base + v + branch
  __host__ __device__ int operator+(int v) const;    // base + v + branch
};

// Virtual members, defined in fix_lib.cu (the key function there).
struct Shape {
  __device__ virtual int dev_kind() const;
  __host__ __device__ virtual int hd_kind() const;
};
struct Square : Shape {
  __device__ int dev_kind() const override;          // 10 + branch
  __host__ __device__ int hd_kind() const override;  // 20 + branch
};
// Virtual members defined in fix_shape.cu, which defines nothing else: put
// in a -lib archive, only the virtual table that fix_main.cu's kernel
// builds an object with brings it into the link.
struct Circle : Shape {
  __device__ int dev_kind() const override;          // 50 + branch
  __host__ __device__ int hd_kind() const override;  // 60 + branch
};
// Virtual members defined in fix_hex.cu, which defines nothing else: in
// the -lib archive, only the virtual table that fix_shape.cu's
// build_hexagon (another member) builds an object with brings it in.
struct Hexagon : Shape {
  __device__ int dev_kind() const override;          // 70 + branch
  __host__ __device__ int hd_kind() const override;  // 80 + branch
};
// Builds a Hexagon in mem (device code of fix_shape.cu).
__device__ Shape *build_hexagon(void *mem);
// Builds a Square in mem (device code of fix_lib.cu).
__device__ Shape *make_square(void *mem);

// Pointers to __device__ functions, initialized in fix_lib.cu.
typedef int (*op_t)(int);
__device__ int neg_branch(int v);                     // v - branch
extern __device__ op_t chosen_op;                     // v + branch
extern __device__ op_t op_table[2];                   // + branch, - branch
extern __constant__ op_t const_op;                    // v - branch

// Declares 128 bytes of static shared memory and calls a function of its
// unit that declares 256 (fix_shape.cu): v + 1.
__device__ int staged_sum(int v);

#endif
