/*
 * cuemu_rt_symbol_valid.c: whether an address that a program passes as a
 * symbol (cudaMemcpyToSymbol and the other symbol calls) may be a
 * __device__ or __constant__ variable. Those are host variables here, so
 * an address in a loaded object's read-only segment is no variable when it
 * is code, or when no registered variable holds it and no data object's
 * symbol starts there: a string literal, such as the variable's name, which
 * CUDA took before 5.0 and old programs still pass from C. CUDA answers
 * such a symbol with cudaErrorInvalidSymbol, as it answers an address that
 * no loaded object holds (a host array on the stack, a heap block, device
 * memory): variables have static storage. A const variable (a const
 * __constant__ or __device__ variable, an instance of a const variable
 * template) lies in a read-only segment too, and its symbol names it; a
 * stripped file tells nothing, and its addresses are taken as symbols.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>

#include "check/cuemu_check.h"
#include "core/cuemu_constant_space.h"
#include "device/cuemu_elf_symbol.h"
#include "runtime/cuemu_rt_symbol_valid.h"

typedef struct segment_search {
  uintptr_t address;
  int read_only;  /* a loaded segment without PF_W holds it */
  int executable; /* ... with PF_X */
  const char *path;
  uintptr_t load_base;
} segment_search;

/* dl_iterate_phdr's callback: stops (returns 1) at the loaded segment that
 * holds s->address. */
static int find_segment(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  segment_search *s = data;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (s->address >= lo && s->address - lo < ph->p_memsz) {
      s->read_only = !(ph->p_flags & PF_W);
      s->executable = (ph->p_flags & PF_X) != 0;
      /* The program itself has no name here. */
      s->path = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name
                                                      : "/proc/self/exe";
      s->load_base = info->dlpi_addr;
      return 1;
    }
  }
  return 0;
}

int cuemu__rt_symbol_valid(const void *symbol) {
  segment_search s = {(uintptr_t)symbol, 0, 0, NULL, 0};
  dl_iterate_phdr(find_segment, &s);
  if (cuemu__constant_space_holds(symbol) ||
      cuemu__check_variables_hold(symbol))
    return 1;
  /* Variables have static storage: an address that no loaded object holds
   * (the stack, the heap, cudaMalloc'd memory) is none. */
  if (!s.path)
    return 0;
  if (!s.read_only)
    return 1;
  if (s.executable)
    return 0;
  return cuemu__elf_object_starts(s.path, s.load_base, symbol) != 0;
}
