// arch_info.cuh: what arch_info.cu and arch_kernels.cu share (relocatable
// device code: the functions and the variable are defined once, in
// arch_info.cu). tests/programs_rdcarch.sh.
#ifndef ARCH_INFO_CUH
#define ARCH_INFO_CUH

extern __device__ int mailbox;
__device__ int pass_arch();
__device__ void count_post();
__device__ int post_count();

// A function template of which arch_info.cu has an explicit instantiation
// (int: v * pass_arch()) and an explicit specialization (float: v +
// pass_arch()); arch_kernels.cu sees this declaration alone.
template <class T> __device__ T scaled_arch(T v);

// A class whose __device__ member arch_info.cu defines: v + pass_arch().
struct ArchPlus {
  __device__ int plus(int v) const;
};

#endif
