/* cuemu_plugin_host_code.h: what cuemu's clang plugin tells cuemu's LLVM
 * pass plugin, both loaded by the device pass of clang++, about the
 * functions and variables of the unit, so that the pass compiles no host
 * code that device code does not reach (cuemu_llvm_plugin_host_code.cc),
 * as cuemu_gcc_plugin_host_code.cc does for g++.
 *
 * The clang plugin, given its argument `drop-host-code`, knows the
 * execution space of each function from the device pass's marks
 * (cuemu_clang_plugin.cc); the pass sees only the IR, by mangled names.
 * So the clang plugin records, before the code generation's optimisation
 * pipeline starts (cuemu_clang_plugin_host_code.cc), the kind of each
 * name of the user's files, and exports the lookup below with C linkage;
 * clang++ loads both plugins with RTLD_GLOBAL, and the pass finds it by
 * name (llvm::sys::DynamicLibrary), so that neither plugin links the
 * other. */
#ifndef CUEMU_PLUGIN_HOST_CODE_H
#define CUEMU_PLUGIN_HOST_CODE_H

/* The kind of a mangled name of the unit. */
typedef enum cuemu_host_code_kind {
  /* The clang plugin recorded nothing: it was not loaded, or not asked to
   * (CUEMU_DEVICE_HOST_CODE=1, or not a device pass). */
  CUEMU_HOST_CODE_OFF = -1,
  /* Not a name of the user's files (a system header's, the compiler's). */
  CUEMU_HOST_CODE_FOREIGN = 0,
  /* A function or variable of the user's files that the pass keeps as it
   * keeps the others (device code, variables, or a function visible to
   * the host pass). */
  CUEMU_HOST_CODE_USER = 1,
  /* A host function of the user's files, not made by the compiler and not
   * visible to the host pass: dropped unless something else reaches it. */
  CUEMU_HOST_CODE_HOST = 2
} cuemu_host_code_kind;

/* The name of the lookup, and its type: the kind of the mangled `name`. */
#define CUEMU_HOST_CODE_LOOKUP "cuemu_clang_plugin_host_code_kind"
typedef cuemu_host_code_kind (*cuemu_host_code_lookup)(const char *name);

#endif
