/* cuemu_gcc_plugin_detached.h: the pass of cuemu's GCC plugin that drops
 * the blocked-thread test from the thread loop of a kernel that cannot
 * block (cuemu_gcc_plugin_detached.cc), registered by plugin_init
 * (cuemu_gcc_plugin.cc). */
#ifndef CUEMU_GCC_PLUGIN_DETACHED_H
#define CUEMU_GCC_PLUGIN_DETACHED_H

/* Registers the pass under the plugin's name `plugin`. */
void cuemu_gcc_plugin_register_detached(const char *plugin);

#endif
