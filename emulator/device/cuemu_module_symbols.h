/*
 * cuemu_module_symbols.h: a module's kernels by their symbol (mangled)
 * names, as the driver API and NVRTC name them ("_Z6vecAddPKfS0_Pfi"),
 * read from the module file's symbol table (cuemu_elf_symbol.h).
 * Internal to libcuemu; host code.
 */
#ifndef CUEMU_MODULE_SYMBOLS_H
#define CUEMU_MODULE_SYMBOLS_H

#include <stddef.h>

#include <cuemu/cuemu.h>

/* Finds the kernel whose function is the symbol `symbol`; KERNEL_NOT_FOUND
 * when there is none. */
cuemu_status cuemu__module_get_kernel_by_symbol(cuemu_module *module,
                                                const char *symbol,
                                                cuemu_kernel **out);

/* Copies the symbol name of kernel `k`'s function into `name` (`size`
 * bytes); INVALID_VALUE (no message) when the symbol table does not name
 * it (an extern "C" kernel may have been folded into its thunk). */
cuemu_status cuemu__module_kernel_symbol(cuemu_module *module,
                                         const cuemu_kernel *k, char *name,
                                         size_t size);

/* Copies the symbol name of the __device__ or __constant__ variable that
 * the module's name expression `expression` (NVRTC's "&V1", without the
 * '&') names into `name` (`size` bytes); KERNEL_NOT_FOUND (no message) when
 * no name expression of the module names a variable so. */
cuemu_status cuemu__module_variable_symbol(cuemu_module *module,
                                           const char *expression,
                                           char *name, size_t size);

/* The address of the function `symbol` of the module (its symbol table's
 * name); KERNEL_NOT_FOUND (no message) when there is none. */
cuemu_status cuemu__module_find_function(cuemu_module *module,
                                         const char *symbol, void **address);

/* The name CUDA gives kernel `k` (cuFuncGetName, cuKernelGetName,
 * cudaFuncGetName): the symbol of its function, mangled for a C++ kernel
 * ("_Z3fooi"), from the symbol table of the object that holds it (the
 * program, a library or a module); its registered name ("foo") where no
 * symbol names it (a stripped program). Kept with the kernel, valid while
 * it is; NULL only for a NULL `k`. Host code. */
const char *cuemu__kernel_symbol_name(cuemu_kernel *k);

/* The descriptor of kernel `k` (not NULL). */
const cuemu_kernel_desc *cuemu__kernel_desc(const cuemu_kernel *k);

/* A kernel of the program itself (its registered descriptor `d`, see
 * cuemu_functions.h) as a C API kernel, the driver API's CUfunction of it
 * (cuKernelGetFunction of cudaGetKernel's handle): the same one for the
 * same descriptor, kept for the life of the process; NULL when `d` is
 * NULL or out of memory. */
cuemu_kernel *cuemu__kernel_of_program(const cuemu_kernel_desc *d);

/* Non-zero when `k` is one of the kernels cuemu__kernel_of_program gave. */
int cuemu__kernel_is_program(const cuemu_kernel *k);

#endif /* CUEMU_MODULE_SYMBOLS_H */
