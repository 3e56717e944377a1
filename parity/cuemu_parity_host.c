/*
 * cuemu_parity_host.c: the host leg. The host implementation (a C file) is
 * compiled with $CC into a shared object, cached in cuemu's compile cache
 * like kernels (the key covers the file, the compiler, the options and
 * cuemu's version; a lookup re-hashes every header the compiler read), then
 * loaded and called once through libffi with the case's arguments.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuemu_cache.h"
#include "cuemu_parity_internal.h"

extern char **environ;

#define MAX_WORDS 64

/* Runs argv with its output and errors in `log`; returns its exit status,
 * or -1 when it could not start. */
static int run_logged(char *const *argv, const char *log) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    return -1;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Compiles the host file into `out` (through the cache). */
static cuemu_status compile_host(const cuemu_parity_case *c, const char *out) {
  char file[PATH_MAX], dir[PATH_MAX];
  if (!realpath(c->host_file, file))
    return cuemu__parity_fail(CUEMU_HOST_COMPILE, "%s%scase '%s': host file %s: %s",
                              c->file, c->file[0] ? ": " : "", c->name,
                              c->host_file, strerror(errno));
  snprintf(dir, sizeof dir, "%s", file);
  *strrchr(dir, '/') = 0;
  const char *cc = getenv("CC");
  if (!cc || !*cc)
    cc = "cc";
  char *cc_copy = strdup(cc);
  char *argv[MAX_WORDS + 16];
  int n = 0;
  for (char *w = strtok(cc_copy, " \t"); w && n < MAX_WORDS; w = strtok(NULL, " \t"))
    argv[n++] = w;
  char include[PATH_MAX + 3], dep[PATH_MAX + 8], log[PATH_MAX + 8];
  snprintf(include, sizeof include, "-I%s", dir);
  snprintf(dep, sizeof dep, "%s.d", out);
  snprintf(log, sizeof log, "%s.log", out);
  const char *flags[] = {"-std=gnu11", "-O2", "-fPIC", "-shared", "-MD", "-MF",
                         dep, include, "-o", out, file, "-lm"};
  int first_flag = n;
  for (size_t i = 0; i < sizeof flags / sizeof *flags; ++i)
    argv[n++] = (char *)flags[i];
  argv[n] = NULL;

  /* The key: cuemu's version, the compiler command, the options that are
   * not file names, and the file's contents. */
  size_t size;
  char *text = cuemu__parity_read_file(file, &size);
  cuemu_hasher h;
  char cache[PATH_MAX];
  int use_cache = text && cuemu__hasher_init(&h) == 0 &&
                  cuemu__cache_dir(cache, sizeof cache) == 0;
  cuemu_cache_key key;
  if (use_cache) {
    cuemu__hasher_add_string(&h, "cuemu-parity host " CUEMU_VERSION);
    cuemu__hasher_add_string(&h, cc);
    cuemu__hasher_add_string(&h, include);
    for (int i = first_flag; i < n; ++i)
      if (argv[i] != dep && argv[i] != out && argv[i] != file)
        cuemu__hasher_add_string(&h, argv[i]);
    cuemu__hasher_add(&h, text, size);
    cuemu__hasher_finish(&h, &key);
    if (cuemu__cache_fetch(cache, &key, out) == 1) {
      free(text);
      free(cc_copy);
      return CUEMU_SUCCESS;
    }
  }
  free(text);
  struct timespec since;
  clock_gettime(CLOCK_REALTIME, &since);
  int rc = run_logged(argv, log);
  cuemu_status st = CUEMU_SUCCESS;
  if (rc != 0) {
    int fd = rc < 0 ? -1 : open(log, O_RDONLY);
    char *why = fd < 0 ? strdup("the compiler could not be started")
                       : cuemu__parity_read_tail(fd, 3000);
    if (fd >= 0)
      close(fd);
    st = cuemu__parity_fail(CUEMU_HOST_COMPILE,
                            "%s%scase '%s': host file %s does not compile with "
                            "%s:\n%s",
                            c->file, c->file[0] ? ": " : "", c->name,
                            c->host_file, cc, why);
    free(why);
  } else if (use_cache) {
    cuemu__cache_store(cache, &key, out, dep, file, &since);
  }
  unlink(dep);
  unlink(log);
  free(cc_copy);
  return st;
}

cuemu_status cuemu__parity_host_run(const cuemu__psetup *s, void **args) {
  const cuemu_parity_case *c = s->c;
  char out[] = "/tmp/cuemu-host-XXXXXX.so";
  int fd = mkstemps(out, 3);
  if (fd < 0)
    return cuemu__parity_fail(CUEMU_IO_ERROR, "a temporary file: %s",
                              strerror(errno));
  close(fd);
  cuemu_status st = compile_host(c, out);
  void *lib = NULL;
  if (!st && !(lib = dlopen(out, RTLD_NOW | RTLD_LOCAL)))
    st = cuemu__parity_fail(CUEMU_HOST_COMPILE, "case '%s': %s", c->name,
                            dlerror());
  unlink(out);
  if (st)
    return st;
  char base[256];
  const char *fn = c->host_function;
  if (!fn) {
    snprintf(base, sizeof base, "%.*s", (int)strcspn(c->kernel, "<"), c->kernel);
    fn = base;
  }
  void (*f)(void) = (void (*)(void))dlsym(lib, fn);
  if (!f) {
    st = cuemu__parity_fail(CUEMU_CASE_INVALID,
                            "%s%scase '%s': field 'host.function': %s has no "
                            "function %s",
                            c->file, c->file[0] ? ": " : "", c->name,
                            c->host_file, fn);
    dlclose(lib);
    return st;
  }
  ffi_type **types = calloc((size_t)(c->nargs ? c->nargs : 1), sizeof *types);
  ffi_cif cif;
  if (!types)
    st = cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  for (int i = 0; !st && i < c->nargs; ++i)
    types[i] = c->args[i].is_array ? &ffi_type_pointer : s->types[i].ffi;
  if (!st && ffi_prep_cif(&cif, FFI_DEFAULT_ABI, (unsigned)c->nargs,
                          &ffi_type_void, types) != FFI_OK)
    st = cuemu__parity_fail(CUEMU_CASE_INVALID,
                            "case '%s': libffi cannot call %s with these "
                            "argument types",
                            c->name, fn);
  if (!st)
    ffi_call(&cif, f, NULL, args);
  free(types);
  dlclose(lib);
  return st;
}
