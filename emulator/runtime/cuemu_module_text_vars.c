/*
 * cuemu_module_text_vars.c: the variables of a module, listed in its text
 * form as PTX declares them (cuemu_module_text.h).
 *
 * Programs read PTX for more than loading it: jitify finds a kernel's
 * __device__ and __constant__ variables by scanning the PTX for
 * ".global .align" and ".const .align" declarations and demangling their
 * names, then asks cuModuleGetGlobal for the symbol. The text form lists
 * the module's own variables in comment lines of that shape,
 *
 *   // .global .align 4 .b8 _ZN1b1aE[4];
 *
 * read from the module's symbol table: its data objects, less those of
 * the compiler and of cuemu's headers (guard variables, function-local
 * statics, type information, the C++ library's and cuemu's namespaces, the
 * linker's own). The state space is always .global: __constant__ memory is
 * ordinary memory here, and the symbol table does not tell them apart.
 */
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "runtime/cuemu_module_text.h"

/* Non-zero when `name` is a variable of the program's own source. */
static int program_variable(const char *name) {
  static const char *const foreign[] = {
      "_ZN5cuemu", "_ZNSt", "_ZNKSt", "_ZN9__gnu_cxx",
      "_ZN10__cxxabiv1", NULL};
  if (!name[0] || strchr(name, '.') || strncmp(name, "cuemu", 5) == 0)
    return 0;
  if (strncmp(name, "_Z", 2) == 0) {
    /* Nested names, global-namespace template instances, and names of
     * internal linkage (static) in the global namespace, _ZL1s. */
    if (!(name[2] == 'N' || (name[2] >= '1' && name[2] <= '9') ||
          (name[2] == 'L' && name[3] >= '1' && name[3] <= '9')))
      return 0;
    for (int i = 0; foreign[i]; ++i)
      if (strncmp(name, foreign[i], strlen(foreign[i])) == 0)
        return 0;
    /* A name component of cuemu's own (the notes cuemu-cc adds after
     * variable definitions, cuemu_space_notes.c: _ZL17cuemu_device_note_0,
     * _ZN1bL17cuemu_device_note_1E). */
    for (const char *at = strstr(name, "cuemu_"); at;
         at = strstr(at + 1, "cuemu_"))
      if (at[-1] >= '0' && at[-1] <= '9')
        return 0;
    return 1;
  }
  /* Names reserved to the implementation: _DYNAMIC, __dso_handle, ... */
  return !(name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' &&
                                                 name[1] <= 'Z')));
}

/* The largest power of two, at most 16, that divides both the variable's
 * address and its size: its alignment, or more for an array of small
 * elements (the symbol table does not say). */
static unsigned alignment_of(uint64_t address, uint64_t size) {
  unsigned a = 1;
  while (a < 16 && address % (2 * a) == 0 && size % (2 * a) == 0)
    a *= 2;
  return a;
}

int cuemu__module_text_variables(FILE *out, const void *image, size_t size) {
  const unsigned char *base = image;
  const ElfW(Ehdr) *eh = image;
  if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_shentsize != sizeof(ElfW(Shdr)) || eh->e_shoff > size ||
      (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) > size - eh->e_shoff)
    return 0; /* not an ELF object of this machine: nothing to list */
  const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(base + eh->e_shoff);
  for (size_t i = 0; i < eh->e_shnum; ++i) {
    const ElfW(Shdr) *sh = &sections[i];
    if (sh->sh_type != SHT_SYMTAB || sh->sh_entsize != sizeof(ElfW(Sym)) ||
        sh->sh_link >= eh->e_shnum || sh->sh_offset > size ||
        sh->sh_size > size - sh->sh_offset)
      continue;
    const ElfW(Shdr) *strtab = &sections[sh->sh_link];
    if (strtab->sh_offset > size || strtab->sh_size > size - strtab->sh_offset)
      continue;
    const char *strings = (const char *)base + strtab->sh_offset;
    const ElfW(Sym) *syms = (const ElfW(Sym) *)(base + sh->sh_offset);
    for (size_t k = 0; k < sh->sh_size / sizeof *syms; ++k) {
      const ElfW(Sym) *s = &syms[k];
      if (ELF64_ST_TYPE(s->st_info) != STT_OBJECT ||
          s->st_shndx == SHN_UNDEF || s->st_shndx >= eh->e_shnum ||
          s->st_size == 0 || s->st_name >= strtab->sh_size ||
          !memchr(strings + s->st_name, '\0', strtab->sh_size - s->st_name))
        continue;
      /* Thread-local objects are __shared__ variables, not globals. */
      if (sections[s->st_shndx].sh_flags & SHF_TLS)
        continue;
      const char *name = strings + s->st_name;
      if (program_variable(name))
        fprintf(out, "// .global .align %u .b8 %s[%llu];\n",
                alignment_of(s->st_value, s->st_size), name,
                (unsigned long long)s->st_size);
    }
  }
  return ferror(out) ? -1 : 0;
}
