// fix_sys.h: a class of a system header (as a library's header installed
// under /usr/include), whose members fix_lib.cu defines.
// tests/programs_rdcfix.sh.
#ifndef FIX_SYS_H
#define FIX_SYS_H
#pragma GCC system_header

struct SysProbe {
  __device__ int dev_mark() const;            // 30 + branch
  __host__ __device__ int hd_mark() const;    // 40 + branch
};

#endif
