/*
 * cuemu_elf_weak_references.c: makes a shared object's references to
 * symbols it does not define weak (see cuemu_driver.h).
 *
 * The module that -Xptxas -v and --resource-usage read is compiled from one
 * unit of a program: with relocatable device code (-dc, -rdc=true) its
 * kernels read __constant__ and __device__ variables and call __device__
 * functions that other files define. Functions are bound lazily when the
 * module loads, but a variable's address is bound at once, so the module
 * would not load ("undefined symbol"). A weak reference that nothing
 * defines is bound to address 0 instead: the module loads, and its kernels
 * (never run) can be read.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"

/* Makes the undefined global symbols of the dynamic symbol table `sh` in
 * [data, data + size) weak; returns how many, -1 when `sh` is malformed. */
static int weaken_table(unsigned char *data, size_t size, const Elf64_Shdr *sh) {
  if (sh->sh_entsize != sizeof(Elf64_Sym) || sh->sh_offset > size ||
      sh->sh_size > size - sh->sh_offset)
    return -1;
  Elf64_Sym *syms = (Elf64_Sym *)(data + sh->sh_offset);
  const size_t n = sh->sh_size / sizeof(Elf64_Sym);
  int changed = 0;
  for (size_t k = 1; k < n; ++k)
    if (syms[k].st_shndx == SHN_UNDEF && ELF64_ST_BIND(syms[k].st_info) == STB_GLOBAL) {
      syms[k].st_info = (unsigned char)ELF64_ST_INFO(STB_WEAK, ELF64_ST_TYPE(syms[k].st_info));
      changed++;
    }
  return changed;
}

cuemu_status cuemu__elf_weaken_references(const char *shared_object) {
  int fd = open(shared_object, O_RDWR | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    cuemu_status e = cuemu__report(CUEMU_IO_ERROR, "cannot open %s: %s", shared_object,
                                   strerror(errno));
    if (fd >= 0)
      close(fd);
    return e;
  }
  const size_t size = (size_t)st.st_size;
  unsigned char *data = malloc(size ? size : 1);
  size_t done = 0;
  while (data && done < size) {
    ssize_t got = pread(fd, data + done, size - done, (off_t)done);
    if (got <= 0)
      break;
    done += (size_t)got;
  }
  cuemu_status result = CUEMU_SUCCESS;
  if (!data || done != size)
    result = cuemu__report(CUEMU_IO_ERROR, "cannot read %s", shared_object);
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)data;
  /* Only a 64-bit shared object of this machine's byte order is changed. */
  const unsigned one = 1;
  const int order = *(const unsigned char *)&one ? ELFDATA2LSB : ELFDATA2MSB;
  if (result == CUEMU_SUCCESS && size >= sizeof *eh && memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 &&
      eh->e_ident[EI_CLASS] == ELFCLASS64 && eh->e_ident[EI_DATA] == order &&
      eh->e_type == ET_DYN && eh->e_shentsize == sizeof(Elf64_Shdr) && eh->e_shoff <= size &&
      (size - eh->e_shoff) / sizeof(Elf64_Shdr) >= eh->e_shnum) {
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(data + eh->e_shoff);
    for (size_t i = 1; i < eh->e_shnum && result == CUEMU_SUCCESS; ++i) {
      if (sh[i].sh_type != SHT_DYNSYM)
        continue;
      const int changed = weaken_table(data, size, &sh[i]);
      if (changed < 0) {
        result = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object", shared_object);
      } else if (changed > 0 &&
                 pwrite(fd, data + sh[i].sh_offset, sh[i].sh_size, (off_t)sh[i].sh_offset) !=
                     (ssize_t)sh[i].sh_size) {
        result = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", shared_object,
                               strerror(errno));
      }
    }
  }
  free(data);
  close(fd);
  return result;
}
