/* cuemu_gcc_plugin_check.h: the pass of cuemu's GCC plugin that decides the
 * checkers' common case inline (cuemu_gcc_plugin_check.cc), registered by
 * plugin_init (cuemu_gcc_plugin.cc). */
#ifndef CUEMU_GCC_PLUGIN_CHECK_H
#define CUEMU_GCC_PLUGIN_CHECK_H

/* Registers the pass under the plugin's name `plugin` when `value` (of the
 * plugin argument check-inline) is "mem" or "init"; any other value is an
 * error. */
void cuemu_gcc_plugin_register_check(const char *plugin, const char *value);

#endif
