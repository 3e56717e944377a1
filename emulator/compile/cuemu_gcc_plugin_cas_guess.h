/* cuemu_gcc_plugin_cas_guess.h: the pass of cuemu's GCC plugin that makes a
 * checked build take the first guess of a compare-and-swap loop for a
 * relaxed atomic read (cuemu_gcc_plugin_cas_guess.cc), registered by
 * plugin_init (cuemu_gcc_plugin.cc). */
#ifndef CUEMU_GCC_PLUGIN_CAS_GUESS_H
#define CUEMU_GCC_PLUGIN_CAS_GUESS_H

/* Registers the pass under the plugin's name `plugin`, before g++'s
 * instrumentation of optimised code; it runs in checked builds only. */
void cuemu_gcc_plugin_register_cas_guess(const char *plugin);

#endif
