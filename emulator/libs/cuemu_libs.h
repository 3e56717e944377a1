/*
 * cuemu_libs.h: what cuemu's libraries of CUDA's (cuBLAS, cuRAND, ...:
 * emulator/libs/libs.am) share. Only the files of emulator/libs include it.
 */
#ifndef CUEMU_LIBS_H
#define CUEMU_LIBS_H

#include <stddef.h>

/* Checks that [p, p + bytes) is memory a kernel may read or write (a
 * device, managed, symbol or mapped host allocation). Where it is not, a
 * GPU's kernel faults: the fault is recorded as a kernel's is
 * (cuemu_rt_library_fault(CUEMU_KERNEL_FAULT): cudaErrorIllegalAddress, sticky, with a
 * message naming the function `name` and the argument `arg`) and 0 is
 * returned; the caller then enqueues nothing and returns success, as the
 * launch itself succeeded on a GPU. 1 when the range is device memory or
 * empty. */
int cuemu__libs_device_range(const char *name, const char *arg, const void *p,
                             size_t bytes);

/* While set on this thread (cuBLASXt's routines, which take host memory
 * as well as the devices': cuemu_blas_xt.c), cuemu__libs_device_range
 * takes any range as device memory. */
void cuemu__libs_host_operands(int on);

/* Checks that p is aligned to `align` bytes (its element's size), as a
 * GPU's loads and stores of that type require. Where it is not, a GPU's
 * kernel faults with cudaErrorMisalignedAddress; so does cuemu
 * (cuemu_rt_library_fault(CUEMU_MISALIGNED_ADDRESS): sticky
 * cudaErrorMisalignedAddress, with a message naming the function, the
 * argument and the alignment), and 0 is returned. */
int cuemu__libs_aligned(const char *name, const char *arg, const void *p,
                        size_t align);

/* What cuemu__libs_submit() did. */
enum {
  CUEMU_LIBS_QUEUED = 0,    /* the operation is on the stream */
  CUEMU_LIBS_NO_MEMORY = 1, /* no memory for it (it is destroyed) */
  CUEMU_LIBS_NOT_QUEUED = 2 /* the stream refused it (it is destroyed) */
};

/* Enqueues run(data) on `stream` as a host function, as a library's GPU
 * kernels are launched there; a graph being captured on the stream takes
 * the operation as a host node and owns it (it may replay it). destroy(data)
 * is called after the run, when the graph is destroyed, or at once when
 * the operation cannot be queued. */
int cuemu__libs_submit(void *stream, void (*run)(void *data),
                       void (*destroy)(void *data), void *data);

/* The legacy API's matrix descriptor (cusparseMatDescr_t: matrix type,
 * fill mode, diagonal type, index base), which cuSPARSE makes
 * (cusparseCreateMatDescr) and cuSOLVER's sparse API reads. */
struct cusparseMatDescr {
  int type, fill, diag, base;
};

#endif /* CUEMU_LIBS_H */
