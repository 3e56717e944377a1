/* alloc.c (check_alloc_nodebug.sh): a library routine that allocates device
 * memory, compiled by the host C compiler without -g, as a Makefile's C
 * files often are. */
#include <cuda_runtime_api.h>
#include <stddef.h>

void *make_device_buffer(size_t bytes) {
  void *p = NULL;
  if (cudaMalloc(&p, bytes) != cudaSuccess)
    return NULL;
  return p;
}
