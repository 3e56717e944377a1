/*
 * cuemu_program_unload.c: forgetting what a shared library registered when
 * it is unloaded.
 *
 * A library built by cuemu-nvcc -shared registers its kernel tables, its
 * template instances and their settings when it is loaded, as a program
 * does; they are pointers into its own memory. After dlclose that memory
 * is gone, or holds another library loaded at the same addresses, and a
 * later launch's walk of the tables read it (a Python interpreter that
 * unloaded one ctypes library and loaded another crashed in its next
 * launch: tests/programs_trialpyext.sh). So each unit's host pass calls
 * cuemu_program_unload() from a destructor (cuemu_codegen.c), and
 * everything registered from the library's segments is forgotten. The
 * program itself keeps its tables to the end.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>

#include <cuemu/cuemu_device.h>

#include "device/cuemu_functions.h"

/* The object being unloaded: the address given, and whether it was found
 * in a shared library (and its tables forgotten). */
typedef struct unload_search {
  uintptr_t address;
  int found;
} unload_search;

static int forget_object(struct dl_phdr_info *info, size_t size, void *data) {
  unload_search *search = data;
  (void)size;
  int holds = 0;
  for (int k = 0; k < info->dlpi_phnum && !holds; ++k) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[k];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    holds = ph->p_type == PT_LOAD && search->address >= lo &&
            search->address < lo + ph->p_memsz;
  }
  if (!holds)
    return 0;
  /* The program (its name is empty) keeps its tables. */
  if (info->dlpi_name && info->dlpi_name[0]) {
    for (int k = 0; k < info->dlpi_phnum; ++k) {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[k];
      if (ph->p_type != PT_LOAD)
        continue;
      uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
      cuemu__function_forget_range(lo, lo + ph->p_memsz);
      cuemu__instances_forget_range(lo, lo + ph->p_memsz);
    }
    search->found = 1;
  }
  return 1;
}

void cuemu_program_unload(const void *address) {
  unload_search search = {(uintptr_t)address, 0};
  if (address)
    dl_iterate_phdr(forget_object, &search);
}
