/*
 * cuemu_module_text.h: the text form of a cuemu module, which
 * `cuemu-nvcc -ptx` writes. CUDA's PTX is text, and programs treat it as
 * text: they read a .ptx file into a std::string from a char pointer, or
 * pass strlen(ptx) + 1 to cuLinkAddData, which would cut a module (an ELF
 * object, full of NUL bytes) at its first NUL. The text form is the
 * module's bytes in base64, in comment lines, with no NUL in it:
 *
 *   // cuemu module: emulated device code in base64, not PTX
 *   // (load it with cuModuleLoad, cuModuleLoadData(Ex) or cuLink*)
 *   // .global .align 4 .b8 _ZN1b1aE[4];
 *   //@f0VMRgIBAQAAAAAAAAAAAAMAPgABAAAAAAAAAAAAAABAAAAAAAAAAA...
 *   ...
 *   // end of cuemu module
 *
 * Every call that takes a module (cuModuleLoad, cuModuleLoadData,
 * cuModuleLoadDataEx, cuModuleLoadFatBinary, cuLinkAddData, cuLinkAddFile,
 * cuLibraryLoad*) takes this form as well as the ELF object.
 */
#ifndef CUEMU_MODULE_TEXT_H
#define CUEMU_MODULE_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Non-zero when `data` (`n` readable bytes, or a NUL-terminated text
 * when n is SIZE_MAX) starts as the text form does. */
int cuemu__module_text_is(const void *data, size_t n);

/* Decodes the text form at `text` into a new image (malloc'd) and its
 * size. Returns 0, or -1 when the text is malformed or memory runs out. */
int cuemu__module_text_decode(const char *text, void **image, size_t *size);

/* Writes the text form of the `size` bytes at `image` to `out`; returns 0
 * or -1. */
int cuemu__module_text_write(FILE *out, const void *image, size_t size);

/* Writes a comment line `// .global .align A .b8 NAME[SIZE];` for each
 * variable of the program in the module `image` (`size` bytes), as PTX
 * declares it, for programs that find variables in PTX (jitify);
 * nothing for an image that is not an ELF object. Returns 0 or -1
 * (cuemu_module_text_vars.c). */
int cuemu__module_text_variables(FILE *out, const void *image, size_t size);

#endif /* CUEMU_MODULE_TEXT_H */
