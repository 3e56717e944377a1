/* cuemu_gcc_plugin_pass.h: how the passes of cuemu's GCC plugin
 * (cuemu_gcc_plugin_lockstep.cc, cuemu_gcc_plugin_check.cc,
 * cuemu_gcc_plugin_call_results.cc) take their
 * place among GCC's. Include after gcc-plugin.h and tree-pass.h. */
#ifndef CUEMU_GCC_PLUGIN_PASS_H
#define CUEMU_GCC_PLUGIN_PASS_H

/* Registers `pass`, under the plugin's name `plugin`, to run after
 * instance `instance` (0: every instance) of GCC's pass `after`. GCC
 * places it at once (register_pass), so the description need not live on. */
inline void cuemu_gcc_plugin_insert_after(const char *plugin, opt_pass *pass,
                                          const char *after, int instance) {
  struct register_pass_info info = {pass, after, instance,
                                    PASS_POS_INSERT_AFTER};
  register_callback(plugin, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}

/* Registers `pass`, as above, to run before instance `instance` of GCC's
 * pass `before`. */
inline void cuemu_gcc_plugin_insert_before(const char *plugin, opt_pass *pass,
                                           const char *before, int instance) {
  struct register_pass_info info = {pass, before, instance,
                                    PASS_POS_INSERT_BEFORE};
  register_callback(plugin, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}

#endif
