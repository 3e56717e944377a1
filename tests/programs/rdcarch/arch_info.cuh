// arch_info.cuh: what arch_info.cu and arch_kernels.cu share (relocatable
// device code: the functions and the variable are defined once, in
// arch_info.cu). tests/programs_rdcarch.sh.
#ifndef ARCH_INFO_CUH
#define ARCH_INFO_CUH

extern __device__ int mailbox;
__device__ int pass_arch();
__device__ void count_post();
__device__ int post_count();

#endif
