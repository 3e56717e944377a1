/* cuemu_gcc_plugin_call_results.h: the pass of cuemu's GCC plugin that
 * makes a checked build see the stores of calls' results
 * (cuemu_gcc_plugin_call_results.cc), registered by plugin_init
 * (cuemu_gcc_plugin.cc). */
#ifndef CUEMU_GCC_PLUGIN_CALL_RESULTS_H
#define CUEMU_GCC_PLUGIN_CALL_RESULTS_H

/* Registers the pass under the plugin's name `plugin`; it runs only in
 * units compiled with -fsanitize=thread (checked builds). */
void cuemu_gcc_plugin_register_call_results(const char *plugin);

#endif
