/* cuemu_gcc_plugin_align.h: the alignment pass of cuemu's GCC plugin
 * (cuemu_gcc_plugin_align.cc), registered by plugin_init
 * (cuemu_gcc_plugin.cc). */
#ifndef CUEMU_GCC_PLUGIN_ALIGN_H
#define CUEMU_GCC_PLUGIN_ALIGN_H

/* Registers the pass that tests the address of each access of device code
 * to an object aligned to 8 or 16 bytes through a pointer, under the
 * plugin's name `plugin`. */
void cuemu_gcc_plugin_register_align(const char *plugin);

/* Whether function `fn` is device code: marked by cuemu-cc, or inside a
 * function that is (cuemu_gcc_plugin.cc). */
bool cuemu_gcc_plugin_device_code(tree fn);

#endif
