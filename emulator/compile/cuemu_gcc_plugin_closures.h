/* cuemu_gcc_plugin_closures.h: the refusal of a kernel template
 * instantiated with the closure type of a lambda that nvcc does not allow
 * there (cuemu_gcc_plugin_closures.cc). */
#ifndef CUEMU_GCC_PLUGIN_CLOSURES_H
#define CUEMU_GCC_PLUGIN_CLOSURES_H

/* Registers the check under the plugin's name `plugin`. */
void cuemu_gcc_plugin_register_closures(const char *plugin);

#endif
