/*
 * cuemu_driver_library.c: the driver library in links (cuemu_driver.h):
 * the link option of cuemu's libcuda.so.1 (cuemu-nvcc's -lcuda, and the
 * links of cuemu-run and cuemu_compile(), which link it themselves), and
 * the note after a link that failed without it while its objects call the
 * driver API, which cuda.h's functions refer to (CUEMU_DRV_SYMBOL), as a
 * link by nvcc fails without -lcuda (docs/driver-api.md, "Linking the
 * driver").
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cuemu/cuemu.h>

#include "cuemu_driver.h"

int cuemu__driver_library_option(const char *libdir, char *buffer,
                                 size_t size) {
  char path[PATH_MAX];
  struct stat st;
  if ((size_t)snprintf(path, sizeof path, "%s/cuemu-toolkit/lib64/libcuda.so",
                       libdir) >= sizeof path ||
      stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return 0;
  int len = snprintf(buffer, size, "-Wl,--push-state,--as-needed,%s,--pop-state",
                     path);
  return len > 0 && (size_t)len < size;
}

/* The first driver symbols that the objects of a failed link leave
 * undefined (cuemu__driver_link_note()). */
typedef struct driver_references {
  char names[192];
  int count;
} driver_references;

/* Notes `name` when it is a strong reference to a symbol of the driver's
 * form (cu, then a capital: cuInit, cuMemAlloc_v2; not cublasCreate). */
static cuemu_status note_driver_reference(void *ctx, const char *name,
                                          int kind) {
  driver_references *refs = ctx;
  if (kind != CUEMU_LINK_UNDEFINED || strncmp(name, "cu", 2) != 0 ||
      !isupper((unsigned char)name[2]))
    return CUEMU_SUCCESS;
  size_t used = strlen(refs->names), len = strlen(name);
  if (refs->count < 3 && used + len + 3 < sizeof refs->names) {
    const char *seen = strstr(refs->names, name);
    if (seen && (seen[len] == '\0' || seen[len] == ','))
      return CUEMU_SUCCESS;
    snprintf(refs->names + used, sizeof refs->names - used, "%s%s",
             used ? ", " : "", name);
  }
  refs->count++;
  return CUEMU_SUCCESS;
}

/* Whether the link word `word` names the driver library: -lcuda (alone,
 * after -Xlinker, or in a -Wl list) or a libcuda.so by its path (the
 * option of cuemu__driver_library_option() too). */
static int names_driver_library(const char *word) {
  if (strstr(word, "libcuda.so"))
    return 1;
  for (const char *at = strstr(word, "-lcuda"); at; at = strstr(at + 1, "-lcuda"))
    if (at[6] == '\0' || at[6] == ',')
      return 1;
  return 0;
}

void cuemu__driver_link_note(const char *const *words, int n,
                             const char *source) {
  driver_references refs;
  memset(&refs, 0, sizeof refs);
  for (int i = 0; i < n; ++i)
    if (names_driver_library(words[i]))
      return;
  for (int i = 0; i < n; ++i) {
    size_t len = strlen(words[i]);
    if (len > 2 && strcmp(words[i] + len - 2, ".o") == 0)
      (void)cuemu__elf_link_symbols(words[i], 0, 0, note_driver_reference,
                                    &refs);
  }
  if (refs.count)
    cuemu__driver_say("note",
                      "%s calls the driver API (%s%s), whose functions are "
                      "the driver library's: link it with -lcuda, as nvcc "
                      "does not link it by itself (docs/driver-api.md, "
                      "\"Linking the driver\")",
                      source ? source : "the program", refs.names,
                      refs.count > 3 ? ", ..." : "");
}
