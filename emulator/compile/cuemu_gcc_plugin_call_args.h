/* cuemu_gcc_plugin_call_args.h: the pass of cuemu's GCC plugin that makes
 * a by-value aggregate argument read from memory a load of its own before
 * g++'s instrumentation of checked builds (cuemu_gcc_plugin_call_args.cc),
 * registered by plugin_init (cuemu_gcc_plugin.cc). */
#ifndef CUEMU_GCC_PLUGIN_CALL_ARGS_H
#define CUEMU_GCC_PLUGIN_CALL_ARGS_H

/* Registers the pass under the plugin's name `plugin`, to run right before
 * "tsan" and "tsan0" (every build with -fsanitize=thread). */
void cuemu_gcc_plugin_register_call_args(const char *plugin);

#endif
