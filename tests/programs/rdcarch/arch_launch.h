// arch_launch.h: the host launchers of arch_kernels.cu, for main.cpp.
// tests/programs_rdcarch.sh.
#ifndef ARCH_LAUNCH_H
#define ARCH_LAUNCH_H

// The branch of the code that runs on the current device: the kernel's own
// unit's (*caller), arch_info.cu's device function's (*callee), and its
// __host__ __device__ function's and member function's (host_device[0],
// host_device[1]: 2 more). host[0] is what the launcher's host code gets
// from that function (-1) and main.cpp's (times 10, plus 3): -7; host[1]
// the member's host code: 1. templates[0..2]: arch_info.cu's explicit
// instantiation, explicit specialization and class member (1 * arch, 1 +
// arch, 7 + arch).
int launch_report(int *caller, int *callee, int *host_device, int *host,
                  int *templates);
// Posts tag * 1000 + the running code's architecture into the mailbox.
int launch_post(int tag);
// The mailbox and the count of posts as a kernel reads them, and the
// mailbox as cudaMemcpyFromSymbol reads it.
int launch_fetch(int *value, int *count, int *symbol);

#endif
