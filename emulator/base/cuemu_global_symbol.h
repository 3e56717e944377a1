/*
 * cuemu_global_symbol.h: the definition of a symbol that the process's
 * global scope finds, looked up without dlsym().
 *
 * A dlsym() that finds nothing leaves glibc's error text behind, and the
 * next failing call frees it: checks that run before main (is NVIDIA's
 * cuBLAS loaded too?) would leave freed blocks full of text in the heap,
 * which the program's first malloc() of that size returns where a program
 * built by nvcc finds zeros. This lookup reads the loaded objects' dynamic
 * symbol tables in memory and allocates nothing.
 */
#ifndef CUEMU_GLOBAL_SYMBOL_H
#define CUEMU_GLOBAL_SYMBOL_H

/* The address of the first definition of `name` (a function or a
 * variable, by its symbol name) in the dynamic symbol tables of the loaded
 * objects, in load order (the program, then the libraries it depends on,
 * then those loaded later), as dlsym(RTLD_DEFAULT, name) finds it for the
 * objects that a program links; NULL where no loaded object defines it. */
void *cuemu__global_symbol(const char *name);

#endif /* CUEMU_GLOBAL_SYMBOL_H */
