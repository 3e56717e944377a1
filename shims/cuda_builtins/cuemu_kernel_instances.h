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

#include <cstring>
#include <map>
#include <string>
#include <utility>

#include <cuemu/cuemu_device.h>

/* describe(), kernel_name() and param_table (this header is included at its
 * end, and includes it when included first). */
#include "cuemu_kernel_thunks.h"

namespace cuemu {

/* One entry of the section: what CUEMU_KERNEL_INSTANCE (pass 1, the device
 * pass) and CUEMU_KERNEL_HOST_INSTANCE (pass 2) emit. `symbol` is the
 * instance's assembler name; `unit` names the translation unit (its .cu).
 * `record` registers a device pass's instance and returns its descriptor;
 * a host pass's `record` returns the instance's parameters
 * (host_instance_params). */
struct instance_record {
  const void *(*record)(const char *file, long line);
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
__attribute__((visibility("hidden"))) const void *
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

/* What tells a kernel template's instance apart in both passes: its
 * symbol, where clang's numbers of unnamed types (`3$_12`, given in the
 * order clang meets them, which differs between the passes) are left out,
 * and the spelling of its parameters' types, where clang names a lambda
 * by its place in the source and g++ by its function and signature (g++'s
 * symbols number lambdas in the source's order). */
inline std::string instance_key(const char *symbol,
                                const cuemu_param_desc *params) {
  std::string key;
  /* The number of the lambda around an extended lambda (lambda_tag<L, C>
   * below: `UlN5cuemu10lambda_tagILi24ELm34EEEE0_`, the number before the
   * last `_`), which g++ 12 counts among all the function's lambdas, those
   * of one pass too: the tag is the lambda's place, which tells it apart. */
  static const char tag[] = "10lambda_tagILi";
  std::string unnumbered;
  for (const char *c = symbol; *c; ++c) {
    unnumbered += *c;
    if (std::strncmp(c, tag, sizeof tag - 1) != 0)
      continue;
    const char *p = c + sizeof tag - 1;
    while (*p >= '0' && *p <= '9')
      ++p;
    if (std::strncmp(p, "ELm", 3) != 0)
      continue;
    for (p += 3; *p >= '0' && *p <= '9';)
      ++p;
    if (std::strncmp(p, "EEEE", 4) != 0)
      continue;
    unnumbered.append(c + 1, p + 4);
    for (c = p + 4; *c >= '0' && *c <= '9';)
      ++c;
    --c; /* the `_` is copied next */
  }
  symbol = unnumbered.c_str();
  for (const char *c = symbol; *c; ++c) {
    if (c[0] != '$' || c[1] != '_') {
      key += *c;
      continue;
    }
    /* `3$_12`: the length before it goes too. */
    while (!key.empty() && key.back() >= '0' && key.back() <= '9')
      key.pop_back();
    key += "$_";
    for (c += 2; *c >= '0' && *c <= '9'; ++c) {
    }
    --c;
  }
  for (; params && params->ctype; ++params) {
    key += '|';
    key += params->ctype;
  }
  return key;
}

/* The parameters of a host pass's instance K. */
template <auto K> const void *host_instance_params(const char *, long) {
  return param_table<decltype(K)>::get();
}

/* The type of the parameter of the lambda around an extended lambda of
 * host code (emulator/compile/cuemu_lambda_passes.c): the extended
 * lambda's place in the source, which gives its closure type one name in
 * both passes. */
template <int Line, unsigned long Column> struct lambda_tag {};

/* The device pass's instance of each host pass's instance that is its
 * own (register_instances()). */
inline std::map<const void *, const void *> &device_instances() {
  static std::map<const void *, const void *> instances;
  return instances;
}

/* The device pass's instance of the host pass's instance K, which the
 * host pass's body of K calls (CUEMU_KERNEL_HOST_FORWARD): a launch that
 * calls K by name (a kernel template launched with deduced template
 * arguments) runs the device pass's code. */
template <auto K>
decltype(K) device_instance(const char *file, long line, const char *function) {
  static const void *const found = [] {
    auto it = device_instances().find(reinterpret_cast<const void *>(K));
    return it == device_instances().end() ? nullptr : it->second;
  }();
  if (!found)
    cuemu_kernel_assert_fail("the host pass's instance of this kernel "
                             "template was not matched to the device pass's "
                             "(see cuemu's docs/thrust.md)",
                             file, static_cast<int>(line), function);
  return reinterpret_cast<decltype(K)>(const_cast<void *>(found));
}

/* Registers the instances of the records [begin, end), once per program.
 * A host pass's instance that is not the device pass's (a template
 * argument without linkage, such as a lambda, makes each pass's instance
 * its own) is registered as another name of the device pass's instance of
 * the same translation unit and the same key (instance_key()). */
inline void register_instances(const instance_record *begin,
                               const instance_record *end) {
  static bool done;
  if (done || !begin)
    return;
  done = true;
  std::map<std::pair<std::string, std::string>, const cuemu_kernel_desc *>
      device; /* (unit, key) */
  for (const instance_record *r = begin; r < end; ++r) {
    if (r->pass != 1)
      continue;
    auto d = static_cast<const cuemu_kernel_desc *>(r->record(r->file, r->line));
    if (d)
      device[{r->unit, instance_key(r->symbol, d->params)}] = d;
  }
  for (const instance_record *r = begin; r < end; ++r) {
    if (r->pass != 2 || cuemu_program_find(r->kernel))
      continue;
    auto params = static_cast<const cuemu_param_desc *>(r->record(nullptr, 0));
    auto found = device.find({r->unit, instance_key(r->symbol, params)});
    if (found == device.end())
      continue;
    cuemu_kernel_desc *alias = new cuemu_kernel_desc(*found->second);
    alias->function = r->kernel;
    device_instances()[r->kernel] = found->second->function;
    cuemu_program_register(new cuemu_module_desc{CUEMU_MODULE_ABI, 1, alias});
  }
}

} // namespace cuemu

#endif /* CUEMU_KERNEL_INSTANCES_H */
