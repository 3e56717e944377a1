/*
 * cuemu_device_only_kernels.c: kernels that the device pass alone defines.
 *
 * nvcc's host pass writes a stub for every __global__ function that its
 * device pass compiles, and the stub names the function: a kernel that
 * the host pass does not see (defined under `#if defined(__CUDA_ARCH__)`)
 * fails to compile there ("'k' was not declared in this scope", nvcc 13's
 * .stub.c), whether or not a launch names it. cuemu's host pass finds the
 * device pass's kernels by address and needs no stub, so it built such
 * programs, whose host code then ran without the kernel. It refuses them
 * as nvcc does, naming the kernel's file and line. Kernel templates are
 * not judged: nvcc writes stubs for the instances its device pass makes,
 * which the translation does not see.
 */
#include <string.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"
#include "cuemu_rewrite.h"

/* Non-zero when the pass `rw` has a kernel (a declaration or a definition)
 * named `name`. */
static int has_kernel(const cuemu_rewrite *rw, const char *name) {
  for (int i = 0; i < rw->kernel_count; ++i)
    if (rw->kernels[i].name && strcmp(rw->kernels[i].name, name) == 0)
      return 1;
  return 0;
}

cuemu_status cuemu__device_only_kernels(const cuemu_rewrite *device,
                                        const cuemu_rewrite *host,
                                        const char *source) {
  for (int i = 0; i < device->kernel_count; ++i) {
    const cuemu_kernel_decl *k = &device->kernels[i];
    if (k->is_template || !k->is_definition || !k->name ||
        has_kernel(host, k->name))
      continue;
    return cuemu__report(
        CUEMU_COMPILE,
        "%s:%d: error: kernel '%s' is defined in the device pass only "
        "(within #if __CUDA_ARCH__): nvcc's host pass, whose stub names "
        "every kernel of the device pass, refuses it ('%s' was not "
        "declared in this scope)",
        k->file ? k->file : source, k->line, k->name, k->name);
  }
  return CUEMU_SUCCESS;
}
