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
 * walks the section once (register_instances()) and registers every
 * instance with the device pass's thunk.
 */
#ifndef CUEMU_KERNEL_INSTANCES_H
#define CUEMU_KERNEL_INSTANCES_H

#include <map>
#include <string>
#include <utility>

#include <cuemu/cuemu_device.h>

namespace cuemu {

/* One entry of the section: what CUEMU_KERNEL_INSTANCE (pass 1, the device
 * pass) and CUEMU_KERNEL_HOST_INSTANCE (pass 2) emit. `symbol` is the
 * instance's assembler name; `unit` names the translation unit (its .cu). */
struct instance_record {
  const cuemu_kernel_desc *(*record)(const char *file, long line);
  const char *file;
  long line;
  const void *kernel;
  const char *symbol;
  const char *unit;
  long pass;
};

/* Registers kernel K (an instance of the device pass) with its
 * __launch_bounds__ values, unless the program knows it already; returns
 * its descriptor. Called when the program starts. */
template <auto K, unsigned MaxThreads, unsigned MinBlocks>
__attribute__((visibility("hidden"))) const cuemu_kernel_desc *
register_instance(const char *file, long line) {
  static cuemu_kernel_desc desc;
  static cuemu_module_desc module;
  if (module.kernels)
    return &desc;
  if (const cuemu_kernel_desc *known =
          cuemu_program_find(reinterpret_cast<const void *>(K)))
    return known;
  desc = describe<K>(kernel_name<K>(), file, static_cast<int>(line),
                     bounds{MaxThreads, MinBlocks});
  module.abi = CUEMU_MODULE_ABI;
  module.kernel_count = 1;
  module.kernels = &desc;
  cuemu_program_register(&module);
  return &desc;
}

/* Registers the instances of the records [begin, end), once per program.
 * A host pass's instance that is not the device pass's (a template
 * argument without linkage, such as a lambda, makes each pass's instance
 * its own) is registered as another name of the device pass's instance of
 * the same symbol in the same translation unit. */
inline void register_instances(const instance_record *begin,
                               const instance_record *end) {
  static bool done;
  if (done || !begin)
    return;
  done = true;
  std::map<std::pair<std::string, std::string>, const cuemu_kernel_desc *>
      device;
  for (const instance_record *r = begin; r < end; ++r)
    if (r->pass == 1)
      device[{r->symbol, r->unit}] = r->record(r->file, r->line);
  for (const instance_record *r = begin; r < end; ++r) {
    if (r->pass != 2 || cuemu_program_find(r->kernel))
      continue;
    auto found = device.find({r->symbol, r->unit});
    if (found == device.end() || !found->second)
      continue;
    cuemu_kernel_desc *alias = new cuemu_kernel_desc(*found->second);
    alias->function = r->kernel;
    cuemu_module_desc *module =
        new cuemu_module_desc{CUEMU_MODULE_ABI, 1, alias};
    cuemu_program_register(module);
  }
}

} // namespace cuemu

#endif /* CUEMU_KERNEL_INSTANCES_H */
