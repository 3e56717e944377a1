/*
 * cuemu_check_module.c: what the checkers need to know about a checked
 * module or program: which checkers it was built with (the absolute symbol
 * `cuemu_check_built` that cuemu-cc asks the linker for, and the local one
 * of each checked unit), where its thread-local block is (its static
 * __shared__ arrays, which are `static thread_local`, are the symbols of
 * type STT_TLS in its .symtab),
 * and the source line of a code address (addr2line, run only when a report
 * is written, with the user's .cu line chosen over the shims' lines).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/cuemu_check.h"

/* Modules already read, newest first, found again by address and path;
 * cuemu_module_load() reads a module afresh (another may have been loaded
 * at the same addresses before). Each keeps its file open, without
 * close-on-exec, because the file may be deleted once loaded (the tests
 * do that) and addr2line, run later for a report, reads it as
 * /proc/self/fd/N, which it inherits. */
typedef struct known_module {
  cuemu_check_module m;
  char path[4096];   /* as the dynamic loader names it */
  int fd;
  /* The dynamic loader's counts of objects loaded and unloaded (dl_phdr_
   * info's dlpi_adds and dlpi_subs) when the module was last found at its
   * addresses: while they stay the same, it still holds them, and a launch
   * finds its kernel's module without walking the loader's list and
   * resolving the program's path (system calls) again. */
  unsigned long long adds, subs;
  struct known_module *next;
} known_module;

static pthread_mutex_t modules_lock = PTHREAD_MUTEX_INITIALIZER;
static known_module *known;

/* The source name of a thread-local symbol: "tile" for a static local
 * (_ZZ6kernelPfE4tile, with an optional _N discriminator), for a static
 * global (_ZL4tile) or for an unmangled one; the mangled name otherwise. */
static char *source_name(const char *sym) {
  size_t len = strlen(sym);
  if (strncmp(sym, "_Z", 2) != 0)
    return strdup(sym);
  const char *p = sym + 2;
  if (*p == 'L')
    p++;
  if (*p >= '1' && *p <= '9') {
    char *end;
    unsigned long n = strtoul(p, &end, 10);
    if (n && strlen(end) == n)
      return strndup(end, n);
  }
  /* A static local: the last E<len><name>[_discriminator]. */
  for (size_t i = len; i-- > 2;) {
    if (sym[i] != 'E' || sym[i + 1] < '1' || sym[i + 1] > '9')
      continue;
    char *end;
    unsigned long n = strtoul(sym + i + 1, &end, 10);
    size_t rest = strlen(end);
    if (n && (rest == n || (rest > n && end[n] == '_')))
      return strndup(end, n);
  }
  return strdup(sym);
}

/* 1 when the mangled name `sym` is an entity of the shims' own namespaces
 * (::cuemu, ::cooperative_groups): a variable of one (_ZN5cuemu...) or a
 * static local of one of their functions (_ZZN18cooperative_groups...,
 * _ZZZN5cuemu... for a lambda's), whose outermost namespace is one of
 * these exactly; a user's namespace that merely holds the word
 * (mycuemu_tests, cooperative_groups_demo) is the user's. */
static int shim_symbol(const char *sym) {
  if (strncmp(sym, "_Z", 2) != 0)
    return 0;
  const char *p = sym + 2;
  while (*p == 'Z')
    p++;
  if (*p != 'N')
    return 0;
  p++;
  if (*p == 'L')
    p++;
  char *end;
  unsigned long n = strtoul(p, &end, 10);
  return (n == 5 && strncmp(end, "cuemu", 5) == 0) ||
         (n == 18 && strncmp(end, "cooperative_groups", 18) == 0);
}

static int by_offset(const void *a, const void *b) {
  const cuemu_check_symbol *x = a, *y = b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Reads the built-in checkers and the thread-local symbols from the
 * module's file. */
static void read_symbols(cuemu_check_module *m, int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(Elf64_Ehdr))
    return;
  size_t size = (size_t)st.st_size;
  unsigned char *img = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (img == MAP_FAILED)
    return;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > size) {
    munmap(img, size);
    return;
  }
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
  for (unsigned i = 0; i < eh->e_shnum; ++i) {
    if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
      continue;
    const Elf64_Shdr *strs = &sh[sh[i].sh_link];
    if (sh[i].sh_offset + sh[i].sh_size > size ||
        strs->sh_offset + strs->sh_size > size)
      continue;
    const Elf64_Sym *syms = (const Elf64_Sym *)(img + sh[i].sh_offset);
    size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
    const char *names = (const char *)img + strs->sh_offset;
    m->syms = calloc(n ? n : 1, sizeof *m->syms);
    if (!m->syms)
      break;
    for (size_t k = 0; k < n; ++k) {
      if (syms[k].st_name >= strs->sh_size)
        continue;
      const char *name = names + syms[k].st_name;
      /* The link's global symbol (cuemu-cc --check), and each checked
       * unit's local one (an object compiled with --check -c, linked by
       * anything): the checkers of all of them. */
      if (syms[k].st_shndx == SHN_ABS &&
          strcmp(name, CUEMU_CHECK_BUILT_SYMBOL) == 0)
        m->built |= (unsigned)syms[k].st_value;
      if (ELF64_ST_TYPE(syms[k].st_info) != STT_TLS || syms[k].st_size == 0)
        continue;
      cuemu_check_symbol *s = &m->syms[m->nsyms];
      s->offset = syms[k].st_value;
      s->size = syms[k].st_size;
      s->name = source_name(name);
      /* The shims keep some thread-local storage of their own (wide tiles,
       * message buffers, in their namespaces: shim_symbol()); it is not
       * shared memory. Nor is the guard
       * variable (_ZGV...) that g++ gives a `__shared__` array of a class
       * with a user-declared but trivial default constructor (`__half`,
       * `__half2`): g++ initialises such a thread-local array dynamically
       * (clang++ does not), and every thread reads the guard at the
       * declaration, which initcheck took for a read of unwritten shared
       * memory in each block but the first. */
      s->shared = s->name && !shim_symbol(name) &&
                  strncmp(name, "_ZGV", 4) != 0 &&
                  strcmp(name, "__tls_guard") != 0;
      if (s->name)
        m->nsyms++;
    }
    qsort(m->syms, m->nsyms, sizeof *m->syms, by_offset);
    break;
  }
  munmap(img, size);
}

typedef struct find_ctx {
  uintptr_t code;
  cuemu_check_module *m;
  int found;
} find_ctx;

static int find_module(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  find_ctx *c = data;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  int holds = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t b = info->dlpi_addr + ph->p_vaddr, e = b + ph->p_memsz;
    if (b < lo)
      lo = b;
    if (e > hi)
      hi = e;
    if (c->code >= b && c->code < e)
      holds = 1;
  }
  if (!holds)
    return 0;
  c->m->lo = lo;
  c->m->hi = hi;
  c->m->tls_modid = info->dlpi_tls_modid;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_TLS)
      c->m->tls_size = info->dlpi_phdr[i].p_memsz;
  if (info->dlpi_name && info->dlpi_name[0])
    snprintf(c->m->path, sizeof c->m->path, "%s", info->dlpi_name);
  else if (!realpath("/proc/self/exe", c->m->path))
    /* The main program: its real path, since addr2line runs in a child
     * process whose /proc/self/exe is addr2line itself. */
    snprintf(c->m->path, sizeof c->m->path, "/proc/self/exe");
  c->found = 1;
  return 1;
}

/* Marks a module stale: kept (a launch may still point at it), but never
 * found again, and its file closed. */
static void forget(known_module *k) {
  k->m.lo = k->m.hi = 0;
  if (k->fd >= 0) {
    close(k->fd);
    k->fd = -1;
    snprintf(k->m.path, sizeof k->m.path, "%s", k->path);
  }
}

/* Notes the loader's counts of loads and unloads (the first object's
 * dl_phdr_info carries them) and stops the walk there. */
static int loader_counts(struct dl_phdr_info *info, size_t size, void *data) {
  unsigned long long *counts = data;
  if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
    counts[0] = info->dlpi_adds;
    counts[1] = info->dlpi_subs;
  }
  return 1;
}

/* The module known to hold `code`, found there since the last object was
 * loaded or unloaded (modules_lock held). */
static known_module *known_holding(uintptr_t code) {
  unsigned long long counts[2] = {0, 0};
  dl_iterate_phdr(loader_counts, counts);
  if (!counts[0])
    return NULL;
  for (known_module *k = known; k; k = k->next)
    if (k->adds == counts[0] && k->subs == counts[1] && code >= k->m.lo &&
        code < k->m.hi)
      return k;
  return NULL;
}

/* Finds (or, with `fresh`, re-reads) the module holding `code`. */
static const cuemu_check_module *module_of(const void *code, int fresh) {
  if (!fresh) {
    pthread_mutex_lock(&modules_lock);
    known_module *k = known_holding((uintptr_t)code);
    pthread_mutex_unlock(&modules_lock);
    if (k)
      return &k->m;
  }
  unsigned long long counts[2] = {0, 0};
  dl_iterate_phdr(loader_counts, counts);
  cuemu_check_module found;
  memset(&found, 0, sizeof found);
  find_ctx c = {(uintptr_t)code, &found, 0};
  dl_iterate_phdr(find_module, &c);
  if (!c.found)
    return NULL;
  pthread_mutex_lock(&modules_lock);
  known_module *k;
  for (k = known; k; k = k->next) {
    if (k->m.lo != found.lo || strcmp(k->path, found.path) != 0)
      continue;
    if (!fresh)
      break;
    forget(k);
  }
  if (!k && (k = calloc(1, sizeof *k)) != NULL) {
    k->m = found;
    snprintf(k->path, sizeof k->path, "%s", found.path);
    k->fd = open(found.path, O_RDONLY);
    if (k->fd >= 0) {
      read_symbols(&k->m, k->fd);
      /* Every module keeps its file open while it is loaded (a fault's
       * line is read from it); only checked modules keep their symbols. */
      snprintf(k->m.path, sizeof k->m.path, "/proc/self/fd/%d", k->fd);
      if (!k->m.built) {
        for (size_t i = 0; i < k->m.nsyms; ++i)
          free(k->m.syms[i].name);
        free(k->m.syms);
        k->m.syms = NULL;
        k->m.nsyms = 0;
      }
    }
    k->next = known;
    known = k;
  }
  if (k) {
    /* Counted before the walk: a load since then makes it look again. */
    k->adds = counts[0];
    k->subs = counts[1];
  }
  pthread_mutex_unlock(&modules_lock);
  return k ? &k->m : NULL;
}

const cuemu_check_module *cuemu__check_module_of(const void *code) {
  return module_of(code, 0);
}

void cuemu__check_module_loaded(const void *code) { module_of(code, 1); }

void cuemu__check_module_unloading(const void *code) {
  pthread_mutex_lock(&modules_lock);
  for (known_module *k = known; k; k = k->next)
    if ((uintptr_t)code >= k->m.lo && (uintptr_t)code < k->m.hi)
      forget(k);
  pthread_mutex_unlock(&modules_lock);
}

const cuemu_check_symbol *
cuemu__check_symbol_at(const cuemu_check_module *m, size_t off,
                       const cuemu_check_symbol **nearest) {
  /* The common case, on every access: the last symbol starting at or
   * before `off` holds it. */
  size_t lo = 0, hi = m->nsyms;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->syms[mid].offset <= off)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo && off - m->syms[lo - 1].offset < m->syms[lo - 1].size)
    return &m->syms[lo - 1];
  /* Symbols may overlap (aliases): look at all of them. */
  const cuemu_check_symbol *best = NULL;
  size_t best_gap = (size_t)-1;
  for (size_t i = 0; i < m->nsyms; ++i) {
    const cuemu_check_symbol *s = &m->syms[i];
    if (off >= s->offset && off - s->offset < s->size)
      return s;
    if (!s->shared)
      continue;
    size_t gap = off < s->offset ? s->offset - off
                                 : off - (s->offset + s->size) + 1;
    if (gap < best_gap) {
      best_gap = gap;
      best = s;
    }
  }
  if (nearest)
    *nearest = best;
  return NULL;
}

/* ---- Source lines ------------------------------------------------------- */

/* What addr2line found for an address: a line of the user's code, only
 * lines of system headers (a line of one is chosen), only lines of the
 * shims, only a file of the user's without a line ("host.c:?": a static
 * function of code built without -g, which addr2line places by the symbol
 * table's file symbols, or a line 0), or nothing. */
enum { LINE_USER, LINE_SYSTEM, LINE_SHIMS, LINE_FILE_ONLY, LINE_NONE };

/* Whether an addr2line answer names no line ("file:?"). */
static int without_line(const char *line) {
  size_t n = strlen(line);
  return n >= 2 && strcmp(line + n - 2, ":?") == 0;
}

static int in_shims_file(const char *line) {
  return strstr(line, "/cuda_builtins/") != NULL;
}

/* Where the innermost frame of an address is: in the shims (but for their
 * narrow float types' operations), in CCCL's headers (CUB, Thrust,
 * libcu++: the toolkit's include/cccl or a checkout of CCCL's own), or
 * elsewhere. */
enum { INNER_OTHER, INNER_SHIMS, INNER_CCCL };

/* Whether a line is in the shims' half-precision, bfloat16 and 8-, 6- and
 * 4-bit float headers (cuda_fp16.h, cuemu_narrow_float_ops.h, ...): their
 * code holds no bookkeeping of cuemu's, only operations on the user's
 * values, so that its accesses are the user's (the read of `h[i]` in
 * `__half2float(h[i])`, which g++ makes inside the inlined conversion). */
static int in_narrow_float_file(const char *line) {
  static const char *const files[] = {"/cuda_builtins/cuda_fp16.h:",
                                      "/cuda_builtins/cuda_bf16.h:",
                                      "/cuda_builtins/cuda_fp8.h:",
                                      "/cuda_builtins/cuda_fp6.h:",
                                      "/cuda_builtins/cuda_fp4.h:",
                                      "/cuda_builtins/cuemu_narrow_float"};
  for (size_t i = 0; i < sizeof files / sizeof *files; ++i)
    if (strstr(line, files[i]))
      return 1;
  return 0;
}

static int inner_of(const char *line) {
  if (in_shims_file(line) && !in_narrow_float_file(line))
    return INNER_SHIMS;
  static const char *const cccl[] = {"/include/cccl/", "/cub/", "/thrust/",
                                     "/libcudacxx/"};
  for (size_t i = 0; i < sizeof cccl / sizeof *cccl; ++i)
    if (strstr(line, cccl[i]))
      return INNER_CCCL;
  return INNER_OTHER;
}

static int in_system_file(const char *line) {
  return strncmp(line, "/usr/", 5) == 0;
}

/* Runs addr2line on `file` for address `addr` and picks the innermost
 * frame that is not in the shims or in a system header, else the innermost
 * that is not in the shims (a shim's caller, in a system header), else the
 * innermost; *inner tells where the innermost frame of all is (INNER_).
 * Returns a LINE_ kind. */
static int addr2line(const char *file, uintptr_t addr, char *buf,
                     size_t size, int *inner) {
  char cmd[4600];
  if (snprintf(cmd, sizeof cmd, "addr2line -i -e '%s' 0x%lx 2>/dev/null",
               file, (unsigned long)addr) >= (int)sizeof cmd ||
      strchr(file, '\''))
    return LINE_NONE;
  FILE *p = popen(cmd, "re");
  if (!p)
    return LINE_NONE;
  char line[4096], first[4096] = "", system[4096] = "", file_only[4096] = "";
  int chosen = 0;
  while (fgets(line, sizeof line, p)) {
    line[strcspn(line, "\n")] = '\0';
    char *disc = strstr(line, " (discriminator");
    if (disc)
      *disc = '\0';
    if (strncmp(line, "??", 2) == 0)
      continue;
    if (!first[0]) {
      snprintf(first, sizeof first, "%s", line);
      *inner = inner_of(line);
    }
    if (in_shims_file(line))
      continue;
    if (without_line(line)) {
      if (!file_only[0] && !in_system_file(line))
        snprintf(file_only, sizeof file_only, "%s", line);
      continue;
    }
    if (!in_system_file(line)) {
      if (!chosen)
        snprintf(buf, size, "%s", line);
      chosen = 1;
    } else if (!system[0]) {
      snprintf(system, sizeof system, "%s", line);
    }
  }
  pclose(p);
  if (chosen)
    return LINE_USER;
  if (system[0]) {
    snprintf(buf, size, "%s", system);
    return LINE_SYSTEM;
  }
  if (file_only[0]) {
    snprintf(buf, size, "%s", file_only);
    return LINE_FILE_ONLY;
  }
  if (first[0]) {
    snprintf(buf, size, "%s", first);
    return LINE_SHIMS;
  }
  return LINE_NONE;
}

/* Whether a loaded object is one of the system's libraries. */
static int in_system_library(const char *object) {
  return strncmp(object, "/lib/", 5) == 0 ||
         strncmp(object, "/lib64/", 7) == 0 ||
         strncmp(object, "/usr/lib/", 9) == 0 ||
         strncmp(object, "/usr/lib64/", 11) == 0;
}

/* The name of the function holding `addr` in `file` (the innermost one
 * that the compiler inlined there, where the debugging information says),
 * from addr2line -f, demangled; 0 when it has none. */
static int function_name(const char *file, uintptr_t addr, char *buf,
                         size_t size) {
  char cmd[4600];
  if (snprintf(cmd, sizeof cmd, "addr2line -f -C -e '%s' 0x%lx 2>/dev/null",
               file, (unsigned long)addr) >= (int)sizeof cmd ||
      strchr(file, '\''))
    return 0;
  FILE *p = popen(cmd, "re");
  if (!p)
    return 0;
  char line[4096] = "";
  int found = fgets(line, sizeof line, p) != NULL;
  pclose(p);
  line[strcspn(line, "\n")] = '\0';
  if (!found || !line[0] || strncmp(line, "??", 2) == 0)
    return 0;
  snprintf(buf, size, "%s", line);
  return 1;
}

/* The file to give addr2line for the code at return address `pc`, and the
 * address of the call in it; 0 when no loaded object holds it. */
static int locate(const void *pc, Dl_info *info, const char **file,
                  uintptr_t *addr) {
  if (!pc)
    return 0;
  /* A return address points after the call: look up the call itself. */
  uintptr_t at = (uintptr_t)pc - 1;
  if (!dladdr((const void *)at, info) || !info->dli_fname)
    return 0;
  const cuemu_check_module *m = cuemu__check_module_of((const void *)at);
  *file = m && m->path[0] ? m->path : info->dli_fname;
  /* Position-independent objects are looked up by offset, executables by
   * address. */
  const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)info->dli_fbase;
  *addr = eh->e_type == ET_DYN ? at - (uintptr_t)info->dli_fbase : at;
  return 1;
}

int cuemu__check_function_at(const void *pc, char *buf, size_t size) {
  Dl_info info;
  const char *file;
  uintptr_t addr;
  return locate(pc, &info, &file, &addr) &&
         function_name(file, addr, buf, size);
}

/* The line of `pc`, with its LINE_ kind; *inner tells where its innermost
 * frame is (INNER_). */
static int line_kind(const void *pc, char *buf, size_t size, int *inner) {
  Dl_info info;
  const char *file;
  uintptr_t addr;
  *inner = INNER_OTHER;
  snprintf(buf, size, "%p", pc);
  if (!locate(pc, &info, &file, &addr))
    return LINE_NONE;
  int kind = addr2line(file, addr, buf, size, inner);
  /* A line of a system library (the C library's start of main, whose
   * lines its debugging information gives: "./csu/../sysdeps/...") is no
   * line of the user's. */
  if ((kind == LINE_USER || kind == LINE_FILE_ONLY) &&
      in_system_library(info.dli_fname))
    kind = LINE_SYSTEM;
  /* Without line information (a build without -g), the function (from
   * the symbol table), the object and the offset. */
  if (kind == LINE_NONE) {
    char name[512];
    const char *object = info.dli_fname[0] ? info.dli_fname : "the program";
    if (function_name(file, addr, name, sizeof name))
      snprintf(buf, size, "%s (%s+0x%lx)", name, object, (unsigned long)addr);
    else
      snprintf(buf, size, "%s+0x%lx", object, (unsigned long)addr);
  }
  return kind;
}

/* The line of `pc`; returns where its innermost frame is (INNER_). */
static int line_of(const void *pc, char *buf, size_t size) {
  int inner;
  line_kind(pc, buf, size, &inner);
  return inner;
}

void cuemu__check_line(const void *pc, char *buf, size_t size) {
  line_of(pc, buf, size);
}

void cuemu__check_line_here(const void *pc, char *buf, size_t size) {
  int inner;
  if (line_kind(pc, buf, size, &inner) != LINE_SHIMS)
    return;
  /* The return addresses from here: those of the checkers' own frames,
   * then `pc`, then its callers. g++ inlines the shims' functions into
   * the kernel, so that `pc`'s own frames reach the user's line; clang++
   * leaves a large one (__cuemu_tmap_walk) a call. Only when a report is
   * made. */
  void *frames[64];
  int n = backtrace(frames, (int)(sizeof frames / sizeof *frames));
  char line[4096], file_only[4096] = "";
  for (int i = 0; i < n; ++i)
    if (frames[i] == pc) {
      for (int j = i + 1; j < n; ++j) {
        int kind = line_kind(frames[j], line, sizeof line, &inner);
        if (kind == LINE_USER) {
          snprintf(buf, size, "%s", line);
          return;
        }
        if (kind == LINE_FILE_ONLY && !file_only[0])
          snprintf(file_only, sizeof file_only, "%s", line);
      }
      /* No caller has a line: the first that names a file of the user's. */
      if (file_only[0])
        snprintf(buf, size, "%s", file_only);
      return;
    }
}

void cuemu__check_alloc_line(const void *site, const void *const *callers,
                             char *buf, size_t size) {
  int inner;
  const char *text = cuemu__check_site_text_of(site);
  if (text) {
    snprintf(buf, size, "%s", text);
    return;
  }
  if (line_kind(site, buf, size, &inner) == LINE_USER || !callers)
    return;
  /* Made in a system header's code (Thrust's allocator), or in code
   * without line information (a C file built without -g): the first caller
   * with a line of the user's code. A caller that addr2line places in a
   * file but on no line ("host.c:?") is not the place of the call: the
   * site keeps its own name (its file, else its function and offset).
   * Each is one addr2line, only when a report is made. */
  char line[4096];
  for (int i = 0; i < CUEMU_CHECK_ALLOC_CALLERS && callers[i]; ++i)
    if (line_kind(callers[i], line, sizeof line, &inner) == LINE_USER) {
      snprintf(buf, size, "%s", line);
      return;
    }
}

/* ---- Access sites --------------------------------------------------------- */

#define SITE_SLOTS 65536u

static _Atomic(uintptr_t) site_pcs[SITE_SLOTS];

uint16_t cuemu__check_site(const void *pc) {
  uintptr_t key = (uintptr_t)pc;
  if (!key)
    return 0;
  uintptr_t h = (key * 0x9e3779b97f4a7c15ull) >> 48;
  for (unsigned probe = 0; probe < SITE_SLOTS; ++probe) {
    unsigned slot = (unsigned)((h + probe) & (SITE_SLOTS - 1));
    if (slot == 0)
      continue;
    uintptr_t cur = atomic_load_explicit(&site_pcs[slot], memory_order_acquire);
    if (cur == key)
      return (uint16_t)slot;
    if (cur == 0) {
      uintptr_t expected = 0;
      if (atomic_compare_exchange_strong(&site_pcs[slot], &expected, key) ||
          expected == key)
        return (uint16_t)slot;
    }
  }
  return 0;
}

const void *cuemu__check_site_pc(uint16_t site) {
  return (const void *)atomic_load(&site_pcs[site]);
}

/* Per site: 0 not known yet, else 1 + where its innermost frame is
 * (INNER_). */
static _Atomic unsigned char site_kinds[SITE_SLOTS];

static int site_inner(uint16_t site) {
  if (!site)
    return INNER_OTHER;
  unsigned char k = atomic_load_explicit(&site_kinds[site],
                                         memory_order_relaxed);
  if (!k) {
    char line[1024];
    k = (unsigned char)(1 + line_of(cuemu__check_site_pc(site), line,
                                    sizeof line));
    atomic_store_explicit(&site_kinds[site], k, memory_order_relaxed);
  }
  return k - 1;
}

int cuemu__check_site_in_shims(uint16_t site) {
  return site_inner(site) == INNER_SHIMS;
}

int cuemu__check_site_in_cccl(uint16_t site) {
  return site_inner(site) == INNER_CCCL;
}
