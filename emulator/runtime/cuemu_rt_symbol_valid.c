/*
 * cuemu_rt_symbol_valid.c: whether an address that a program passes as a
 * symbol (cudaMemcpyToSymbol and the other symbol calls) may be a
 * __device__ or __constant__ variable. Those are host variables here, in
 * the writable data of the program or of a module, so an address in a
 * loaded object's read-only segment (code, a string literal, const data)
 * is none, unless a variable registered there (a const __constant__ or
 * const __device__ variable) holds it. CUDA answers such a symbol with
 * cudaErrorInvalidSymbol: "target_hash", the variable's name, which CUDA
 * took before 5.0 and old programs still pass from C, is the common case.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>

#include "check/cuemu_check.h"
#include "core/cuemu_constant_space.h"
#include "runtime/cuemu_rt_symbol_valid.h"

typedef struct segment_search {
  uintptr_t address;
  int read_only; /* 1 when a loaded segment without PF_W holds it */
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
      return 1;
    }
  }
  return 0;
}

int cuemu__rt_symbol_valid(const void *symbol) {
  segment_search s = {(uintptr_t)symbol, 0};
  dl_iterate_phdr(find_segment, &s);
  return !s.read_only || cuemu__constant_space_holds(symbol) ||
         cuemu__check_variables_hold(symbol);
}
