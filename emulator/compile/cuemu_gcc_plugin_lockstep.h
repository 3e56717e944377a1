/* cuemu_gcc_plugin_lockstep.h: the lockstep pass of cuemu's GCC plugin
 * (cuemu_gcc_plugin_lockstep.cc), registered by plugin_init
 * (cuemu_gcc_plugin.cc). */
#ifndef CUEMU_GCC_PLUGIN_LOCKSTEP_H
#define CUEMU_GCC_PLUGIN_LOCKSTEP_H

/* Registers the pass that calls cuemu_warp_step() before each volatile
 * access to memory, under the plugin's name `plugin`. */
void cuemu_gcc_plugin_register_lockstep(const char *plugin);

#endif
