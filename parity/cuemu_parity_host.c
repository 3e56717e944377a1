/*
 * cuemu_parity_host.c: the host leg. The host implementation (a C file) is
 * compiled with $CC into a shared object, cached in cuemu's compile cache
 * like kernels (<cuemu/cuemu_cache.h>: the key covers the file, the
 * compiler's identity, the options and cuemu's version; a lookup re-hashes
 * every header the compiler read), then loaded and called once through
 * libffi with the case's arguments, which live in guarded buffers as the
 * emulated leg's do: a fault in a guard region or a changed canary byte is
 * reported with the array and the offset.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuemu/cuemu_cache.h>

#include "cuemu_parity_internal.h"

#define MAX_WORDS 64

/* The options of every host compile, after the compiler's own words. */
static const char *const host_flags[] = {"-std=gnu11", "-O2", "-fPIC",
                                         "-shared"};

/* A host compile, as compile_host() hands it to the cache. */
typedef struct host_job {
  const cuemu_parity_case *c;
  const char *cc;               /* $CC, as given */
  char *words[MAX_WORDS];       /* $CC split into words */
  int nwords;
  const char *file;             /* the host file's real path */
  const char *include;          /* -I and the host file's folder */
  const char *search[2];        /* that folder, for the cache */
} host_job;

/* Builds the host file into b->built (a cuemu_cache_build_fn); the
 * compiler's messages go to a log whose end becomes the error message. */
static cuemu_status build_host(void *data, cuemu_cache_build *b) {
  const host_job *job = data;
  const cuemu_parity_case *c = job->c;
  const char *argv[MAX_WORDS + 16];
  int n = 0;
  for (int i = 0; i < job->nwords; ++i)
    argv[n++] = job->words[i];
  for (size_t i = 0; i < sizeof host_flags / sizeof *host_flags; ++i)
    argv[n++] = host_flags[i];
  argv[n++] = "-MD";
  argv[n++] = "-MF";
  argv[n++] = b->depfile;
  argv[n++] = job->include;
  argv[n++] = "-o";
  argv[n++] = b->built;
  argv[n++] = job->file;
  argv[n++] = "-lm";
  argv[n] = NULL;
  b->skip = job->file;
  b->search = job->search;
  char log[PATH_MAX + 80];
  snprintf(log, sizeof log, "%s.log", b->temp);
  int rc;
  cuemu_status st = cuemu_command_run(argv, log, &rc);
  if (st != CUEMU_SUCCESS || rc != 0) {
    int fd = st != CUEMU_SUCCESS ? -1 : open(log, O_RDONLY | O_CLOEXEC);
    char *why = fd < 0 ? strdup("the compiler could not be started")
                       : cuemu__parity_read_tail(fd, 3000);
    if (fd >= 0)
      close(fd);
    st = cuemu__parity_fail(CUEMU_HOST_COMPILE,
                            "%s%scase '%s': host file %s does not compile with "
                            "%s:\n%s",
                            c->file, c->file[0] ? ": " : "", c->name,
                            c->host_file, job->cc, why ? why : "");
    free(why);
  }
  unlink(log);
  return st;
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
  host_job job = {.c = c, .file = file};
  job.cc = getenv("CC");
  if (!job.cc || !*job.cc)
    job.cc = "cc";
  char *cc_copy = strdup(job.cc);
  if (!cc_copy)
    return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  for (char *w = strtok(cc_copy, " \t"); w && job.nwords < MAX_WORDS;
       w = strtok(NULL, " \t"))
    job.words[job.nwords++] = w;
  char include[PATH_MAX + 3];
  snprintf(include, sizeof include, "-I%s", dir);
  job.include = include;
  job.search[0] = dir;

  /* The key: the compiler command and its identity, the options that are
   * not temporary file names, the file's name and its contents. A key that
   * cannot be made only costs the cache. */
  size_t size;
  char *text = cuemu__parity_read_file(file, &size);
  cuemu_hasher *h = NULL;
  int use_cache = text && cuemu_hasher_create(&h, "cuemu-parity host") ==
                              CUEMU_SUCCESS;
  cuemu_cache_key key;
  memset(&key, 0, sizeof key);
  if (use_cache) {
    char compiler[PATH_MAX];
    cuemu_hasher_add_string(h, job.cc);
    if (job.nwords > 0 &&
        cuemu_command_find(job.words[0], compiler, sizeof compiler) ==
            CUEMU_SUCCESS)
      cuemu_hasher_add_file_stamp(h, compiler);
    for (size_t i = 0; i < sizeof host_flags / sizeof *host_flags; ++i)
      cuemu_hasher_add_string(h, host_flags[i]);
    cuemu_hasher_add_string(h, include);
    cuemu_hasher_add_context(h, 0, NULL);
    cuemu_hasher_add_string(h, file);
    cuemu_hasher_add(h, text, size);
    cuemu_hasher_finish(h, &key);
  }
  free(text);
  int hit;
  cuemu_status st = cuemu_cache_get(&key, out, use_cache, build_host, &job,
                                    &hit);
  /* The cache's own failures come with libcuemu's message; a failed build
   * has already set the parity message. */
  if (st != CUEMU_SUCCESS && st != CUEMU_HOST_COMPILE)
    st = cuemu__parity_fail(st, "case '%s': host file %s: %s", c->name,
                            c->host_file, cuemu_last_message());
  free(cc_copy);
  return st;
}

/* Where the host implementation faulted; set by on_fault, which leaves
 * the call at once. Cases do not run on several threads at once. */
static sigjmp_buf fault_jump;
static void *volatile fault_address;

static void on_fault(int sig, siginfo_t *info, void *context) {
  (void)sig;
  (void)context;
  fault_address = info->si_addr;
  siglongjmp(fault_jump, 1);
}

/* Calls f through the cif with SIGSEGV and SIGBUS caught (on a stack of
 * their own, so that a stack overflow is caught too). Returns 0, or 1 with
 * *where the faulting address. */
static int call_guarded(ffi_cif *cif, void (*f)(void), void **args,
                        void **where) {
  static unsigned char alt[64 * 1024];
  stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt}, old_ss;
  struct sigaction sa, old_segv, old_bus;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sigaltstack(&ss, &old_ss);
  sigaction(SIGSEGV, &sa, &old_segv);
  sigaction(SIGBUS, &sa, &old_bus);
  volatile int faulted = 0;
  if (sigsetjmp(fault_jump, 1) == 0)
    ffi_call(cif, f, NULL, args);
  else
    faulted = 1;
  sigaction(SIGSEGV, &old_segv, NULL);
  sigaction(SIGBUS, &old_bus, NULL);
  sigaltstack(&old_ss, NULL);
  *where = fault_address;
  return faulted;
}

cuemu_status cuemu__parity_host_run(const cuemu__psetup *s, void **args,
                                    const cuemu__pbuffer *bufs) {
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
  void *where = NULL;
  char who[300];
  snprintf(who, sizeof who, "the host implementation %s", fn);
  cuemu__ptext t = {0};
  if (!st && call_guarded(&cif, f, args, &where)) {
    if (!cuemu__pbuffers_blame(s, bufs, where, who, &t))
      cuemu__ptext_add(&t, "%s faulted at address %p, outside every array of "
                           "the case\n", who, where);
  } else if (!st) {
    cuemu__pbuffers_blame(s, bufs, NULL, who, &t);
  }
  if (t.s)
    st = cuemu__parity_fail(CUEMU_HOST_FAULT, "%s%scase '%s': %s", c->file,
                            c->file[0] ? ": " : "", c->name, t.s);
  free(t.s);
  free(types);
  dlclose(lib);
  return st;
}
