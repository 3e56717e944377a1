/*
 * cuemu_driver_library.c: the libraries whose functions the shims' headers
 * refer to by their symbols (CUEMU_LIBRARY_SYMBOL: cuda.h's driver API,
 * libcuda.so.1; nvrtc.h's NVRTC, libnvrtc.so.13) in links
 * (cuemu_driver.h): the link option of each (cuemu-nvcc's -lcuda and
 * -lnvrtc, and the links of cuemu-run and cuemu_compile(), which link them
 * themselves), and the note after a link that failed without one while
 * its objects call its functions, as a link by nvcc fails without -lcuda
 * or -lnvrtc (docs/driver-api.md, "Linking the driver" and "Linking
 * NVRTC").
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cuemu/cuemu.h>

#include "cuemu_driver.h"

/* A library of cuemu_api_library: its -l name, the prefix of its
 * functions' symbols (followed by a capital: cuInit, nvrtcCreateProgram;
 * not cublasCreate), the API and the library in the note's words, and the
 * section of docs/driver-api.md on its link. */
static const struct {
  const char *name, *prefix, *api, *library, *section;
} api_libraries[] = {
    [CUEMU_LIBRARY_DRIVER] = {"cuda", "cu", "the driver API", "driver",
                              "Linking the driver"},
    [CUEMU_LIBRARY_NVRTC] = {"nvrtc", "nvrtc", "NVRTC", "NVRTC",
                             "Linking NVRTC"},
};
enum { API_LIBRARIES = sizeof api_libraries / sizeof *api_libraries };

int cuemu__api_library_option(const char *libdir, cuemu_api_library library,
                              char *buffer, size_t size) {
  char path[PATH_MAX];
  struct stat st;
  if ((size_t)snprintf(path, sizeof path, "%s/cuemu-toolkit/lib64/lib%s.so",
                       libdir, api_libraries[library].name) >= sizeof path ||
      stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return 0;
  int len = snprintf(buffer, size, "-Wl,--push-state,--as-needed,%s,--pop-state",
                     path);
  return len > 0 && (size_t)len < size;
}

/* The first symbols of one library that the objects of a failed link
 * leave undefined (cuemu__api_link_note()). */
typedef struct library_references {
  const char *prefix;
  char names[192];
  int count;
} library_references;

/* Notes `name` when it is a strong reference to a symbol of the library's
 * form (its prefix, then a capital). */
static cuemu_status note_library_reference(void *ctx, const char *name,
                                           int kind) {
  library_references *refs = ctx;
  size_t prefix = strlen(refs->prefix);
  if (kind != CUEMU_LINK_UNDEFINED || strncmp(name, refs->prefix, prefix) != 0 ||
      !isupper((unsigned char)name[prefix]))
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

/* Whether the link word `word` names the library `name`: -lNAME or
 * -lNAME_static (alone, after -Xlinker, or in a -Wl list) or a libNAME.so
 * or libNAME_static.a by its path (the option of
 * cuemu__api_library_option() too). */
static int names_library(const char *word, const char *name) {
  char file[32], option[32];
  snprintf(file, sizeof file, "lib%s", name);
  snprintf(option, sizeof option, "-l%s", name);
  size_t n = strlen(option);
  for (const char *at = strstr(word, file); at; at = strstr(at + 1, file))
    if (strncmp(at + n + 1, ".so", 3) == 0 ||
        strncmp(at + n + 1, "_static.a", 9) == 0)
      return 1;
  for (const char *at = strstr(word, option); at; at = strstr(at + 1, option)) {
    const char *end = at + n;
    if (strncmp(end, "_static", 7) == 0)
      end += 7;
    if (*end == '\0' || *end == ',')
      return 1;
  }
  return 0;
}

void cuemu__api_link_note(const char *const *words, int n,
                          const char *source) {
  for (int l = 0; l < API_LIBRARIES; ++l) {
    library_references refs;
    memset(&refs, 0, sizeof refs);
    refs.prefix = api_libraries[l].prefix;
    int named = 0;
    for (int i = 0; i < n && !named; ++i)
      named = names_library(words[i], api_libraries[l].name);
    for (int i = 0; i < n && !named; ++i) {
      size_t len = strlen(words[i]);
      if (len > 2 && strcmp(words[i] + len - 2, ".o") == 0)
        (void)cuemu__elf_link_symbols(words[i], 0, 0, note_library_reference,
                                      &refs);
    }
    if (refs.count)
      cuemu__driver_say("note",
                        "%s calls %s (%s%s), whose functions are the %s "
                        "library's: link it with -l%s, as nvcc does not link "
                        "it by itself (docs/driver-api.md, \"%s\")",
                        source ? source : "the program",
                        api_libraries[l].api, refs.names,
                        refs.count > 3 ? ", ..." : "",
                        api_libraries[l].library, api_libraries[l].name, api_libraries[l].section);
  }
}
