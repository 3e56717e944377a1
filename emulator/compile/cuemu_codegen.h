/*
 * cuemu_codegen.h: the C++ translation unit that cuemu-cc hands to the
 * compiler: a #line directive, the rewritten source, and the kernel table.
 */
#ifndef CUEMU_CODEGEN_H
#define CUEMU_CODEGEN_H

#include <stdio.h>

#include "cuemu_rewrite.h"

/* Writes the translation unit to `out`. `path` is the .cu file as #line and
 * debug information should name it. The translation unit is not in the
 * source's folder, so the source's quoted includes are resolved as nvcc
 * resolves them: in the folders `quote_dirs` (NULL-terminated: the source's
 * own folder, then the user's -iquote folders), else through -I and the
 * system folders, never relative to the translation unit's folder. In a
 * module, the table is returned by
 * cuemu_module_describe(); in a program it is registered at start-up.
 * Non-template kernels defined in the file are exported under their
 * qualified names, and each name expression (a template instantiation such
 * as "scale<double, 3>") under its own text. Returns 0, or -1 on a write
 * error. */
int cuemu__codegen_write(FILE *out, const char *path,
                         const char *const *quote_dirs,
                         const cuemu_rewrite *rw, int module,
                         const char *const *name_expressions, int count);

/* Writes a translated translation unit (cuemu__rewrite_preprocessed()),
 * which keeps its own line markers, and what registers its kernels: a
 * module's table and cuemu_module_describe() (`module`); for nvcc's two
 * passes of unit `unit_id`, the device pass's table and the function
 * cuemu__register_UNIT_ID() that registers it, and in the host pass
 * (`host_pass`) the static initializer that calls it; the kernels are
 * registered as built for `arch` (__CUDA_ARCH__: 900) with the images
 * `images` ("sm_80,compute_80"; NULL: none named), which decide the devices
 * that run them (cuemu_program_register_target()). `path` names the .cu
 * for name expressions. A unit compiled for several virtual architectures
 * has one device pass more for each (`passes`, the first device pass's:
 * cuemu_compile_options' cuemu_arch_passes): its function
 * cuemu__register_UNIT_ID() calls theirs, cuemu__register_UNIT_ID_ARCH(),
 * which such a further pass (`host_pass` CUEMU_UNIT_VARIANT, `unit_id`
 * UNIT_ID_ARCH) writes, registering its table as a variant of the first's
 * (cuemu_program_register_variant()). Each name expression is registered
 * under its text and compiled as `name_code`'s (its macros expanded:
 * cuemu_name_expressions.h), or as its text where `name_code` is NULL.
 * Returns 0, or -1 on a write error. */
#define CUEMU_UNIT_VARIANT 2
int cuemu__codegen_write_unit(FILE *out, const char *path,
                              const cuemu_rewrite *rw, int module,
                              const char *unit_id, int arch,
                              const char *images, int host_pass,
                              const char *passes,
                              const char *const *name_expressions,
                              const char *const *name_code, int count);

#endif /* CUEMU_CODEGEN_H */
