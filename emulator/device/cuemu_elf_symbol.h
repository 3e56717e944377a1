/*
 * cuemu_elf_symbol.h: finding a module's global variables in its ELF symbol
 * table (modules are built with hidden visibility, so dlsym() cannot see
 * their __device__ and __constant__ variables; the static symbol table
 * still names them).
 */
#ifndef CUEMU_ELF_SYMBOL_H
#define CUEMU_ELF_SYMBOL_H

#include <stddef.h>
#include <stdint.h>

#include <cuemu/cuemu_status.h>

/* Finds the data object `name` (its symbol name, as the compiler spells it)
 * defined by the shared object that `handle` (from dlopen()) loaded, and
 * gives its run-time address and size. The symbol table is read from the
 * object's file, which must still be the file that was loaded. Returns
 * INVALID_VALUE when the object defines no such variable, IO_ERROR when its
 * file is gone, replaced or unreadable. */
cuemu_status cuemu__elf_find_object(void *handle, const char *name,
                                    void **address, size_t *size);

/* Finds the function `name` (its mangled name) of the shared object that
 * `handle` loaded, as above; INVALID_VALUE (with no message) when there is
 * none. */
cuemu_status cuemu__elf_find_function(void *handle, const char *name,
                                      void **address);

/* The symbol name of the function at `address` in the shared object that
 * `handle` loaded, copied into `name` (`size` bytes); INVALID_VALUE (with no
 * message) when no function symbol starts there. */
cuemu_status cuemu__elf_function_name(void *handle, const void *address,
                                      char *name, size_t size);

/* The symbol name of the function at `address` in whatever object holds
 * it (the program itself, read from /proc/self/exe, a library or a
 * module), copied into `name` (`size` bytes); INVALID_VALUE (with no
 * message) when no loaded object holds `address` or no function symbol of
 * its file starts there (a stripped file). */
cuemu_status cuemu__elf_function_name_at(const void *address, char *name,
                                         size_t size);

/* The same for the variable (an object symbol) at `address`. */
cuemu_status cuemu__elf_object_name(void *handle, const void *address,
                                    char *name, size_t size);

/* Whether a data object's symbol starts at `address` in the file at `path`
 * (the program's own: /proc/self/exe) loaded at `load_base`: 1 when one
 * does, 0 when none does, -1 when the file has no symbol table or cannot be
 * read (a stripped or replaced file, which tells nothing). */
int cuemu__elf_object_starts(const char *path, uintptr_t load_base,
                             const void *address);

/* Whether the file at `path` defines the function `name` in its symbol
 * tables: 1 when it does, 0 when not, or when the file cannot be read or
 * is not the one mapped at address `mapped` (one of its loaded
 * segments). */
int cuemu__elf_defines_function(const char *path, uintptr_t mapped,
                                const char *name);

#endif /* CUEMU_ELF_SYMBOL_H */
