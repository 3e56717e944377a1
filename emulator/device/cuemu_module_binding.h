/*
 * cuemu_module_binding.h: how cuemu_module_load() binds a module's
 * symbols. Internal to libcuemu; host code.
 */
#ifndef CUEMU_MODULE_BINDING_H
#define CUEMU_MODULE_BINDING_H

/* With `lazily` non-zero, modules loaded afterwards by this process bind
 * their functions when first called (RTLD_LAZY) instead of at load
 * (RTLD_NOW, the default): a unit compiled with -c that calls functions of
 * other files then loads, to be read and not run (cuemu-nvcc's
 * --resource-usage and -Xptxas -v, in a child process of their own). */
void cuemu__module_bind_lazily(int lazily);

#endif
