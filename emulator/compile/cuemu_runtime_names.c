/*
 * cuemu_runtime_names.c: whether a library that every program's link has
 * defines a name (see cuemu_driver.h). The device link reads the device
 * code's references that no input defines; those that the C, math and C++
 * runtimes, or libcuemu and its libcudart, define are the host's, which
 * nvlink never sees (device printf, sinf, the runtime API).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuemu_driver.h"

/* Whether the dynamic symbol table of the shared object at `path` defines
 * `name` (a global or weak symbol). Reads the file; runs nothing of it. */
static int file_defines(const char *path, const char *name) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0)
    return 0;
  void *map = fstat(fd, &st) == 0 && st.st_size > (off_t)sizeof(Elf64_Ehdr)
                  ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
                         0)
                  : MAP_FAILED;
  close(fd);
  if (map == MAP_FAILED)
    return 0;
  const size_t size = (size_t)st.st_size;
  const unsigned char *data = map;
  const Elf64_Ehdr *eh = map;
  int found = 0;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 &&
      eh->e_ident[EI_CLASS] == ELFCLASS64 &&
      eh->e_shentsize == sizeof(Elf64_Shdr) && eh->e_shoff <= size &&
      (size - eh->e_shoff) / sizeof(Elf64_Shdr) >= eh->e_shnum) {
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(data + eh->e_shoff);
    for (size_t i = 1; i < eh->e_shnum && !found; ++i) {
      if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh->e_shnum ||
          sh[i].sh_entsize != sizeof(Elf64_Sym) || sh[i].sh_offset > size ||
          sh[i].sh_size > size - sh[i].sh_offset)
        continue;
      const Elf64_Shdr *str = &sh[sh[i].sh_link];
      if (str->sh_offset > size || str->sh_size > size - str->sh_offset)
        continue;
      const Elf64_Sym *syms = (const Elf64_Sym *)(data + sh[i].sh_offset);
      const char *names = (const char *)data + str->sh_offset;
      for (size_t k = 1; k < sh[i].sh_size / sizeof *syms && !found; ++k) {
        const int bind = ELF64_ST_BIND(syms[k].st_info);
        found = syms[k].st_shndx != SHN_UNDEF && syms[k].st_name < str->sh_size &&
                (bind == STB_GLOBAL || bind == STB_WEAK) &&
                strncmp(names + syms[k].st_name, name,
                        str->sh_size - syms[k].st_name) == 0;
      }
    }
  }
  munmap(map, size);
  return found;
}

int cuemu__runtime_defines(const char *libdir, const char *name) {
  /* The system's runtimes, which are safe to load: loaded once, and kept
   * for the process's next names. */
  static const char *const system[] = {"libc.so.6", "libm.so.6",
                                       "libstdc++.so.6", "libgcc_s.so.1"};
  static void *handles[sizeof system / sizeof *system];
  for (size_t i = 0; i < sizeof system / sizeof *system; ++i) {
    if (!handles[i])
      handles[i] = dlopen(system[i], RTLD_LAZY | RTLD_LOCAL);
    if (handles[i] && dlsym(handles[i], name))
      return 1;
  }
  /* libcuemu's, read without loading them (their constructors start the
   * emulated device). */
  static const char *const own[] = {"libcuemu.so", "libcuemu_cudart.so"};
  for (size_t i = 0; libdir && i < sizeof own / sizeof *own; ++i) {
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", libdir, own[i]) <
            sizeof path &&
        file_defines(path, name))
      return 1;
  }
  return 0;
}
