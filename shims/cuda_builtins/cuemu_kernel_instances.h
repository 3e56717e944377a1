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
 * instance the program holds; when the program starts, the host pass of
 * each translation unit walks the section (register_instances()) and each
 * record registers its instance once, with the device pass's thunk.
 */
#ifndef CUEMU_KERNEL_INSTANCES_H
#define CUEMU_KERNEL_INSTANCES_H

#include <cuemu/cuemu_device.h>

namespace cuemu {

/* One entry of the section: what CUEMU_KERNEL_INSTANCE emits. */
struct instance_record {
  void (*record)(const char *file, long line);
  const char *file;
  long line;
  const void *kernel;
};

/* Registers kernel K (an instance) with its __launch_bounds__ values,
 * unless the program knows it already. Called when the program starts. */
template <auto K, unsigned MaxThreads, unsigned MinBlocks>
__attribute__((visibility("hidden"))) void register_instance(const char *file,
                                                             long line) {
  static cuemu_kernel_desc desc;
  static cuemu_module_desc module;
  if (module.kernels || cuemu_program_find(reinterpret_cast<const void *>(K)))
    return;
  desc = describe<K>(kernel_name<K>(), file, static_cast<int>(line),
                     bounds{MaxThreads, MinBlocks});
  module.abi = CUEMU_MODULE_ABI;
  module.kernel_count = 1;
  module.kernels = &desc;
  cuemu_program_register(&module);
}

/* Registers the instances of the records [begin, end). */
inline void register_instances(const instance_record *begin,
                               const instance_record *end) {
  for (; begin && begin < end; ++begin)
    begin->record(begin->file, begin->line);
}

} // namespace cuemu

#endif /* CUEMU_KERNEL_INSTANCES_H */
