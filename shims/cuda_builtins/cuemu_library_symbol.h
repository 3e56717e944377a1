/*
 * cuemu_library_symbol.h: CUEMU_LIBRARY_SYMBOL(symbol), by which an inline
 * function of a header of a CUDA library that cuemu provides (cuda.h's
 * driver API, nvrtc.h's NVRTC) refers to the symbol that the library's
 * shared object exports under the function's name (libcuda.so.1's cuInit,
 * libnvrtc.so.13's nvrtcCreateProgram).
 *
 * A program that calls such a function then links only with the library
 * named (-lcuda, -lnvrtc; CMake's CUDA::cuda_driver and CUDA::nvrtc; the
 * library by its path), as a program of CUDA's headers, whose calls are
 * that symbol: without it, the link fails with "undefined reference to
 * `cuInit'" (docs/driver-api.md, "Linking the driver"). The reference is
 * the symbol's address in a section of its own, which the link keeps (R:
 * not collected by --gc-sections) and the program never reads; the call
 * itself stays the inline function's. (A relocation of type NONE in the
 * code would name the calling function in the linker's message, but ld
 * refuses one against a shared library's symbol.) Taking the function's
 * address makes the function's code, and so refers to the symbol too, as
 * in CUDA.
 */
#ifndef CUEMU_LIBRARY_SYMBOL_H
#define CUEMU_LIBRARY_SYMBOL_H

#define CUEMU_LIBRARY_SYMBOL(symbol)                                           \
  __asm__ volatile(".pushsection .data.rel.ro.cuemu_library_symbols,"          \
                   "\"awR\",@progbits\n.balign 8\n.quad " #symbol             \
                   "\n.popsection")

#endif /* CUEMU_LIBRARY_SYMBOL_H */
