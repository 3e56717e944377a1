/* cuemu_gcc_plugin_host_code.h: the device pass compiles no host code that
 * device code does not reach (cuemu_gcc_plugin_host_code.cc), registered
 * by plugin_init (cuemu_gcc_plugin.cc). */
#ifndef CUEMU_GCC_PLUGIN_HOST_CODE_H
#define CUEMU_GCC_PLUGIN_HOST_CODE_H

/* Registers the step under the plugin's name `plugin`. */
void cuemu_gcc_plugin_register_host_code(const char *plugin);

#endif
