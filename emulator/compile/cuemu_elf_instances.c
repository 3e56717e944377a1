/*
 * cuemu_elf_instances.c: default visibility for the kernel template
 * instances of a device pass's object (see cuemu_driver.h).
 *
 * The device pass's object is made local but for the symbols of default
 * visibility (objcopy --localize-hidden), so that each pass keeps its own
 * inline functions and templates, while the kernels stay global and are
 * the ones the program links. The translation gives kernels default
 * visibility, but the compilers make an instance of a template hidden
 * whenever a template argument is a hidden type, which every class of a
 * translation unit compiled with -fvisibility=hidden is
 * (`kernel<my_struct>`, `DeviceReduceKernel<Policy...>`). The records of
 * kernel instances (CUEMU_KERNEL_INSTANCE, whose fourth word is the
 * instance's address) name them all: this file sets their symbols'
 * visibility back to default in the object's symbol table.
 *
 * It also makes weak the host pass's unique definitions of the variable
 * template instances that the device pass's object defines
 * (cuemu__elf_weaken_unique(), see cuemu_variable_template.c), and lists
 * the symbols of the device pass's object that must be local so that host
 * code links the host pass's copies (cuemu__elf_shared_globals()), and
 * lists the visible device functions of a further device pass of
 * relocatable device code, to be renamed per architecture
 * (cuemu__elf_variant_renames()), and reads the symbols of the instances
 * that a first device pass's object records (cuemu__elf_instance_symbols()).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"

/* The section of the records, and the place of the instance's address in
 * a record (seven words: see shims/cuda_builtins/cuemu_kernel_instances.h). */
static const char records_name[] = "cuemu_instances";
enum { RECORD_WORDS = 7, ADDRESS_WORD = 3 };

static int host_data_encoding(void) {
  const unsigned one = 1;
  return *(const unsigned char *)&one ? ELFDATA2LSB : ELFDATA2MSB;
}

/* Reads the whole file; NULL on failure (errno set). */
static unsigned char *slurp(int fd, size_t *size) {
  struct stat st;
  if (fstat(fd, &st) != 0)
    return NULL;
  unsigned char *data = malloc((size_t)st.st_size ? (size_t)st.st_size : 1);
  size_t done = 0;
  while (data && done < (size_t)st.st_size) {
    ssize_t n = pread(fd, data + done, (size_t)st.st_size - done, (off_t)done);
    if (n <= 0) {
      free(data);
      data = NULL;
      if (n == 0)
        errno = EIO;
    } else {
      done += (size_t)n;
    }
  }
  *size = (size_t)st.st_size;
  return data;
}

/* Sets the visibility of the symbols that the relocations of section `rel`
 * (a SHT_RELA or SHT_REL section of the records) name at the records'
 * address word, and sets *written to the symbol table; returns the number
 * of symbols changed, -1 if the object is malformed. With `marks` (one byte
 * a symbol of the table), marks those symbols instead of changing them. */
static int export_named(unsigned char *data, size_t size, const Elf64_Shdr *sh,
                        size_t count, const Elf64_Shdr *rel,
                        const Elf64_Shdr **written, unsigned char *marks,
                        size_t nmarks) {
  size_t entry = rel->sh_type == SHT_RELA ? sizeof(Elf64_Rela)
                                           : sizeof(Elf64_Rel);
  if (rel->sh_link >= count || rel->sh_offset > size ||
      rel->sh_size > size - rel->sh_offset)
    return -1;
  const Elf64_Shdr *symtab = &sh[rel->sh_link];
  if (symtab->sh_offset > size || symtab->sh_size > size - symtab->sh_offset)
    return -1;
  Elf64_Sym *syms = (Elf64_Sym *)(data + symtab->sh_offset);
  size_t nsyms = symtab->sh_size / sizeof(Elf64_Sym);
  int changed = 0;
  *written = symtab;
  for (size_t r = 0; r + entry <= rel->sh_size; r += entry) {
    const Elf64_Rel *one = (const Elf64_Rel *)(data + rel->sh_offset + r);
    if (one->r_offset % (RECORD_WORDS * 8) != ADDRESS_WORD * 8)
      continue;
    size_t s = ELF64_R_SYM(one->r_info);
    if (s == 0 || s >= nsyms || syms[s].st_shndx == SHN_UNDEF)
      continue;
    if (marks) {
      if (s < nmarks)
        marks[s] = 1;
    } else if (ELF64_ST_VISIBILITY(syms[s].st_other) != STV_DEFAULT) {
      syms[s].st_other = (unsigned char)(syms[s].st_other & ~3u);
      changed++;
    }
  }
  return changed;
}

/* A relocatable object read whole, with its section headers (or, where
 * `shared`, a shared object, read alone). */
typedef struct elf_object {
  int fd;
  unsigned char *data;
  size_t size;
  const Elf64_Shdr *sh;
  size_t count, names;
  int shared;
} elf_object;

static cuemu_status elf_view(elf_object *o, const char *object, int *usable);

/* Opens and reads `object`; *usable is 0 for an object that is not a
 * 64-bit relocatable ELF object (or, with `shared`, shared object) of this
 * machine's byte order (left as it is). Returns SUCCESS, IO_ERROR or
 * COMPILE (malformed). */
static cuemu_status elf_open_as(const char *object, elf_object *o,
                                int *usable, int shared) {
  memset(o, 0, sizeof *o);
  o->shared = shared;
  *usable = 0;
  o->fd = open(object, O_RDWR | O_CLOEXEC);
  if (o->fd < 0 && (errno == EACCES || errno == EROFS))
    o->fd = open(object, O_RDONLY | O_CLOEXEC); /* to read alone */
  if (o->fd < 0)
    return cuemu__report(CUEMU_IO_ERROR, "cannot open %s: %s", object,
                         strerror(errno));
  o->data = slurp(o->fd, &o->size);
  if (!o->data) {
    cuemu_status st = cuemu__report(CUEMU_IO_ERROR, "cannot read %s: %s",
                                    object, strerror(errno));
    close(o->fd);
    o->fd = -1;
    return st;
  }
  return elf_view(o, object, usable);
}

static cuemu_status elf_open(const char *object, elf_object *o, int *usable) {
  return elf_open_as(object, o, usable, 0);
}

/* Reads the headers of o's data (o->data, o->size) into o; as elf_open(). */
static cuemu_status elf_view(elf_object *o, const char *object, int *usable) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)o->data;
  if (o->size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_ident[EI_DATA] != host_data_encoding() ||
      (eh->e_type != ET_REL && !(o->shared && eh->e_type == ET_DYN)) ||
      eh->e_shoff == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
      eh->e_shoff > o->size || o->size - eh->e_shoff < sizeof(Elf64_Shdr))
    return CUEMU_SUCCESS;
  o->sh = (const Elf64_Shdr *)(o->data + eh->e_shoff);
  /* Objects with many sections (-ffunction-sections) keep the counts in
   * section 0. */
  o->count = eh->e_shnum ? eh->e_shnum : o->sh[0].sh_size;
  o->names =
      eh->e_shstrndx == SHN_XINDEX ? o->sh[0].sh_link : eh->e_shstrndx;
  if (o->count > (o->size - eh->e_shoff) / sizeof(Elf64_Shdr) ||
      o->names >= o->count || o->sh[o->names].sh_offset > o->size ||
      o->sh[o->names].sh_size > o->size - o->sh[o->names].sh_offset)
    return cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object", object);
  *usable = 1;
  return CUEMU_SUCCESS;
}

/* Writes the section `symtab` of o back, then closes o. */
static cuemu_status elf_close(elf_object *o, const char *object,
                              const Elf64_Shdr *symtab, cuemu_status st) {
  if (st == CUEMU_SUCCESS && symtab) {
    size_t done = 0, from = symtab->sh_offset, length = symtab->sh_size;
    while (done < length && st == CUEMU_SUCCESS) {
      ssize_t n = pwrite(o->fd, o->data + from + done, length - done,
                         (off_t)(from + done));
      if (n <= 0)
        st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", object,
                           strerror(n < 0 ? errno : EIO));
      else
        done += (size_t)n;
    }
  }
  free(o->data);
  if (o->fd >= 0)
    close(o->fd);
  return st;
}

/* Applies export_named() to every relocation section of o's records (see
 * export_named() for `marks`); returns the number of symbols changed, -1
 * if o is malformed. */
static int scan_records(elf_object *o, const Elf64_Shdr **symtab,
                        unsigned char *marks, size_t nmarks) {
  const Elf64_Shdr *sh = o->sh;
  const unsigned char *data = o->data;
  size_t count = o->count, names = o->names;
  size_t records = 0;
  for (size_t i = 1; i < count && !records; ++i)
    if (sh[i].sh_name < sh[names].sh_size &&
        strncmp((const char *)data + sh[names].sh_offset + sh[i].sh_name,
                records_name, sh[names].sh_size - sh[i].sh_name) == 0)
      records = i;
  int changed = 0;
  for (size_t i = 1; i < count && records; ++i) {
    if ((sh[i].sh_type != SHT_RELA && sh[i].sh_type != SHT_REL) ||
        sh[i].sh_info != records)
      continue;
    int n = export_named(o->data, o->size, sh, count, &sh[i], symtab, marks,
                         nmarks);
    if (n < 0)
      return -1;
    changed += n;
  }
  return changed;
}

cuemu_status cuemu__elf_export_instances(const char *object) {
  elf_object o;
  int usable;
  cuemu_status st = elf_open(object, &o, &usable);
  if (st != CUEMU_SUCCESS || !usable)
    return elf_close(&o, object, NULL, st);
  const Elf64_Shdr *symtab = NULL;
  int changed = scan_records(&o, &symtab, NULL, 0);
  if (changed < 0)
    st = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object", object);
  return elf_close(&o, object, changed > 0 ? symtab : NULL, st);
}

cuemu_status cuemu__elf_hide_globals(const char *object) {
  elf_object o;
  int usable;
  cuemu_status st = elf_open(object, &o, &usable);
  const Elf64_Shdr *symtab = NULL;
  for (size_t i = 1; st == CUEMU_SUCCESS && usable && i < o.count; ++i) {
    const Elf64_Shdr *s = &o.sh[i];
    if (s->sh_type != SHT_SYMTAB)
      continue;
    if (s->sh_offset > o.size || s->sh_size > o.size - s->sh_offset) {
      st = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object", object);
      break;
    }
    Elf64_Sym *syms = (Elf64_Sym *)(o.data + s->sh_offset);
    size_t nsyms = s->sh_size / sizeof(Elf64_Sym);
    for (size_t k = 1; k < nsyms; ++k) {
      int bind = ELF64_ST_BIND(syms[k].st_info);
      if ((bind == STB_GLOBAL || bind == STB_WEAK) &&
          syms[k].st_shndx != SHN_UNDEF &&
          ELF64_ST_VISIBILITY(syms[k].st_other) == STV_DEFAULT) {
        syms[k].st_other =
            (unsigned char)((syms[k].st_other & ~3u) | STV_HIDDEN);
        symtab = s;
      }
    }
  }
  return elf_close(&o, object, symtab, st);
}

cuemu_status cuemu__elf_weaken_variant(const char *object, int restore) {
  elf_object o;
  int usable;
  cuemu_status st = elf_open(object, &o, &usable);
  const Elf64_Shdr *symtab = NULL;
  for (size_t i = 1; st == CUEMU_SUCCESS && usable && i < o.count; ++i) {
    const Elf64_Shdr *s = &o.sh[i];
    if (s->sh_type != SHT_SYMTAB)
      continue;
    if (s->sh_offset > o.size || s->sh_size > o.size - s->sh_offset) {
      st = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object", object);
      break;
    }
    Elf64_Sym *syms = (Elf64_Sym *)(o.data + s->sh_offset);
    size_t nsyms = s->sh_size / sizeof(Elf64_Sym);
    for (size_t k = 1; k < nsyms; ++k) {
      int bind = ELF64_ST_BIND(syms[k].st_info);
      int type = ELF64_ST_TYPE(syms[k].st_info);
      int vis = ELF64_ST_VISIBILITY(syms[k].st_other);
      if ((bind != STB_GLOBAL && bind != STB_WEAK) ||
          syms[k].st_shndx == SHN_UNDEF)
        continue;
      if (restore) {
        /* After objcopy --localize-hidden: hidden again. */
        if (vis == STV_PROTECTED) {
          syms[k].st_other =
              (unsigned char)((syms[k].st_other & ~3u) | STV_HIDDEN);
          symtab = s;
        }
      } else if (type == STT_OBJECT || type == STT_TLS ||
                 syms[k].st_shndx == SHN_COMMON) {
        /* A variable: the first pass's object, once linked; a hidden one
         * is marked protected, which objcopy --localize-hidden keeps
         * global, and hidden again afterwards (code compiled for a hidden
         * variable must not reach a preemptible one in a shared
         * library). */
        syms[k].st_info = (unsigned char)ELF64_ST_INFO(STB_WEAK, type);
        if (vis == STV_HIDDEN || vis == STV_INTERNAL)
          syms[k].st_other =
              (unsigned char)((syms[k].st_other & ~3u) | STV_PROTECTED);
        symtab = s;
      } else if (vis == STV_DEFAULT) {
        syms[k].st_info = (unsigned char)ELF64_ST_INFO(STB_WEAK, type);
        symtab = s;
      }
    }
  }
  return elf_close(&o, object, symtab, st);
}

/* The symbol table of o (its first SHT_SYMTAB section) with its string
 * table, or NULL when it has none or they are malformed (*malformed set). */
static Elf64_Sym *symbols(const elf_object *o, size_t *count,
                          const char **names, size_t *names_size,
                          const Elf64_Shdr **symtab, int *malformed) {
  *malformed = 0;
  for (size_t i = 1; i < o->count; ++i) {
    const Elf64_Shdr *s = &o->sh[i];
    if (s->sh_type != SHT_SYMTAB)
      continue;
    if (s->sh_offset > o->size || s->sh_size > o->size - s->sh_offset ||
        s->sh_link >= o->count ||
        o->sh[s->sh_link].sh_offset > o->size ||
        o->sh[s->sh_link].sh_size > o->size - o->sh[s->sh_link].sh_offset) {
      *malformed = 1;
      return NULL;
    }
    *count = s->sh_size / sizeof(Elf64_Sym);
    *names = (const char *)o->data + o->sh[s->sh_link].sh_offset;
    *names_size = o->sh[s->sh_link].sh_size;
    *symtab = s;
    return (Elf64_Sym *)(o->data + s->sh_offset);
  }
  return NULL;
}

/* The name of symbol s, or NULL when it is not a terminated string of the
 * string table. */
static const char *symbol_name(const Elf64_Sym *s, const char *names,
                               size_t names_size) {
  if (s->st_name >= names_size ||
      !memchr(names + s->st_name, '\0', names_size - s->st_name))
    return NULL;
  return names + s->st_name;
}

static int device_vtable(const char *name);

/* Non-zero when a relocation of o's section `section` in [from, to) names
 * code: a function (defined, or a reference of protected visibility, the
 * pass's renamed one), or an executable section (a local function). The
 * initializer of a variable of a further pass that holds such an address
 * points at that pass's code. */
static int points_at_code(const elf_object *o, const Elf64_Sym *syms,
                          size_t nsyms, const Elf64_Shdr *symtab,
                          size_t section, Elf64_Addr from, Elf64_Addr to) {
  for (size_t i = 1; i < o->count; ++i) {
    const Elf64_Shdr *rel = &o->sh[i];
    if ((rel->sh_type != SHT_RELA && rel->sh_type != SHT_REL) ||
        rel->sh_info != section || &o->sh[rel->sh_link] != symtab ||
        rel->sh_offset > o->size || rel->sh_size > o->size - rel->sh_offset)
      continue;
    size_t entry = rel->sh_type == SHT_RELA ? sizeof(Elf64_Rela)
                                             : sizeof(Elf64_Rel);
    for (size_t r = 0; r + entry <= rel->sh_size; r += entry) {
      const Elf64_Rel *one = (const Elf64_Rel *)(o->data + rel->sh_offset + r);
      size_t s = ELF64_R_SYM(one->r_info);
      if (one->r_offset < from || one->r_offset >= to || s == 0 || s >= nsyms)
        continue;
      const int type = ELF64_ST_TYPE(syms[s].st_info);
      if (type == STT_FUNC || type == STT_GNU_IFUNC)
        return 1;
      if (syms[s].st_shndx == SHN_UNDEF &&
          ELF64_ST_VISIBILITY(syms[s].st_other) == STV_PROTECTED)
        return 1;
      if (type == STT_SECTION && syms[s].st_shndx < o->count &&
          (o->sh[syms[s].st_shndx].sh_flags & SHF_EXECINSTR))
        return 1;
    }
  }
  return 0;
}

/* Appends to the linker script `aliases` (opened on first use) the line
 * "NAMESUFFIX = NAME;". */
static cuemu_status write_alias(FILE **aliases, const char *path,
                                const char *name, const char *suffix) {
  if (!*aliases && !(*aliases = fopen(path, "we")))
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", path,
                         strerror(errno));
  fprintf(*aliases, "\"%s%s\" = \"%s\";\n", name, suffix, name);
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__elf_variant_renames(const char *object,
                                        const char *suffix, const char *list,
                                        int *count, const char *aliases,
                                        int *naliases, const char *copies,
                                        int *ncopies) {
  elf_object o;
  int usable, bad = 0;
  *count = 0;
  cuemu_status st = elf_open(object, &o, &usable);
  if (st != CUEMU_SUCCESS || !usable)
    return elf_close(&o, object, NULL, st);
  size_t n = 0, names_size = 0;
  const char *names = NULL;
  const Elf64_Shdr *symtab = NULL;
  Elf64_Sym *syms = symbols(&o, &n, &names, &names_size, &symtab, &bad);
  FILE *out = NULL, *alias_file = NULL, *copy_file = NULL;
  const Elf64_Shdr *changed = NULL;
  if (naliases)
    *naliases = 0;
  if (ncopies)
    *ncopies = 0;
  for (size_t k = 1; syms && st == CUEMU_SUCCESS && k < n; ++k) {
    const int bind = ELF64_ST_BIND(syms[k].st_info);
    const int type = ELF64_ST_TYPE(syms[k].st_info);
    const char *name = symbol_name(&syms[k], names, names_size);
    if (!name || !*name || (bind != STB_GLOBAL && bind != STB_WEAK))
      continue;
    if (device_vtable(name)) {
      /* Defined: kept global by objcopy --localize-hidden (protected).
       * Referenced: weak and hidden, so that host code that the pass also
       * compiles (never run) links where no device pass defines it. */
      if (syms[k].st_shndx == SHN_UNDEF)
        syms[k].st_info = (unsigned char)ELF64_ST_INFO(STB_WEAK, type);
      syms[k].st_other = (unsigned char)((syms[k].st_other & ~3u) |
                                         (syms[k].st_shndx == SHN_UNDEF
                                              ? STV_HIDDEN
                                              : STV_PROTECTED));
      changed = symtab;
    } else if (aliases &&
               (type == STT_OBJECT || syms[k].st_shndx == SHN_COMMON) &&
               syms[k].st_shndx != SHN_UNDEF &&
               ELF64_ST_VISIBILITY(syms[k].st_other) == STV_PROTECTED) {
      /* A __device__ variable of a further pass (variant_linkage): the
       * pass's own copy when its initializer points at code (a device
       * function's address: each architecture's variable points at its
       * own code, as each cubin initializes its own); else an alias of
       * the first pass's object, one object for every pass. */
      if (syms[k].st_shndx >= o.count ||
          !points_at_code(&o, syms, n, symtab, syms[k].st_shndx,
                          syms[k].st_value,
                          syms[k].st_value + syms[k].st_size)) {
        /* Default visibility again, the translation's for a variable. */
        syms[k].st_other = (unsigned char)(syms[k].st_other & ~3u);
        changed = symtab;
        st = write_alias(&alias_file, aliases, name, suffix);
        if (st == CUEMU_SUCCESS)
          ++*naliases;
        continue;
      }
      /* The pass's own copy: listed ("NAME SIZE") for the host's symbol
       * calls, which reach the current device's copy. */
      if (copies && !copy_file && !(copy_file = fopen(copies, "we")))
        st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", copies,
                           strerror(errno));
      if (copy_file) {
        fprintf(copy_file, "%s %llu\n", name,
                (unsigned long long)syms[k].st_size);
        ++*ncopies;
      }
    } else if ((type != STT_FUNC && type != STT_NOTYPE) ||
               ELF64_ST_VISIBILITY(syms[k].st_other) != STV_PROTECTED) {
      continue;
    }
    if (!out && !(out = fopen(list, "we")))
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", list,
                         strerror(errno));
    if (out) {
      fprintf(out, "%s %s%s\n", name, name, suffix);
      ++*count;
    }
  }
  if (out && fclose(out) != 0 && st == CUEMU_SUCCESS)
    st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", list);
  if (alias_file && fclose(alias_file) != 0 && st == CUEMU_SUCCESS)
    st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", aliases);
  if (copy_file && fclose(copy_file) != 0 && st == CUEMU_SUCCESS)
    st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", copies);
  if (st == CUEMU_SUCCESS && bad)
    st = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object", object);
  return elf_close(&o, object, changed, st);
}

/* Non-zero when `name` is the virtual table of a class that device code
 * may build: a user's class, not one of the C++ runtime (namespace std,
 * __gnu_cxx, __cxxabiv1's type_info classes), which no device pass
 * defines. A device pass's table names the pass's code of the virtual
 * functions; renamed as they are, an object that another unit's device
 * code builds calls each architecture's code, as a GPU's own table. */
static int device_vtable(const char *name) {
  static const char *const runtime[] = {"_ZTVSt", "_ZTVNSt", "_ZTVN9__gnu_cxx",
                                        "_ZTVN10__cxxabiv1"};
  if (strncmp(name, "_ZTV", 4) != 0)
    return 0;
  for (size_t r = 0; r < sizeof runtime / sizeof *runtime; ++r)
    if (strncmp(name, runtime[r], strlen(runtime[r])) == 0)
      return 0;
  return 1;
}

cuemu_status cuemu__elf_link_symbols(const char *path, long long offset,
                                     size_t size,
                                     cuemu_status (*each)(void *ctx,
                                                          const char *name,
                                                          int kind),
                                     void *ctx) {
  elf_object o;
  memset(&o, 0, sizeof o);
  o.fd = -1;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return CUEMU_SUCCESS; /* nothing to read: the link reports it */
  struct stat sb;
  if (fstat(fd, &sb) == 0 && offset >= 0 && offset <= (long long)sb.st_size) {
    if (!size || size > (size_t)(sb.st_size - offset))
      size = (size_t)(sb.st_size - offset);
    o.data = malloc(size ? size : 1);
    size_t done = 0;
    while (o.data && done < size) {
      ssize_t n = pread(fd, o.data + done, size - done,
                        (off_t)(offset + (long long)done));
      if (n <= 0)
        break;
      done += (size_t)n;
    }
    o.size = done;
  }
  close(fd);
  int usable = 0, bad = 0;
  cuemu_status st = o.data && o.size == size ? elf_view(&o, path, &usable)
                                             : CUEMU_SUCCESS;
  size_t n = 0, names_size = 0;
  const char *names = NULL;
  const Elf64_Shdr *symtab = NULL;
  Elf64_Sym *syms = st == CUEMU_SUCCESS && usable
                        ? symbols(&o, &n, &names, &names_size, &symtab, &bad)
                        : NULL;
  for (size_t k = 1; syms && st == CUEMU_SUCCESS && k < n; ++k) {
    const char *name = symbol_name(&syms[k], names, names_size);
    const int bind = ELF64_ST_BIND(syms[k].st_info);
    if (!name || !*name || bind == STB_LOCAL)
      continue;
    if (syms[k].st_shndx != SHN_UNDEF)
      st = each(ctx, name, CUEMU_LINK_DEFINED);
    else if (bind == STB_WEAK && device_vtable(name) &&
             strstr(name, ".cuemu_"))
      st = each(ctx, name, CUEMU_LINK_WEAK_TABLE);
    else if (bind != STB_WEAK)
      st = each(ctx, name, CUEMU_LINK_UNDEFINED);
  }
  free(o.data);
  if (st == CUEMU_SUCCESS && bad)
    st = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object", path);
  return st;
}

/* Non-zero when the symbol table syms (n symbols) names `name` followed
 * by `suffix`. */
static int names_with_suffix(const Elf64_Sym *syms, size_t n,
                             const char *names, size_t names_size,
                             const char *name, const char *suffix) {
  const size_t length = strlen(name);
  for (size_t j = 1; j < n; ++j) {
    const char *other = symbol_name(&syms[j], names, names_size);
    if (other && strncmp(other, name, length) == 0 &&
        strcmp(other + length, suffix) == 0)
      return 1;
  }
  return 0;
}

cuemu_status cuemu__elf_device_fallbacks(const char *object,
                                         const char *suffix, const char *first,
                                         const char *list, int *count) {
  elf_object o, f;
  int usable, usable_f = 0, bad = 0, bad_f = 0;
  cuemu_status st = elf_open(object, &o, &usable);
  if (st != CUEMU_SUCCESS || !usable)
    return elf_close(&o, object, NULL, st);
  memset(&f, 0, sizeof f);
  f.fd = -1;
  if (first && (st = elf_open(first, &f, &usable_f)) != CUEMU_SUCCESS) {
    elf_close(&f, first, NULL, st);
    return elf_close(&o, object, NULL, st);
  }
  size_t n = 0, names_size = 0, fn = 0, fnames_size = 0;
  const char *names = NULL, *fnames = NULL;
  const Elf64_Shdr *symtab = NULL, *fsymtab = NULL;
  Elf64_Sym *syms = symbols(&o, &n, &names, &names_size, &symtab, &bad);
  Elf64_Sym *fsyms = usable_f ? symbols(&f, &fn, &fnames, &fnames_size,
                                        &fsymtab, &bad_f)
                              : NULL;
  FILE *out = NULL;
  for (size_t k = 1; syms && st == CUEMU_SUCCESS && k < n; ++k) {
    const int bind = ELF64_ST_BIND(syms[k].st_info);
    if ((bind != STB_GLOBAL && bind != STB_WEAK) ||
        syms[k].st_shndx != SHN_UNDEF ||
        ELF64_ST_VISIBILITY(syms[k].st_other) != STV_PROTECTED)
      continue;
    const char *name = symbol_name(&syms[k], names, names_size);
    if (!name || !*name ||
        (first && !(fsyms && names_with_suffix(fsyms, fn, fnames, fnames_size,
                                               name, CUEMU_DEVICE_SUFFIX))))
      continue;
    if (!out && !(out = fopen(list, "ae")))
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", list,
                         strerror(errno));
    if (out) {
      fprintf(out, "%s%s %s\n", name, suffix, name);
      ++*count;
    }
  }
  if (out && fclose(out) != 0 && st == CUEMU_SUCCESS)
    st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", list);
  if (st == CUEMU_SUCCESS && (bad || bad_f))
    st = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object",
                       bad ? object : first);
  if (first)
    elf_close(&f, first, NULL, CUEMU_SUCCESS);
  return elf_close(&o, object, NULL, st);
}

cuemu_status cuemu__elf_weaken_unique(const char *host, const char *device) {
  elf_object h, d;
  int usable_h, usable_d, bad_h = 0, bad_d = 0;
  cuemu_status st = elf_open(host, &h, &usable_h);
  if (st != CUEMU_SUCCESS || !usable_h)
    return elf_close(&h, host, NULL, st);
  st = elf_open(device, &d, &usable_d);
  if (st != CUEMU_SUCCESS || !usable_d) {
    elf_close(&d, device, NULL, st);
    return elf_close(&h, host, NULL, st);
  }
  size_t hn = 0, dn = 0, hnames_size = 0, dnames_size = 0;
  const char *hnames = NULL, *dnames = NULL;
  const Elf64_Shdr *hsymtab = NULL, *dsymtab = NULL, *written = NULL;
  Elf64_Sym *hs = symbols(&h, &hn, &hnames, &hnames_size, &hsymtab, &bad_h);
  Elf64_Sym *ds = symbols(&d, &dn, &dnames, &dnames_size, &dsymtab, &bad_d);
  for (size_t k = 1; hs && ds && k < hn; ++k) {
    if (ELF64_ST_BIND(hs[k].st_info) != STB_GNU_UNIQUE ||
        hs[k].st_shndx == SHN_UNDEF)
      continue;
    const char *name = symbol_name(&hs[k], hnames, hnames_size);
    for (size_t j = 1; name && j < dn; ++j) {
      int bind = ELF64_ST_BIND(ds[j].st_info);
      const char *other = symbol_name(&ds[j], dnames, dnames_size);
      if ((bind == STB_GLOBAL || bind == STB_WEAK) &&
          ds[j].st_shndx != SHN_UNDEF && other && strcmp(name, other) == 0) {
        hs[k].st_info =
            (unsigned char)ELF64_ST_INFO(STB_WEAK, ELF64_ST_TYPE(hs[k].st_info));
        written = hsymtab;
        break;
      }
    }
  }
  if (bad_h || bad_d)
    st = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object",
                       bad_h ? host : device);
  elf_close(&d, device, NULL, CUEMU_SUCCESS);
  return elf_close(&h, host, written, st);
}

cuemu_status cuemu__elf_variable_shadows(const char *host, const char *renames,
                                         int *count, const char *records,
                                         int *defined) {
  *count = *defined = 0;
  elf_object h;
  int usable = 0, bad = 0;
  cuemu_status st = elf_open(host, &h, &usable);
  if (st != CUEMU_SUCCESS || !usable)
    return elf_close(&h, host, NULL, st);
  size_t n = 0, names_size = 0;
  const char *names = NULL;
  const Elf64_Shdr *symtab = NULL, *written = NULL;
  Elf64_Sym *syms = symbols(&h, &n, &names, &names_size, &symtab, &bad);
  FILE *list = NULL, *out = NULL;
  /* The sections that have their guard already. */
  unsigned char *guarded = calloc(h.count ? h.count : 1, 1);
  for (size_t k = 1; syms && st == CUEMU_SUCCESS && k < n; ++k) {
    const int bind = ELF64_ST_BIND(syms[k].st_info);
    const int type = ELF64_ST_TYPE(syms[k].st_info);
    const int undefined = syms[k].st_shndx == SHN_UNDEF;
    if ((bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE) ||
        ELF64_ST_VISIBILITY(syms[k].st_other) != STV_PROTECTED ||
        !(type == STT_OBJECT || (undefined && type == STT_NOTYPE)))
      continue;
    const char *name = symbol_name(&syms[k], names, names_size);
    if (!name || !*name)
      continue;
    if (!list && !(list = fopen(renames, "we"))) {
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", renames,
                         strerror(errno));
      break;
    }
    fprintf(list, "%s %s" CUEMU_SHADOW_SUFFIX "\n", name, name);
    ++*count;
    /* Hidden: the shadow is the linked file's own (as the device's object
     * of a shared library is its own); a unique binding becomes weak, one
     * shadow of every unit's instance of a variable template. */
    syms[k].st_other =
        (unsigned char)((syms[k].st_other & ~3u) | STV_HIDDEN);
    if (bind == STB_GNU_UNIQUE)
      syms[k].st_info = (unsigned char)ELF64_ST_INFO(STB_WEAK, type);
    written = symtab;
    if (undefined)
      continue;
    if (!out) {
      if (!(out = fopen(records, "we"))) {
        st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", records,
                           strerror(errno));
        break;
      }
      fputs("\t.section cuemu_variable_shadows,\"aw\",%progbits\n", out);
    }
    /* The guard (CUEMU_SHADOW_GUARD), once in each section that holds a
     * shadow: the linker puts it first in the section of that name, which
     * this object's place before the host pass's (host_shadows()) keeps
     * after the device pass's variables of the same section (with
     * -fdata-sections, the variable's own). Not in a group's section. */
    size_t x = syms[k].st_shndx;
    if (x > 0 && x < SHN_LORESERVE && x < h.count && guarded && !guarded[x] &&
        !(h.sh[x].sh_flags & (SHF_GROUP | SHF_TLS)) &&
        (h.sh[x].sh_flags & SHF_ALLOC) &&
        h.sh[x].sh_name < h.sh[h.names].sh_size) {
      guarded[x] = 1;
      const char *section =
          (const char *)h.data + h.sh[h.names].sh_offset + h.sh[x].sh_name;
      fprintf(out, "\t.pushsection %s,\"a%s\",%s\n\t.skip %d\n\t.popsection\n",
              section, h.sh[x].sh_flags & SHF_WRITE ? "w" : "",
              h.sh[x].sh_type == SHT_NOBITS ? "@nobits" : "@progbits",
              CUEMU_SHADOW_GUARD);
    }
    /* The device pass's object is referenced weakly: an instance of a
     * variable template that only host code names has none (0). */
    fprintf(out,
            "\t.balign 8\n\t.weak %s\n\t.quad %s" CUEMU_SHADOW_SUFFIX
            "\n\t.quad %s\n\t.quad %llu\n",
            name, name, name, (unsigned long long)syms[k].st_size);
    ++*defined;
  }
  if (out) {
    fputs("\t.section .note.GNU-stack,\"\",%progbits\n", out);
    if (fclose(out) != 0 && st == CUEMU_SUCCESS)
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", records);
  }
  if (list && fclose(list) != 0 && st == CUEMU_SUCCESS)
    st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", renames);
  free(guarded);
  if (st == CUEMU_SUCCESS && bad)
    st = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object", host);
  return elf_close(&h, host, written, st);
}

/* Non-zero for a class's virtual table, VTT or type information. */
static int class_data(const char *name) {
  return strncmp(name, "_ZTV", 4) == 0 || strncmp(name, "_ZTT", 4) == 0 ||
         strncmp(name, "_ZTI", 4) == 0 || strncmp(name, "_ZTS", 4) == 0;
}

/* Non-zero when the device pass's weak definition `name` (of type `type`)
 * is one that host code would otherwise link in place of the host pass's:
 * a function, or a class's virtual table, VTT or type information, which
 * lead to its virtual functions. cuemu's own templates (the kernels'
 * thunks and registrations) are left to the device pass. */
static int host_code_copy(const char *name, int type) {
  if (strncmp(name, "_ZN5cuemu", 9) == 0 || strncmp(name, "_ZZN5cuemu", 10) == 0)
    return 0;
  return type == STT_FUNC || type == STT_GNU_IFUNC || class_data(name);
}

/* Non-zero for a name of namespace std (or of libstdc++'s __gnu_cxx): a
 * function, or a virtual table, VTT or type information. */
static int std_name(const char *name) {
  static const char *const heads[] = {"_ZTV", "_ZTT", "_ZTI", "_ZTS", "_Z"};
  static const char *const scopes[] = {"St", "NSt", "NKSt", "N9__gnu_cxx",
                                       "NK9__gnu_cxx"};
  for (size_t h = 0; h < sizeof heads / sizeof *heads; ++h) {
    size_t n = strlen(heads[h]);
    if (strncmp(name, heads[h], n) != 0)
      continue;
    for (size_t s = 0; s < sizeof scopes / sizeof *scopes; ++s)
      if (strncmp(name + n, scopes[s], strlen(scopes[s])) == 0)
        return 1;
    return 0;
  }
  return 0;
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Fills `out` (room for n) with the sorted names of the defined symbols of
 * table `syms` whose binding `wanted` accepts (a bit per binding), or that
 * `marks` marks; returns their number. */
static size_t sorted_names(const Elf64_Sym *syms, size_t n, const char *names,
                           size_t names_size, unsigned wanted,
                           const unsigned char *marks, const char **out) {
  size_t m = 0;
  for (size_t k = 1; k < n; ++k) {
    const char *name = symbol_name(&syms[k], names, names_size);
    if (name && syms[k].st_shndx != SHN_UNDEF &&
        ((wanted >> ELF64_ST_BIND(syms[k].st_info) & 1u) ||
         (marks && marks[k])))
      out[m++] = name;
  }
  qsort(out, m, sizeof *out, compare_names);
  return m;
}

static int has_name(const char **sorted, size_t n, const char *name) {
  return n && bsearch(&name, sorted, n, sizeof *sorted, compare_names);
}

cuemu_status cuemu__elf_shared_globals(const char *host, const char *device,
                                       int separate, const char *list,
                                       int *count) {
  elf_object h, d;
  int usable_h, usable_d, bad_h = 0, bad_d = 0;
  *count = 0;
  cuemu_status st = elf_open(host, &h, &usable_h);
  if (st != CUEMU_SUCCESS || !usable_h)
    return elf_close(&h, host, NULL, st);
  st = elf_open(device, &d, &usable_d);
  if (st != CUEMU_SUCCESS || !usable_d) {
    elf_close(&d, device, NULL, st);
    return elf_close(&h, host, NULL, st);
  }
  size_t hn = 0, dn = 0, hnames_size = 0, dnames_size = 0;
  const char *hnames = NULL, *dnames = NULL;
  const Elf64_Shdr *hsymtab = NULL, *dsymtab = NULL, *unused = NULL;
  Elf64_Sym *hs = symbols(&h, &hn, &hnames, &hnames_size, &hsymtab, &bad_h);
  Elf64_Sym *ds = symbols(&d, &dn, &dnames, &dnames_size, &dsymtab, &bad_d);
  /* The names that stay the device pass's: its kernel template instances
   * and strong globals (a further architecture's pass has weak copies of
   * them); the host pass's names, strong or any. */
  unsigned char *instances = ds ? calloc(dn, 1) : NULL;
  const char **keep = ds ? malloc(dn * sizeof *keep) : NULL;
  const char **host_strong = hs ? malloc(hn * sizeof *host_strong) : NULL;
  const char **host_any = hs ? malloc(hn * sizeof *host_any) : NULL;
  size_t nkeep = 0, nstrong = 0, nany = 0;
  if (hs && ds && (!instances || !keep || !host_strong || !host_any))
    st = cuemu__report(CUEMU_OUT_OF_MEMORY, "cannot list the symbols of %s",
                       device);
  else if (hs && ds && scan_records(&d, &unused, instances, dn) < 0)
    bad_d = 1;
  if (hs && ds && st == CUEMU_SUCCESS) {
    nkeep = sorted_names(ds, dn, dnames, dnames_size, 1u << STB_GLOBAL,
                         instances, keep);
    nstrong = sorted_names(hs, hn, hnames, hnames_size, 1u << STB_GLOBAL,
                           NULL, host_strong);
    nany = sorted_names(hs, hn, hnames, hnames_size,
                        1u << STB_GLOBAL | 1u << STB_WEAK, NULL, host_any);
  }
  FILE *out = NULL;
  for (size_t j = 1; hs && ds && st == CUEMU_SUCCESS && j < dn; ++j) {
    int bind = ELF64_ST_BIND(ds[j].st_info);
    if ((bind != STB_GLOBAL && bind != STB_WEAK) ||
        ds[j].st_shndx == SHN_UNDEF || instances[j])
      continue;
    const char *name = symbol_name(&ds[j], dnames, dnames_size);
    if (!name)
      continue;
    /* A strong global of both passes: a host function kept global by the
     * user's visibility. A weak one (an inline function, a template's
     * instance, a virtual table) of default visibility (namespace std's,
     * a library's exported class): without -rdc no other unit's device
     * code links it, so it is made local whether the host pass has it or
     * not (another unit's host code would link it). With -rdc, another
     * unit's device code may link an explicit instance of a device
     * function template (tests/programs/trialcxx/rdc_linked_entities.cu),
     * whose host pass's copy is a stub: then only namespace std's and the
     * virtual tables (each unit has its own copy), and only when the host
     * pass has its own. */
    int listed = bind == STB_GLOBAL
                     ? has_name(host_strong, nstrong, name)
                     : host_code_copy(name, ELF64_ST_TYPE(ds[j].st_info)) &&
                           !has_name(keep, nkeep, name) &&
                           (!separate ||
                            ((std_name(name) || class_data(name)) &&
                             has_name(host_any, nany, name)));
    if (!listed)
      continue;
    if (!out && !(out = fopen(list, "we")))
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", list,
                         strerror(errno));
    if (out) {
      fprintf(out, "%s\n", name);
      ++*count;
    }
  }
  free(keep);
  free(host_strong);
  free(host_any);
  free(instances);
  if (out && fclose(out) != 0 && st == CUEMU_SUCCESS)
    st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", list);
  if (st == CUEMU_SUCCESS && (bad_h || bad_d))
    st = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object",
                       bad_h ? host : device);
  elf_close(&d, device, NULL, CUEMU_SUCCESS);
  return elf_close(&h, host, NULL, st);
}

/* A note of cuemu_shared_notes: the code section it lies in, the
 * declaration and its size. */
typedef struct shared_note {
  size_t section;
  unsigned long long id, bytes;
} shared_note;

/* An edge of the call graph between code sections (or, for a reference
 * to another object's symbol, from a section to the symbol: `call` when
 * the relocation is a call's or a jump's, as to a function). */
typedef struct code_edge {
  size_t from, to;
  int call;
} code_edge;

/* Non-zero when the relocation type `type` of a machine's code is a call's
 * or a jump's: x86-64's PLT32 (a variable's or a function's address is
 * PC32 or GOTPCREL), AArch64's CALL26 and JUMP26. */
static int call_relocation(unsigned type) {
#if defined(__x86_64__)
  return type == R_X86_64_PLT32;
#elif defined(__aarch64__)
  return type == R_AARCH64_CALL26 || type == R_AARCH64_JUMP26;
#else
  (void)type;
  return 1;
#endif
}

static int edge_order(const void *a, const void *b) {
  const code_edge *x = a, *y = b;
  return x->from < y->from ? -1 : x->from > y->from;
}

/* Reads the notes and the edges between code sections (a relocation of a
 * section of code that names another one, or a symbol of it: with
 * -ffunction-sections, a function's calls) of o; returns 0 when malformed
 * or out of memory. */
static int read_calls(const elf_object *o, const Elf64_Sym *syms,
                      size_t nsyms, const Elf64_Shdr *symtab, size_t notes,
                      shared_note **note, size_t *nnotes, code_edge **edge,
                      size_t *nedges, code_edge **ext, size_t *next) {
  size_t cap_n = 0, cap_e = 0, cap_x = 0;
  const Elf64_Shdr *ns = &o->sh[notes];
  for (size_t i = 1; i < o->count; ++i) {
    const Elf64_Shdr *rel = &o->sh[i];
    if (rel->sh_type != SHT_RELA || &o->sh[rel->sh_link] != symtab ||
        rel->sh_info >= o->count || rel->sh_offset > o->size ||
        rel->sh_size > o->size - rel->sh_offset)
      continue;
    size_t from = rel->sh_info;
    int is_notes = from == notes;
    if (!is_notes && !(o->sh[from].sh_flags & SHF_EXECINSTR))
      continue;
    for (size_t r = 0; r + sizeof(Elf64_Rela) <= rel->sh_size;
         r += sizeof(Elf64_Rela)) {
      const Elf64_Rela *one =
          (const Elf64_Rela *)(o->data + rel->sh_offset + r);
      size_t s = ELF64_R_SYM(one->r_info), to;
      if (ext && !is_notes && s > 0 && s < nsyms &&
          syms[s].st_shndx == SHN_UNDEF &&
          ELF64_ST_BIND(syms[s].st_info) != STB_LOCAL) {
        /* A reference to another object's symbol (-rdc: a call of
         * another unit's function). */
        if (*next == cap_x) {
          cap_x = cap_x ? 2 * cap_x : 64;
          code_edge *grown = realloc(*ext, cap_x * sizeof *grown);
          if (!grown)
            return 0;
          *ext = grown;
        }
        (*ext)[(*next)++] =
            (code_edge){from, s, call_relocation(ELF64_R_TYPE(one->r_info))};
        continue;
      }
      if (s == 0 || s >= nsyms || syms[s].st_shndx == SHN_UNDEF ||
          syms[s].st_shndx >= o->count ||
          !(o->sh[to = syms[s].st_shndx].sh_flags & SHF_EXECINSTR))
        continue;
      if (is_notes) {
        /* Three words a note: its code's address, the id, the size. */
        if (one->r_offset % 24 != 0 || ns->sh_type == SHT_NOBITS ||
            ns->sh_offset > o->size || ns->sh_size > o->size - ns->sh_offset ||
            one->r_offset + 24 > ns->sh_size)
          continue;
        if (*nnotes == cap_n) {
          cap_n = cap_n ? 2 * cap_n : 16;
          shared_note *grown = realloc(*note, cap_n * sizeof *grown);
          if (!grown)
            return 0;
          *note = grown;
        }
        const unsigned char *w = o->data + ns->sh_offset + one->r_offset;
        shared_note *n = &(*note)[(*nnotes)++];
        n->section = to;
        memcpy(&n->id, w + 8, 8);
        memcpy(&n->bytes, w + 16, 8);
      } else if (to != from) {
        if (*nedges == cap_e) {
          cap_e = cap_e ? 2 * cap_e : 64;
          code_edge *grown = realloc(*edge, cap_e * sizeof *grown);
          if (!grown)
            return 0;
          *edge = grown;
        }
        (*edge)[(*nedges)++] = (code_edge){from, to, 1};
      }
    }
  }
  return 1;
}

/* The index of o's section named `name`, or 0. */
static size_t section_named(const elf_object *o, const char *name) {
  const char *section_names = (const char *)o->data + o->sh[o->names].sh_offset;
  for (size_t i = 1; i < o->count; ++i)
    if (o->sh[i].sh_name < o->sh[o->names].sh_size &&
        strncmp(section_names + o->sh[i].sh_name, name,
                o->sh[o->names].sh_size - o->sh[i].sh_name) == 0)
      return i;
  return 0;
}

/* The code section of the kernel that the function of section `identity`
 * returns the address of (::cuemu::kernel_identity: its one relocation,
 * in o's section `rel`, that names code defined in o), with a symbol of it
 * into *symbol; 0 when the kernel is another object's. */
static size_t identity_kernel(const elf_object *o, const Elf64_Sym *syms,
                              size_t nsyms, const Elf64_Shdr *rel,
                              size_t *symbol) {
  for (size_t r = 0; r + sizeof(Elf64_Rela) <= rel->sh_size;
       r += sizeof(Elf64_Rela)) {
    const Elf64_Rela *one = (const Elf64_Rela *)(o->data + rel->sh_offset + r);
    size_t s = ELF64_R_SYM(one->r_info), home;
    if (s == 0 || s >= nsyms || syms[s].st_shndx == SHN_UNDEF ||
        (home = syms[s].st_shndx) >= o->count ||
        !(o->sh[home].sh_flags & SHF_EXECINSTR))
      continue;
    /* A local kernel's relocation names its section: any function of the
     * section names it. */
    *symbol = s;
    for (size_t k = 1;
         ELF64_ST_TYPE(syms[s].st_info) == STT_SECTION && k < nsyms; ++k)
      if (syms[k].st_shndx == home &&
          ELF64_ST_TYPE(syms[k].st_info) == STT_FUNC) {
        *symbol = k;
        break;
      }
    return home;
  }
  return 0;
}

/* A kernel of the object: its code section, a symbol that names it, and
 * its static shared memory in the object (shared_limit()). */
typedef struct shared_kernel {
  size_t section, symbol;
  unsigned long long total;
} shared_kernel;

/* Reads the records of o's sections cuemu_static_shared (a kernel body's
 * static __shared__ declarations) and cuemu_kernel_marks (a kernel of the
 * object, with neither id nor size): three words each, the first naming
 * the kernel through ::cuemu::kernel_identity. Appends to *kernel the
 * kernels, each once, and to *body the declarations, their section being
 * their kernel's. Returns 0 when out of memory. */
static int read_kernels(const elf_object *o, const Elf64_Sym *syms,
                        size_t nsyms, const Elf64_Shdr *symtab,
                        shared_kernel **kernel, size_t *nkernels,
                        shared_note **body, size_t *nbody) {
  size_t cap_k = 0, cap_b = 0;
  const size_t records[2] = {section_named(o, "cuemu_static_shared"),
                             section_named(o, "cuemu_kernel_marks")};
  if (!records[0] && !records[1])
    return 1;
  /* Each section's relocation section, if it has one. */
  size_t *rela_of = calloc(o->count, sizeof *rela_of);
  if (!rela_of)
    return 0;
  for (size_t i = 1; i < o->count; ++i)
    if (o->sh[i].sh_type == SHT_RELA && &o->sh[o->sh[i].sh_link] == symtab &&
        o->sh[i].sh_info < o->count && o->sh[i].sh_offset <= o->size &&
        o->sh[i].sh_size <= o->size - o->sh[i].sh_offset)
      rela_of[o->sh[i].sh_info] = i;
  int ok = 1;
  for (int which = 0; which < 2 && ok; ++which) {
    if (!records[which] || !rela_of[records[which]])
      continue;
    const Elf64_Shdr *rel = &o->sh[rela_of[records[which]]];
    const Elf64_Shdr *data = &o->sh[rel->sh_info];
    for (size_t r = 0; r + sizeof(Elf64_Rela) <= rel->sh_size;
         r += sizeof(Elf64_Rela)) {
      const Elf64_Rela *one =
          (const Elf64_Rela *)(o->data + rel->sh_offset + r);
      size_t s = ELF64_R_SYM(one->r_info), symbol = 0, home = 0;
      if (one->r_offset % 24 != 0 || data->sh_type == SHT_NOBITS ||
          data->sh_offset > o->size ||
          data->sh_size > o->size - data->sh_offset ||
          one->r_offset + 24 > data->sh_size || s == 0 || s >= nsyms ||
          syms[s].st_shndx == SHN_UNDEF || syms[s].st_shndx >= o->count ||
          !rela_of[syms[s].st_shndx] ||
          !(home = identity_kernel(o, syms, nsyms,
                                   &o->sh[rela_of[syms[s].st_shndx]],
                                   &symbol)))
        continue;
      size_t k = 0;
      while (k < *nkernels && (*kernel)[k].section != home)
        ++k;
      if (k == *nkernels) {
        if (*nkernels == cap_k) {
          cap_k = cap_k ? 2 * cap_k : 16;
          shared_kernel *grown = realloc(*kernel, cap_k * sizeof *grown);
          if (!(ok = grown != NULL))
            break;
          *kernel = grown;
        }
        (*kernel)[(*nkernels)++] = (shared_kernel){home, symbol, 0};
      }
      if (which == 1)
        continue;
      if (*nbody == cap_b) {
        cap_b = cap_b ? 2 * cap_b : 16;
        shared_note *grown = realloc(*body, cap_b * sizeof *grown);
        if (!(ok = grown != NULL))
          break;
        *body = grown;
      }
      const unsigned char *w = o->data + data->sh_offset + one->r_offset;
      shared_note *b = &(*body)[(*nbody)++];
      b->section = home;
      memcpy(&b->id, w + 8, 8);
      memcpy(&b->bytes, w + 16, 8);
    }
  }
  free(rela_of);
  return ok;
}

/* Marks with `stamp` in seen[] the code sections reachable from `home`
 * through the edges (sorted by their first section, first[] giving each
 * section's first); `stack` holds nedges + 1 entries. */
static void reach_sections(size_t home, size_t stamp, const code_edge *edge,
                           size_t nedges, const size_t *first, size_t *stack,
                           size_t *seen) {
  size_t depth = 0;
  stack[depth++] = home;
  seen[home] = stamp;
  while (depth) {
    size_t s = stack[--depth];
    for (size_t e = first[s]; e < first[s + 1]; ++e)
      if (seen[edge[e].to] != stamp && depth <= nedges) {
        seen[edge[e].to] = stamp;
        stack[depth++] = edge[e].to;
      }
  }
}

/* The bytes of the declarations of list (n notes) that lie in sections
 * marked `stamp` in seen[] (or, with seen NULL, in section `stamp`), each
 * declaration once, added to *total. */
static void add_declarations(const shared_note *list, size_t n,
                             const size_t *seen, size_t stamp,
                             unsigned long long *ids, size_t *nids,
                             unsigned long long *total) {
  for (size_t m = 0; m < n; ++m) {
    if ((seen ? seen[list[m].section] : list[m].section) != stamp)
      continue;
    size_t p = 0;
    while (p < *nids && ids[p] != list[m].id)
      ++p;
    if (p < *nids)
      continue;
    ids[(*nids)++] = list[m].id;
    *total += list[m].bytes;
  }
}

/* nvcc's limit on a kernel's static shared memory (ptxas: "too much shared
 * data"): each kernel's body declarations and those its code reaches in
 * the object, each once (into its total). Returns COMPILE, naming each
 * kernel past it, or SUCCESS (also when out of memory: the launch checks
 * it again). */
static cuemu_status shared_limit(const char *unit, shared_kernel *kernel,
                                 size_t nkernels, const shared_note *body,
                                 size_t nbody, const shared_note *note,
                                 size_t nnotes, const code_edge *edge,
                                 size_t nedges, const size_t *first,
                                 size_t *stack, size_t *seen, size_t stamp,
                                 const Elf64_Sym *syms, const char *names,
                                 size_t names_size) {
  /* One message, a line for each kernel past it, as ptxas prints them. */
  char *message = NULL;
  size_t length = 0;
  FILE *lines = open_memstream(&message, &length);
  unsigned long long *ids = malloc((nbody + nnotes + 1) * sizeof *ids);
  for (size_t k = 0; ids && lines && k < nkernels; ++k) {
    unsigned long long total = 0;
    size_t nids = 0;
    reach_sections(kernel[k].section, stamp + k, edge, nedges, first, stack,
                   seen);
    add_declarations(body, nbody, NULL, kernel[k].section, ids, &nids,
                     &total);
    add_declarations(note, nnotes, seen, stamp + k, ids, &nids, &total);
    kernel[k].total = total;
    if (total <= 0xc000)
      continue;
    const char *name =
        symbol_name(&syms[kernel[k].symbol], names, names_size);
    char entry[4096];
    fprintf(lines,
            "%s%s: Entry function '%s' uses too much shared data (0x%llx "
            "bytes, 0xc000 max), as ptxas refuses it",
            ftell(lines) ? "\n" : "", unit,
            name && *name ? cuemu__ptxas_entry_name(name, entry, sizeof entry)
                          : "(a kernel)",
            total);
  }
  free(ids);
  cuemu_status st = CUEMU_SUCCESS;
  if (lines && fclose(lines) == 0 && length)
    st = cuemu__report(CUEMU_COMPILE, "%s", message);
  free(message);
  return st;
}

/* One record of CUEMU_SPACE_BYTES_: a variable's size, alignment and place
 * in its unit, and a word of padding. */
typedef struct space_record {
  unsigned long long size, align, place, unused;
} space_record;

static int by_place(const void *a, const void *b) {
  const space_record *x = a, *y = b;
  return (x->place > y->place) - (x->place < y->place);
}

cuemu_status cuemu__elf_space_layout(const char *object, const char *section,
                                    cuemu_space_layout *layout) {
  elf_object o;
  int usable;
  memset(layout, 0, sizeof *layout);
  cuemu_status st = elf_open_as(object, &o, &usable, 1);
  if (st != CUEMU_SUCCESS || !usable)
    return elf_close(&o, object, NULL, st);
  const char *section_names = (const char *)o.data + o.sh[o.names].sh_offset;
  space_record *records = NULL;
  size_t n = 0;
  for (size_t i = 1; i < o.count && st == CUEMU_SUCCESS; ++i) {
    const Elf64_Shdr *s = &o.sh[i];
    if (s->sh_name >= o.sh[o.names].sh_size ||
        strcmp(section_names + s->sh_name, section) != 0 ||
        s->sh_type != SHT_PROGBITS)
      continue;
    if (s->sh_offset > o.size || s->sh_size > o.size - s->sh_offset ||
        s->sh_size % sizeof *records) {
      st = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object", object);
      break;
    }
    space_record *more =
        realloc(records, (n + s->sh_size / sizeof *records) * sizeof *records);
    if (!more) {
      st = cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
      break;
    }
    records = more;
    memcpy(records + n, o.data + s->sh_offset, s->sh_size);
    n += s->sh_size / sizeof *records;
  }
  /* In the order of the definitions, each variable padded to its
   * alignment; packed by decreasing alignment, as ptxas lays out global
   * memory, no variable needs padding: a C++ object's size is a multiple
   * of its alignment. */
  if (st == CUEMU_SUCCESS && n)
    qsort(records, n, sizeof *records, by_place);
  for (size_t k = 0; st == CUEMU_SUCCESS && k < n; ++k) {
    const space_record *r = &records[k];
    if (r->align > 1 && layout->in_order % r->align)
      layout->in_order += r->align - layout->in_order % r->align;
    layout->in_order += r->size;
    layout->packed += r->size;
    layout->count++;
  }
  free(records);
  return elf_close(&o, object, NULL, st);
}

cuemu_status cuemu__elf_shared_calls(const char *object, const char *source,
                                     int *count, int *noted, const char *reach,
                                     int *nreach, const char *unit) {
  elf_object o;
  int usable, bad = 0;
  *count = 0;
  *noted = 0;
  cuemu_status st = elf_open(object, &o, &usable);
  if (st != CUEMU_SUCCESS || !usable)
    return elf_close(&o, object, NULL, st);
  size_t n = 0, names_size = 0;
  const char *names = NULL;
  const Elf64_Shdr *symtab = NULL;
  Elf64_Sym *syms = symbols(&o, &n, &names, &names_size, &symtab, &bad);
  size_t notes = syms ? section_named(&o, "cuemu_shared_notes") : 0;
  *noted = notes != 0;
  if (nreach)
    *nreach = 0;
  shared_note *note = NULL, *body = NULL;
  shared_kernel *kernel = NULL;
  code_edge *edge = NULL, *ext = NULL;
  size_t nnotes = 0, nedges = 0, next = 0, nkernels = 0, nbody = 0,
         *first = NULL, *stack = NULL, *seen = NULL, *named = NULL;
  unsigned char *called = NULL; /* a symbol that the object calls */
  FILE *out = NULL, *reach_out = NULL;
  if (unit && syms &&
      !read_kernels(&o, syms, n, symtab, &kernel, &nkernels, &body, &nbody))
    st = cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  if (st == CUEMU_SUCCESS && (notes || nkernels || (reach && syms)) &&
      !read_calls(&o, syms, n, symtab, notes, &note, &nnotes, &edge, &nedges,
                  reach ? &ext : NULL, &next))
    st = cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  /* With relocatable device code, the call graph goes on in other units:
   * each global function's notes and references to other objects are
   * written to `reach` for the link (cuemu__shared_reach_source()). */
  const int summary = reach && (nnotes || next);
  if (st == CUEMU_SUCCESS && (nnotes || summary || nkernels)) {
    /* The edges by their first section, with each section's first. */
    qsort(edge, nedges, sizeof *edge, edge_order);
    first = calloc(o.count + 1, sizeof *first);
    stack = malloc((nedges + 1) * sizeof *stack);
    seen = calloc(o.count, sizeof *seen);
    named = summary ? calloc(n, sizeof *named) : NULL;
    called = summary ? calloc(n, 1) : NULL;
    if (!first || !stack || !seen || (summary && (!named || !called)))
      st = cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
    for (size_t e = 0, s = 0; st == CUEMU_SUCCESS && s <= o.count; ++s) {
      while (e < nedges && edge[e].from < s)
        ++e;
      first[s] = e;
    }
    for (size_t x = 0; called && x < next; ++x)
      called[ext[x].to] |= (unsigned char)ext[x].call;
  }
  if (st == CUEMU_SUCCESS && nkernels)
    st = shared_limit(unit, kernel, nkernels, body, nbody, note, nnotes, edge,
                      nedges, first, stack, seen, n, syms, names, names_size);
  /* Each global function's reachable sections (seen[] == its symbol's
   * number), and the notes that lie in them. */
  for (size_t k = 1; st == CUEMU_SUCCESS && (nnotes || summary) && k < n;
       ++k) {
    const int bind = ELF64_ST_BIND(syms[k].st_info);
    const char *name = symbol_name(&syms[k], names, names_size);
    size_t home = syms[k].st_shndx;
    if (!name || !*name || ELF64_ST_TYPE(syms[k].st_info) != STT_FUNC ||
        (bind != STB_GLOBAL && bind != STB_WEAK) || home == SHN_UNDEF ||
        home >= o.count)
      continue;
    reach_sections(home, k, edge, nedges, first, stack, seen);
    if (summary && !reach_out && !(reach_out = fopen(reach, "we"))) {
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", reach,
                         strerror(errno));
      break;
    }
    /* Each name once, not cuemu's own (the runtime's, the shims'): "C"
     * for a function that the object calls, "D" for another reference
     * (a variable's, or a function's address alone), which the device
     * link tells apart as nvlink does (cuemu__reach_undefined()). */
    for (size_t x = 0; summary && x < next; ++x) {
      const char *callee = symbol_name(&syms[ext[x].to], names, names_size);
      if (seen[ext[x].from] != k || !callee || !*callee ||
          strncmp(callee, "cuemu", 5) == 0 || strncmp(callee, "__", 2) == 0 ||
          strncmp(callee, "_ZN5cuemu", 9) == 0 || named[ext[x].to] == k)
        continue;
      named[ext[x].to] = k;
      fprintf(reach_out, "%c %s %s\n", called[ext[x].to] ? 'C' : 'D', name,
              callee);
      ++*nreach;
    }
    /* A kernel's static shared memory in this unit, which the link adds
     * to what it reaches in other units to check nvlink's limit. */
    for (size_t x = 0; summary && x < nkernels; ++x)
      if (kernel[x].section == home && kernel[x].symbol == k) {
        fprintf(reach_out, "K %s 0 %llu\n", name, kernel[x].total);
        ++*nreach;
      }
    for (size_t m = 0; m < nnotes; ++m) {
      int repeated = 0;
      for (size_t p = 0; p < m && !repeated; ++p)
        repeated = note[p].id == note[m].id && seen[note[p].section] == k;
      if (seen[note[m].section] != k || repeated)
        continue;
      if (summary) {
        fprintf(reach_out, "N %s %llu %llu\n", name, note[m].id,
                note[m].bytes);
        ++*nreach;
      }
      if (!out && !(out = fopen(source, "we"))) {
        st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", source,
                           strerror(errno));
        break;
      }
      if (!*count)
        fputs("\t.section cuemu_static_shared_calls,\"aw\"\n\t.balign 8\n",
              out);
      fprintf(out, "\t.quad \"%s\", %llu, %llu\n", name, note[m].id,
              note[m].bytes);
      ++*count;
    }
  }
  if (out) {
    fputs("\t.section .note.GNU-stack,\"\",@progbits\n", out);
    if (fclose(out) != 0 && st == CUEMU_SUCCESS)
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", source);
  }
  if (reach_out && fclose(reach_out) != 0 && st == CUEMU_SUCCESS)
    st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", reach);
  free(note);
  free(body);
  free(kernel);
  free(edge);
  free(ext);
  free(named);
  free(called);
  free(first);
  free(stack);
  free(seen);
  if (st == CUEMU_SUCCESS && bad)
    st = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object", object);
  return elf_close(&o, object, NULL, st);
}

/* The places of the instance's assembler name (a string) and of the pass
 * in a record (see cuemu_instances.h), and the pass word of the first
 * device pass's records. */
enum { SYMBOL_WORD = 4, PASS_WORD = 6, DEVICE_PASS = 1 };

cuemu_status cuemu__elf_instance_symbols(const char *object,
                                         int (*each)(const char *symbol,
                                                     void *data),
                                         void *data) {
  elf_object o;
  int usable;
  cuemu_status st = elf_open(object, &o, &usable);
  if (st != CUEMU_SUCCESS || !usable)
    return elf_close(&o, object, NULL, st);
  const Elf64_Shdr *sh = o.sh;
  size_t records = section_named(&o, records_name);
  int stop = 0, malformed = records && (sh[records].sh_offset > o.size ||
                                        sh[records].sh_size >
                                            o.size - sh[records].sh_offset);
  for (size_t i = 1; i < o.count && records && !stop && !malformed; ++i) {
    const Elf64_Shdr *rel = &sh[i];
    if ((rel->sh_type != SHT_RELA && rel->sh_type != SHT_REL) ||
        rel->sh_info != records)
      continue;
    int rela = rel->sh_type == SHT_RELA;
    size_t entry = rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
    const Elf64_Shdr *symtab =
        rel->sh_link < o.count ? &sh[rel->sh_link] : NULL;
    if (!symtab || rel->sh_offset > o.size ||
        rel->sh_size > o.size - rel->sh_offset || symtab->sh_offset > o.size ||
        symtab->sh_size > o.size - symtab->sh_offset) {
      malformed = 1;
      break;
    }
    const Elf64_Sym *syms = (const Elf64_Sym *)(o.data + symtab->sh_offset);
    size_t nsyms = symtab->sh_size / sizeof(Elf64_Sym);
    const unsigned char *words = o.data + sh[records].sh_offset;
    for (size_t r = 0; r + entry <= rel->sh_size && !stop; r += entry) {
      const Elf64_Rela *one = (const Elf64_Rela *)(o.data + rel->sh_offset + r);
      size_t record = one->r_offset / (RECORD_WORDS * 8);
      size_t s = ELF64_R_SYM(one->r_info);
      if (one->r_offset % (RECORD_WORDS * 8) != SYMBOL_WORD * 8 || s == 0 ||
          s >= nsyms || (record + 1) * RECORD_WORDS * 8 > sh[records].sh_size)
        continue;
      /* The pass word is a constant, in place in the section; the name's
       * address is its section's symbol (or a label) and an addend. */
      long long pass, addend;
      memcpy(&pass, words + (record * RECORD_WORDS + PASS_WORD) * 8,
             sizeof pass);
      if (rela)
        addend = one->r_addend;
      else
        memcpy(&addend, words + one->r_offset, sizeof addend);
      const Elf64_Sym *label = &syms[s];
      if (pass != DEVICE_PASS || label->st_shndx == SHN_UNDEF ||
          label->st_shndx >= o.count)
        continue;
      const Elf64_Shdr *home = &sh[label->st_shndx];
      unsigned long long at = label->st_value + (unsigned long long)addend;
      if (home->sh_type == SHT_NOBITS || home->sh_offset > o.size ||
          home->sh_size > o.size - home->sh_offset || at >= home->sh_size)
        continue;
      const char *symbol = (const char *)o.data + home->sh_offset + at;
      if (*symbol && memchr(symbol, '\0', home->sh_size - at))
        stop = each(symbol, data);
    }
  }
  if (malformed)
    st = cuemu__report(CUEMU_COMPILE, "%s: a malformed ELF object", object);
  return elf_close(&o, object, NULL, st);
}
