/*
 * cuemu_kernel_instances.h: the registration of kernel template instances.
 *
 * A kernel template's instances are not in a translation unit's table of
 * kernels (cuemu-cc cannot know them), yet a program may launch them
 * through a pointer, pass them to cudaFuncGetAttributes as `const void *`
 * or ask for their occupancy before the first launch, as CUB and Thrust
 * do. So cuemu-cc puts CUEMU_KERNEL_INSTANCE (cuemu_qualifiers.h) first in
 * the body of every kernel template of the device pass, which adds an
 * instance_record to the program's section `cuemu_instances` for every
 * instance the program holds, and CUEMU_KERNEL_HOST_INSTANCE is the whole
 * body of the host pass's; when the program starts, the host pass's code
 * hands the section to libcuemu (cuemu_program_register_instances(), which
 * registers every instance with the device pass's thunk once per program).
 */
#ifndef CUEMU_KERNEL_INSTANCES_H
#define CUEMU_KERNEL_INSTANCES_H

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_instances.h>

/* describe(), kernel_name() and param_table (this header is included at its
 * end, and includes it when included first). */
#include "cuemu_kernel_thunks.h"

namespace cuemu {

/* One entry of the section: what CUEMU_KERNEL_INSTANCE (pass 1, the device
 * pass) and CUEMU_KERNEL_HOST_INSTANCE (pass 2) emit (cuemu_instances.h).
 * A device pass's `record` registers the instance and returns its
 * descriptor; a host pass's returns the instance's parameters
 * (host_instance_params). The host pass's code hands the section to
 * cuemu_program_register_instances() when the program starts. */
using instance_record = cuemu_instance_record;

/* Registers kernel K (an instance of the device pass) with its
 * __launch_bounds__ values, unless the program knows it already; returns
 * its descriptor. Called when the program starts. */
template <typename KT, KT K_, unsigned MaxThreads, unsigned MinBlocks>
CUEMU_PER_MODULE const void *
register_instance(const char *file, long line) {
  static cuemu_kernel_desc desc;
  static cuemu_module_desc module;
  if (module.kernels)
    return &desc;
  if (const cuemu_kernel_desc *known =
          cuemu_program_find(reinterpret_cast<const void *>(K_)))
    return known;
  desc = describe<KT, K_>(kernel_name<KT, K_>(), file, static_cast<int>(line),
                         bounds{MaxThreads, MinBlocks});
  module.abi = CUEMU_MODULE_ABI;
  module.kernel_count = 1;
  module.kernels = &desc;
  cuemu_program_register(&module);
  return &desc;
}

/* The descriptor of kernel K, an instance of a further device pass (one
 * per virtual architecture: docs/nvcc-checks.md), whose record's pass word
 * is that pass's __CUDA_ARCH__; cuemu_program_register_instances() makes
 * it a variant of the first pass's instance of the same symbol, not a
 * kernel of its own. Called when the program starts. */
template <typename KT, KT K_, unsigned MaxThreads, unsigned MinBlocks>
CUEMU_PER_MODULE const void *
cuemu_variant_instance(const char *file, long line) {
  static cuemu_kernel_desc desc;
  if (!desc.thunk)
    desc = describe<KT, K_>(kernel_name<KT, K_>(), file,
                            static_cast<int>(line),
                            bounds{MaxThreads, MinBlocks});
  return &desc;
}

/* The parameters of a host pass's instance K. */
template <typename KT, KT K_>
CUEMU_PER_MODULE const void *host_instance_params(const char *, long) {
  return param_table<KT>::get();
}

/* The type of the parameter of the lambda around an extended lambda of
 * host code (emulator/compile/cuemu_lambda_passes.c): the extended
 * lambda's place in the source, which gives its closure type one name in
 * both passes. */
template <int Line, unsigned long Column> struct lambda_tag {};

/* The device pass's instance of the host pass's instance K, which the
 * host pass's body of K calls (CUEMU_KERNEL_HOST_FORWARD): a launch that
 * calls K by name (a kernel template launched with deduced template
 * arguments) runs the device pass's code. */
template <typename KT, KT K_>
CUEMU_PER_MODULE KT device_instance(const char *file, long line, const char *function) {
  static const void *const __cuemu_found =
      cuemu_program_device_instance(reinterpret_cast<const void *>(K_));
  if (!__cuemu_found)
    cuemu_kernel_assert_fail("the host pass's instance of this kernel "
                             "template was not matched to the device pass's "
                             "(see cuemu's docs/thrust.md)",
                             file, static_cast<int>(line), function);
  return reinterpret_cast<KT>(const_cast<void *>(__cuemu_found));
}

} // namespace cuemu

#ifdef CUEMU_RECORD_INSTANCES
/* The module's records (CUEMU_MODULE_INSTANCE), for the reader of
 * -Xptxas -v: the first, and the end in *end. */
extern "C" const ::cuemu::instance_record __start_cuemu_instances[]
    __attribute__((weak, visibility("hidden")));
extern "C" const ::cuemu::instance_record __stop_cuemu_instances[]
    __attribute__((weak, visibility("hidden")));
extern "C" __attribute__((weak, used, visibility("default"))) const ::cuemu::instance_record *
cuemu_module_instances(const ::cuemu::instance_record **end) {
  *end = __stop_cuemu_instances;
  return __start_cuemu_instances;
}
#endif

#endif /* CUEMU_KERNEL_INSTANCES_H */
