/*
 * cuemu_global_symbol.c: the definition of a symbol that the process's
 * global scope finds, from the loaded objects' dynamic symbol tables
 * (their GNU or System V hash tables), with no dlsym() and no allocation.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

#include "base/cuemu_global_symbol.h"

/* The tables of one loaded object that a lookup reads. */
struct tables {
  const ElfW(Sym) *symbols;
  const char *strings;
  const uint32_t *gnu_hash, *sysv_hash;
};

struct search {
  const char *name;
  uint32_t gnu, sysv; /* the name's two hashes */
  void *found;
};

static uint32_t gnu_hash(const char *name) {
  uint32_t h = 5381;
  for (const unsigned char *c = (const unsigned char *)name; *c; ++c)
    h = h * 33 + *c;
  return h;
}

static uint32_t sysv_hash(const char *name) {
  uint32_t h = 0;
  for (const unsigned char *c = (const unsigned char *)name; *c; ++c) {
    h = (h << 4) + *c;
    uint32_t g = h & 0xf0000000u;
    if (g)
      h ^= g >> 24;
    h &= ~g;
  }
  return h;
}

/* The run-time address that a dynamic-section pointer stands for: the
 * dynamic loader has already added the load address to the entries of a
 * writable dynamic section (every object but the vDSO on x86-64). */
static const void *dynamic_pointer(ElfW(Addr) value, ElfW(Addr) base) {
  return (const void *)(value < base ? value + base : value);
}

/* Whether symbol `index` is a definition of the searched name. */
static int defines(const struct tables *t, uint32_t index,
                   const struct search *s) {
  const ElfW(Sym) *sym = &t->symbols[index];
  /* st_info packs the two alike in 32-bit and 64-bit objects. */
  unsigned type = ELF64_ST_TYPE(sym->st_info);
  unsigned bind = ELF64_ST_BIND(sym->st_info);
  return sym->st_shndx != SHN_UNDEF &&
         (bind == STB_GLOBAL || bind == STB_WEAK) &&
         (type == STT_FUNC || type == STT_OBJECT || type == STT_GNU_IFUNC ||
          type == STT_NOTYPE) &&
         strcmp(t->strings + sym->st_name, s->name) == 0;
}

/* The index of the name's definition in an object's GNU hash table (bloom
 * filter, bucket, then the bucket's chain); 0 where it has none. */
static uint32_t gnu_lookup(const struct tables *t, const struct search *s) {
  const uint32_t *table = t->gnu_hash;
  uint32_t buckets = table[0], offset = table[1], words = table[2],
           shift = table[3];
  const ElfW(Addr) *bloom = (const ElfW(Addr) *)(table + 4);
  const uint32_t *bucket = (const uint32_t *)(bloom + words);
  const uint32_t *chain = bucket + buckets;
  const unsigned bits = sizeof(ElfW(Addr)) * 8;
  if (buckets == 0 || words == 0)
    return 0;
  ElfW(Addr) word = bloom[(s->gnu / bits) % words];
  ElfW(Addr) mask = ((ElfW(Addr))1 << (s->gnu % bits)) |
                    ((ElfW(Addr))1 << ((s->gnu >> shift) % bits));
  if ((word & mask) != mask)
    return 0;
  uint32_t index = bucket[s->gnu % buckets];
  if (index < offset)
    return 0;
  for (;; ++index) {
    uint32_t h = chain[index - offset];
    if ((h | 1) == (s->gnu | 1) && defines(t, index, s))
      return index;
    if (h & 1)
      return 0;
  }
}

/* The same in a System V hash table. */
static uint32_t sysv_lookup(const struct tables *t, const struct search *s) {
  const uint32_t *table = t->sysv_hash;
  uint32_t buckets = table[0];
  const uint32_t *bucket = table + 2, *chain = bucket + buckets;
  if (buckets == 0)
    return 0;
  for (uint32_t index = bucket[s->sysv % buckets]; index; index = chain[index])
    if (defines(t, index, s))
      return index;
  return 0;
}

/* dl_iterate_phdr's callback: looks the name up in one object's dynamic
 * symbol table; stops (returns 1) at the first definition. */
static int look_in(struct dl_phdr_info *info, size_t size, void *data) {
  struct search *s = data;
  const ElfW(Dyn) *dynamic = NULL;
  (void)size;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dynamic = (const ElfW(Dyn) *)(info->dlpi_addr +
                                    info->dlpi_phdr[i].p_vaddr);
  if (!dynamic)
    return 0;
  struct tables t = {0};
  for (; dynamic->d_tag != DT_NULL; ++dynamic) {
    const void *p = dynamic_pointer(dynamic->d_un.d_ptr, info->dlpi_addr);
    switch (dynamic->d_tag) {
    case DT_SYMTAB:
      t.symbols = p;
      break;
    case DT_STRTAB:
      t.strings = p;
      break;
    case DT_GNU_HASH:
      t.gnu_hash = p;
      break;
    case DT_HASH:
      t.sysv_hash = p;
      break;
    }
  }
  if (!t.symbols || !t.strings)
    return 0;
  uint32_t index = t.gnu_hash   ? gnu_lookup(&t, s)
                   : t.sysv_hash ? sysv_lookup(&t, s)
                                 : 0;
  if (!index)
    return 0;
  s->found = (void *)(info->dlpi_addr + t.symbols[index].st_value);
  return 1;
}

void *cuemu__global_symbol(const char *name) {
  struct search s = {name, gnu_hash(name), sysv_hash(name), NULL};
  dl_iterate_phdr(look_in, &s);
  return s.found;
}
