/* cuemu_gcc_plugin_check.h: the passes of cuemu's GCC plugin that run
 * right after g++'s instrumentation of checked builds: the one that decides
 * the checkers' common case inline and the one that gives the
 * instrumentation's calls their lines (cuemu_gcc_plugin_check.cc),
 * registered by plugin_init (cuemu_gcc_plugin.cc). */
#ifndef CUEMU_GCC_PLUGIN_CHECK_H
#define CUEMU_GCC_PLUGIN_CHECK_H

/* Registers the pass under the plugin's name `plugin` when `value` (of the
 * plugin argument check-inline) is "mem" or "init"; any other value is an
 * error. */
void cuemu_gcc_plugin_register_check(const char *plugin, const char *value);
/* Gives the tsan calls that an optimisation left without a location the
 * location of the next statement of their block that has one (every build
 * with -fsanitize=thread). */
void cuemu_gcc_plugin_register_tsan_lines(const char *plugin);

#endif
