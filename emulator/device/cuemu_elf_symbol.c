/*
 * cuemu_elf_symbol.c: a module's global variables from its ELF symbol
 * table (see cuemu_elf_symbol.h).
 */
#define _GNU_SOURCE
#include "cuemu_elf_symbol.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/cuemu_maps_line.h"
#include "base/cuemu_report.h"

/* The ELF class of this process's own objects. */
#define NATIVE_CLASS (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)

/* What to look for: a symbol of `type` named `name`, or (name NULL) the
 * one whose value is `value`. */
typedef struct wanted {
  unsigned type;
  const char *name;
  uintptr_t value;
  const char *found_name; /* set for a match by value */
} wanted;

/* Looks `w` up among the defined symbols of the symbol table `sh` (of the
 * file image [base, base + size)); returns its symbol or NULL. Every offset
 * is checked against the image. */
static const ElfW(Sym) * find_in_table(const unsigned char *base, size_t size,
                                       const ElfW(Shdr) * sections,
                                       size_t count, const ElfW(Shdr) * sh,
                                       wanted *w) {
  if (sh->sh_entsize != sizeof(ElfW(Sym)) || sh->sh_link >= count ||
      sh->sh_offset > size || sh->sh_size > size - sh->sh_offset)
    return NULL;
  const ElfW(Shdr) *strtab = &sections[sh->sh_link];
  if (strtab->sh_offset > size || strtab->sh_size > size - strtab->sh_offset)
    return NULL;
  const char *strings = (const char *)base + strtab->sh_offset;
  const ElfW(Sym) *syms = (const ElfW(Sym) *)(base + sh->sh_offset);
  size_t nsyms = sh->sh_size / sizeof(ElfW(Sym));
  size_t want = w->name ? strlen(w->name) : 0;
  const ElfW(Sym) *alias = NULL;
  for (size_t i = 0; i < nsyms; ++i) {
    const ElfW(Sym) *s = &syms[i];
    /* ELF32_ST_TYPE is also ELF64_ST_TYPE. */
    if (s->st_shndx == SHN_UNDEF || ELF32_ST_TYPE(s->st_info) != w->type ||
        s->st_name >= strtab->sh_size || strtab->sh_size - s->st_name <= want)
      continue;
    if (!w->name && s->st_value == w->value &&
        memchr(strings + s->st_name, '\0', strtab->sh_size - s->st_name)) {
      /* The compilers' second names of a symbol (g++'s NAME.localalias
       * for a global function that its own file calls) come after the
       * name itself, which the user wrote. */
      w->found_name = strings + s->st_name;
      if (!strchr(w->found_name, '.'))
        return s;
      if (!alias)
        alias = s;
    }
    if (w->name && memcmp(strings + s->st_name, w->name, want + 1) == 0)
      return s;
  }
  if (alias)
    w->found_name = strings + alias->st_name;
  return alias;
}

/* Non-zero when the file `st` is the one mapped at `address` (from
 * /proc/self/maps): a module rebuilt at the same path since it was loaded
 * has other symbol values. */
static int is_mapped_file(const struct stat *st, uintptr_t address) {
  /* Read with no heap use: this runs before main (cuemu_maps_line.h). */
  char line[4096];
  if (cuemu__maps_line(address, line, sizeof line) != 1)
    return 0;
  unsigned long long start, end, inode;
  unsigned major, minor;
  return sscanf(line, "%llx-%llx %*s %*s %x:%x %llu", &start, &end, &major,
                &minor, &inode) == 5 &&
         inode == (unsigned long long)st->st_ino &&
         major == major(st->st_dev) && minor == minor(st->st_dev);
}

/* Finds `w` in the symbol tables of the file at `path`, loaded at
 * `load_base`; *sym gets a copy of the symbol and (for a match by value)
 * `name` (of `name_size` bytes) the symbol's name; *tables (when not NULL)
 * the number of symbol tables the file has. Returns INVALID_VALUE when there
 * is none (with no message), IO_ERROR with a message when the file cannot
 * be read or is no longer the one loaded. */
static cuemu_status find_symbol_in_file(const char *path, uintptr_t load_base,
                                        wanted *w, ElfW(Sym) * sym, char *name,
                                        size_t name_size, int *tables) {
  /* The symbol table is not loaded into memory: it is read from the file,
   * which must still be the one that was loaded. */
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !is_mapped_file(&st, load_base)) {
    if (fd >= 0)
      close(fd);
    return cuemu__report(CUEMU_IO_ERROR,
                         "cannot read the symbol table of %s: the file is no "
                         "longer the module that was loaded (keep it until "
                         "its globals have been looked up)",
                         path);
  }
  void *image = MAP_FAILED;
  if ((size_t)st.st_size >= sizeof(ElfW(Ehdr)))
    image = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (image == MAP_FAILED)
    return cuemu__report(CUEMU_IO_ERROR, "cannot read %s", path);
  const unsigned char *base = image;
  size_t bytes = (size_t)st.st_size;
  const ElfW(Ehdr) *eh = image;
  const ElfW(Sym) *found = NULL;
  int ntables = 0;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 &&
      eh->e_ident[EI_CLASS] == NATIVE_CLASS &&
      eh->e_shentsize == sizeof(ElfW(Shdr)) && eh->e_shoff <= bytes &&
      (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) <= bytes - eh->e_shoff) {
    const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(base + eh->e_shoff);
    /* The static table names hidden variables too; the dynamic one is the
     * fallback for a stripped module. */
    const unsigned types[] = {SHT_SYMTAB, SHT_DYNSYM};
    for (size_t t = 0; !found && t < 2; ++t)
      for (size_t i = 0; !found && i < eh->e_shnum; ++i)
        if (sections[i].sh_type == types[t]) {
          ++ntables;
          found = find_in_table(base, bytes, sections, eh->e_shnum,
                                &sections[i], w);
        }
  }
  if (found) {
    *sym = *found;
    if (name && w->found_name)
      snprintf(name, name_size, "%s", w->found_name);
  }
  if (tables)
    *tables = ntables;
  munmap(image, bytes);
  return found ? CUEMU_SUCCESS : CUEMU_INVALID_VALUE;
}

/* Finds `w` in the symbol tables of the file that `handle` loaded, as
 * find_symbol_in_file(); *load_base gets the object's load address and
 * *path its file's name. */
static cuemu_status find_symbol_in(void *handle, wanted *w, ElfW(Sym) * sym,
                                   uintptr_t *load_base, char *name,
                                   size_t name_size, const char **path) {
  struct link_map *map = NULL;
  *path = "?";
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map)
    return cuemu__report(CUEMU_IO_ERROR, "not a loaded module: %s", dlerror());
  cuemu_status st = find_symbol_in_file(map->l_name, map->l_addr, w, sym, name,
                                        name_size, NULL);
  if (st != CUEMU_IO_ERROR) {
    *path = map->l_name;
    *load_base = map->l_addr;
  }
  return st;
}

/* A symbol of the module, else (a module that cuLinkComplete made, which
 * depends on its inputs by their absolute paths) of one of the modules it
 * depends on by an absolute path. */
static cuemu_status find_symbol(void *handle, wanted *w, ElfW(Sym) * sym,
                                uintptr_t *load_base, char *name,
                                size_t name_size, const char **path) {
  cuemu_status st =
      find_symbol_in(handle, w, sym, load_base, name, name_size, path);
  struct link_map *map = NULL;
  if (st != CUEMU_INVALID_VALUE || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 ||
      !map || !map->l_ld)
    return st;
  const char *strtab = NULL;
  for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; ++d)
    if (d->d_tag == DT_STRTAB)
      strtab = (const char *)d->d_un.d_ptr;
  for (const ElfW(Dyn) *d = map->l_ld; strtab && d->d_tag != DT_NULL; ++d) {
    const char *needed = d->d_tag == DT_NEEDED ? strtab + d->d_un.d_val : "";
    if (needed[0] != '/')
      continue;
    void *dep = dlopen(needed, RTLD_LAZY | RTLD_NOLOAD);
    if (!dep)
      continue;
    const char *dep_path;
    st = find_symbol_in(dep, w, sym, load_base, name, name_size, &dep_path);
    dlclose(dep);
    if (st == CUEMU_SUCCESS)
      return st;
  }
  return CUEMU_INVALID_VALUE;
}

cuemu_status cuemu__elf_find_object(void *handle, const char *name,
                                    void **address, size_t *size) {
  wanted w = {STT_OBJECT, name, 0, NULL};
  ElfW(Sym) sym;
  uintptr_t load = 0;
  const char *path;
  cuemu_status st = find_symbol(handle, &w, &sym, &load, NULL, 0, &path);
  if (st == CUEMU_SUCCESS) {
    *address = (void *)(load + sym.st_value);
    *size = (size_t)sym.st_size;
  } else if (st == CUEMU_INVALID_VALUE) {
    st = cuemu__report(CUEMU_INVALID_VALUE,
                       "%s defines no global variable named '%s'", path, name);
  }
  return st;
}

cuemu_status cuemu__elf_find_function(void *handle, const char *name,
                                      void **address) {
  wanted w = {STT_FUNC, name, 0, NULL};
  ElfW(Sym) sym;
  uintptr_t load = 0;
  const char *path;
  cuemu_status st = find_symbol(handle, &w, &sym, &load, NULL, 0, &path);
  if (st == CUEMU_SUCCESS)
    *address = (void *)(load + sym.st_value);
  return st;
}

/* The name of the symbol of type `type` that starts at `address`. */
static cuemu_status symbol_name(void *handle, int type, const void *address,
                                char *name, size_t size) {
  struct link_map *map = NULL;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map)
    return CUEMU_INVALID_VALUE;
  wanted w = {type, NULL, (uintptr_t)address - map->l_addr, NULL};
  ElfW(Sym) sym;
  uintptr_t load = 0;
  const char *path;
  return find_symbol(handle, &w, &sym, &load, name, size, &path);
}

cuemu_status cuemu__elf_function_name(void *handle, const void *address,
                                      char *name, size_t size) {
  return symbol_name(handle, STT_FUNC, address, name, size);
}

cuemu_status cuemu__elf_function_name_at(const void *address, char *name,
                                         size_t size) {
  Dl_info info;
  struct link_map *map = NULL;
  if (!address || !dladdr1(address, &info, (void **)&map, RTLD_DL_LINKMAP) ||
      !map)
    return CUEMU_INVALID_VALUE;
  /* The program's own link map has no name. */
  const char *path = map->l_name && map->l_name[0] ? map->l_name
                                                   : "/proc/self/exe";
  wanted w = {STT_FUNC, NULL, (uintptr_t)address - map->l_addr, NULL};
  ElfW(Sym) sym;
  return find_symbol_in_file(path, map->l_addr, &w, &sym, name, size, NULL) ==
                 CUEMU_SUCCESS
             ? CUEMU_SUCCESS
             : CUEMU_INVALID_VALUE;
}

cuemu_status cuemu__elf_object_name(void *handle, const void *address,
                                    char *name, size_t size) {
  return symbol_name(handle, STT_OBJECT, address, name, size);
}

int cuemu__elf_object_starts(const char *path, uintptr_t load_base,
                             const void *address) {
  wanted w = {STT_OBJECT, NULL, (uintptr_t)address - load_base, NULL};
  ElfW(Sym) sym;
  int tables = 0;
  cuemu_status st =
      find_symbol_in_file(path, load_base, &w, &sym, NULL, 0, &tables);
  if (st == CUEMU_SUCCESS)
    return 1;
  return st == CUEMU_INVALID_VALUE && tables ? 0 : -1;
}

int cuemu__elf_defines_function(const char *path, uintptr_t mapped,
                                const char *name) {
  wanted w = {STT_FUNC, name, 0, NULL};
  ElfW(Sym) sym;
  return find_symbol_in_file(path, mapped, &w, &sym, NULL, 0, NULL) ==
         CUEMU_SUCCESS;
}
