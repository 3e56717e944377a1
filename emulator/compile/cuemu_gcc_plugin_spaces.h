/* cuemu_gcc_plugin_spaces.h: the refusals across CUDA's execution spaces
 * of cuemu's GCC plugin (cuemu_gcc_plugin_spaces.cc), and the execution
 * space of a function as the device pass marks it (cuemu_gcc_plugin.cc). */
#ifndef CUEMU_GCC_PLUGIN_SPACES_H
#define CUEMU_GCC_PLUGIN_SPACES_H

#include "cuemu_space_rules.h"

/* The space of `fn`: that of the innermost marked function it is or lies
 * in (a lambda's call operator, a local class's member). */
cuemu_space cuemu_gcc_plugin_space(tree fn);
/* Whether `fn` itself is a kernel, or a kernel template's instance. */
bool cuemu_gcc_plugin_kernel(tree fn);

/* Registers the pragmas `cuemu device_variable` and `cuemu shared` (from
 * the plugin's PLUGIN_PRAGMAS callback). */
void cuemu_gcc_plugin_spaces_pragmas();
/* Registers the checks under the plugin's name `plugin`: with
 * `unannotated_device`, functions without a space are device ones (NVRTC's
 * -default-device); with `relaxed`, device code may call constexpr host
 * functions (--expt-relaxed-constexpr). */
void cuemu_gcc_plugin_register_spaces(const char *plugin,
                                       bool unannotated_device, bool relaxed);

#endif
