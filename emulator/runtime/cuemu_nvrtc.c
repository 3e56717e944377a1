/*
 * cuemu_nvrtc.c: NVRTC's programs (see cuemu_nvrtc.h): a program holds its
 * source, its headers and its name expressions until it is compiled, then
 * its log, its module image and the lowered names. A compile writes the
 * source and the headers into a private folder and calls cuemu_compile()
 * with the compiler's messages captured as the log.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_cache.h>
#include <cuemu/cuemu_nvrtc.h>

#include "device/cuemu_module_symbols.h"
#include "runtime/cuemu_module_text.h"
#include "runtime/cuemu_nvrtc_internal.h"

typedef struct name_expr {
  char *expression; /* as added */
  char *kernel;     /* the kernel it names, for cuemu-cc --name-expr */
  char *lowered;    /* after a compile */
} name_expr;

struct cuemu_nvrtc_program {
  char *source, *name;
  int header_count;
  char **headers, **include_names;
  name_expr *names;
  int name_count;
  int compiled; /* a compile succeeded */
  int tried;    /* a compile was attempted */
  cuemu_nvrtc_text log;
  char *image;
  size_t image_size;
  char *ptx;       /* the image's text form (nvrtcGetPTX), NUL-terminated */
  size_t ptx_size; /* without the NUL */
  int lto;         /* compiled with -dlto: the image is its LTO IR too */
  int cubin;       /* compiled for a real architecture (-arch=sm_XX): the
                      image is a cubin too; else nvrtcGetCUBINSize is 0 */
  /* nvrtcSetFlowCallback's callback (NULL: none) and its payload. */
  int (*flow)(void *payload, void *reserved);
  void *flow_payload;
};

/* nvrtcSetPCHHeapSize's size: kept and given back; cuemu makes no
 * precompiled headers, so no heap is used. */
static size_t pch_heap_size;


static const char *const results[] = {
    "NVRTC_SUCCESS",
    "NVRTC_ERROR_OUT_OF_MEMORY",
    "NVRTC_ERROR_PROGRAM_CREATION_FAILURE",
    "NVRTC_ERROR_INVALID_INPUT",
    "NVRTC_ERROR_INVALID_PROGRAM",
    "NVRTC_ERROR_INVALID_OPTION",
    "NVRTC_ERROR_COMPILATION",
    "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
    "NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION",
    "NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
    "NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID",
    "NVRTC_ERROR_INTERNAL_ERROR",
    "NVRTC_ERROR_TIME_FILE_WRITE_FAILED",
    "NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED",
    "NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED",
    "NVRTC_ERROR_PCH_CREATE",
    "NVRTC_ERROR_CANCELLED",
    "NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED"};

const char *cuemu_nvrtc_error_string(int result) {
  if (result < 0 || result >= (int)(sizeof results / sizeof results[0]))
    return "NVRTC_ERROR unknown";
  return results[result];
}

int cuemu_nvrtc_version(int *major, int *minor) {
  if (!major || !minor)
    return NVRTC_INVALID_INPUT;
  *major = 13;
  *minor = 0;
  return NVRTC_OK;
}

/* The architectures -arch accepts (cuemu_nvrtc_options.c), as NVRTC 13
 * lists them. */
static const int archs[] = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120,
                            121};

int cuemu_nvrtc_supported_arch_count(int *count) {
  if (!count)
    return NVRTC_INVALID_INPUT;
  *count = (int)(sizeof archs / sizeof archs[0]);
  return NVRTC_OK;
}

int cuemu_nvrtc_supported_archs(int *out) {
  if (!out)
    return NVRTC_INVALID_INPUT;
  memcpy(out, archs, sizeof archs);
  return NVRTC_OK;
}

static char *dup_or_null(const char *s, int *oom) {
  if (!s)
    return NULL;
  char *d = strdup(s);
  if (!d)
    *oom = 1;
  return d;
}

int cuemu_nvrtc_destroy_program(cuemu_nvrtc_program **program) {
  if (!program || !*program)
    return NVRTC_INVALID_PROGRAM;
  cuemu_nvrtc_program *p = *program;
  free(p->source);
  free(p->name);
  for (int i = 0; i < p->header_count; ++i) {
    free(p->headers[i]);
    free(p->include_names[i]);
  }
  free(p->headers);
  free(p->include_names);
  for (int i = 0; i < p->name_count; ++i) {
    free(p->names[i].expression);
    free(p->names[i].kernel);
    free(p->names[i].lowered);
  }
  free(p->names);
  free(p->log.s);
  free(p->image);
  free(p->ptx);
  free(p);
  *program = NULL;
  return NVRTC_OK;
}

int cuemu_nvrtc_create_program(cuemu_nvrtc_program **program,
                               const char *source, const char *name,
                               int header_count, const char *const *headers,
                               const char *const *include_names) {
  if (!program || !source || header_count < 0 ||
      (header_count > 0 && (!headers || !include_names)))
    return NVRTC_INVALID_INPUT;
  for (int i = 0; i < header_count; ++i)
    if (!headers[i] || !include_names[i])
      return NVRTC_INVALID_INPUT;
  cuemu_nvrtc_program *p = calloc(1, sizeof *p);
  if (!p)
    return NVRTC_OUT_OF_MEMORY;
  int oom = 0;
  p->source = dup_or_null(source, &oom);
  p->name = dup_or_null(name && *name ? name : "default_program", &oom);
  p->headers = calloc((size_t)header_count + 1, sizeof *p->headers);
  p->include_names = calloc((size_t)header_count + 1, sizeof *p->include_names);
  if (!p->headers || !p->include_names)
    oom = 1;
  for (int i = 0; !oom && i < header_count; ++i) {
    p->headers[i] = dup_or_null(headers[i], &oom);
    p->include_names[i] = dup_or_null(include_names[i], &oom);
    p->header_count = i + 1;
  }
  if (oom) {
    cuemu_nvrtc_destroy_program(&p);
    return NVRTC_OUT_OF_MEMORY;
  }
  *program = p;
  return NVRTC_OK;
}

/* The kernel an expression names: "&scale<float, 2>", "(&f)" and "f" all
 * name f. */
static char *kernel_of(const char *expression) {
  const char *b = expression;
  const char *e = expression + strlen(expression);
  for (;;) {
    while (b < e && (*b == ' ' || *b == '\t' || *b == '\n'))
      b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
      e--;
    if (b < e && *b == '&') {
      b++;
      continue;
    }
    if (b < e && *b == '(' && e[-1] == ')') {
      b++;
      e--;
      continue;
    }
    break;
  }
  return strndup(b, (size_t)(e - b));
}

int cuemu_nvrtc_add_name_expression(cuemu_nvrtc_program *p,
                                    const char *expression) {
  if (!p)
    return NVRTC_INVALID_PROGRAM;
  if (!expression || !*expression)
    return NVRTC_INVALID_INPUT;
  if (p->tried)
    return NVRTC_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
  name_expr *grown =
      realloc(p->names, (size_t)(p->name_count + 1) * sizeof *grown);
  if (!grown)
    return NVRTC_OUT_OF_MEMORY;
  p->names = grown;
  name_expr *n = &p->names[p->name_count];
  n->expression = strdup(expression);
  n->kernel = kernel_of(expression);
  n->lowered = NULL;
  if (!n->expression || !n->kernel) {
    free(n->expression);
    free(n->kernel);
    return NVRTC_OUT_OF_MEMORY;
  }
  p->name_count++;
  return NVRTC_OK;
}

/* Non-zero when the file at `path` holds exactly the `size` bytes `want`. */
static int file_holds(const char *path, const char *want, size_t size) {
  FILE *f = fopen(path, "rbe");
  if (!f)
    return 0;
  char buf[4096];
  size_t at = 0, n;
  int same = 1;
  while (same && (n = fread(buf, 1, sizeof buf, f)) > 0) {
    same = at + n <= size && memcmp(buf, want + at, n) == 0;
    at += n;
  }
  fclose(f);
  return same && at == size;
}

/* Writes `text` to dir/name, making the folders of `name`, after a line
 * marker that names the file `shown` (the program's name, or a header's
 * include name): the compiler's messages, __FILE__ (printf, assert) and
 * the line table (faults, checkers' reports) then name it as NVRTC does,
 * rather than cuemu's private copy. A file that already holds that text
 * (the same program compiled before) is left as it is, so that the
 * compile cache finds it unchanged; *newest becomes the modification time
 * of a file written, when later. A name that climbs out of dir ("..") or
 * is absolute is refused. Returns 0 or -1. */
static int write_file(const char *dir, const char *name, const char *shown,
                      const char *text, struct timespec *newest) {
  if (name[0] == '/' || strstr(name, ".."))
    return -1;
  char path[4096];
  if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
    return -1;
  for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); ++s) {
    *s = '\0';
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
      return -1;
    *s = '/';
  }
  /* The whole file in memory first: the line marker, then the text. */
  size_t n = strlen(text), cap = 2 * strlen(shown) + n + 16, len = 0;
  char *whole = malloc(cap);
  if (!whole)
    return -1;
  len += (size_t)sprintf(whole, "#line 1 \"");
  for (const char *c = shown; *c; ++c) {
    if (*c == '"' || *c == '\\')
      whole[len++] = '\\';
    if (*c != '\n')
      whole[len++] = *c;
  }
  whole[len++] = '"';
  whole[len++] = '\n';
  memcpy(whole + len, text, n);
  len += n;
  if (file_holds(path, whole, len)) {
    free(whole);
    return 0;
  }
  /* Written beside and renamed into place: another process compiling the
   * same program (program_folder()) never sees a part of the file. */
  char temp[4200];
  snprintf(temp, sizeof temp, "%s.%ld.tmp", path, (long)getpid());
  FILE *f = fopen(temp, "we");
  int ok = f && fwrite(whole, 1, len, f) == len;
  free(whole);
  if (!f)
    return -1;
  struct stat st;
  ok = fclose(f) == 0 && ok && stat(temp, &st) == 0 && rename(temp, path) == 0;
  if (!ok) {
    unlink(temp);
    return -1;
  }
  if (st.st_mtim.tv_sec > newest->tv_sec ||
      (st.st_mtim.tv_sec == newest->tv_sec &&
       st.st_mtim.tv_nsec > newest->tv_nsec))
    *newest = st.st_mtim;
  return 0;
}

/* Waits until the coarse clock, which gives files their times, is past
 * `newest`: the compile cache stores no module whose files changed at or
 * after the compile began (a file written in the same tick counts), so
 * the program's files written just now would keep the module out of the
 * cache, and its note would fill the program's log. A tick is a few
 * milliseconds. */
static void wait_past(const struct timespec *newest) {
  for (;;) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME_COARSE, &now);
    if (now.tv_sec > newest->tv_sec ||
        (now.tv_sec == newest->tv_sec && now.tv_nsec > newest->tv_nsec))
      return;
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
  }
}

static int read_file(const char *path, char **out, size_t *size) {
  FILE *f = fopen(path, "rbe");
  if (!f)
    return -1;
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || st.st_size <= 0) {
    fclose(f);
    return -1;
  }
  char *buf = malloc((size_t)st.st_size + 1);
  int ok = buf && fread(buf, 1, (size_t)st.st_size, f) == (size_t)st.st_size;
  fclose(f);
  if (!ok) {
    free(buf);
    return -1;
  }
  buf[st.st_size] = '\0';
  *out = buf;
  *size = (size_t)st.st_size;
  return 0;
}

/* Removes a folder and what the compile wrote in it. */
static int remove_entry(const char *path, const struct stat *st, int type,
                        struct FTW *ftw) {
  (void)st;
  (void)ftw;
  return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_tree(const char *dir) {
  nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Appends the file `path` to the log, with the folder's name dropped from
 * every path in it, so that messages name the program as NVRTC's do, in
 * NVRTC's form (cuemu__nvrtc_log_messages, with p's source and headers). */
static void add_messages(cuemu_nvrtc_program *p, const char *path,
                         const char *dir) {
  char *text = NULL;
  size_t size = 0;
  if (read_file(path, &text, &size) != 0)
    return;
  cuemu_nvrtc_text plain = {NULL, 0, 0};
  size_t dn = strlen(dir);
  for (char *s = text; *s;) {
    char *hit = strstr(s, dir);
    if (!hit) {
      cuemu__nvrtc_text_add(&plain, "%s", s);
      break;
    }
    cuemu__nvrtc_text_add(&plain, "%.*s", (int)(hit - s), s);
    s = hit + dn;
    if (strncmp(s, "/src/", 5) == 0)
      s += 5; /* the source: its name alone */
    else if (*s == '/')
      s++;
  }
  free(text);
  cuemu_nvrtc_sources sources = {p->name, p->source, p->header_count,
                                 p->include_names, p->headers};
  if (plain.s)
    cuemu__nvrtc_log_messages(&p->log, plain.s, &sources);
  free(plain.s);
}

/* The compiler's stderr is the log: fd 2 is redirected while a compile
 * runs, so compiles are one at a time. */
static pthread_mutex_t compile_lock = PTHREAD_MUTEX_INITIALIZER;

static cuemu_status compile_captured(const char *source, const char *output,
                                     const cuemu_compile_options *o,
                                     const char *messages) {
  pthread_mutex_lock(&compile_lock);
  fflush(stderr);
  int saved = dup(2);
  int fd = open(messages, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (saved >= 0 && fd >= 0)
    dup2(fd, 2);
  cuemu_status st = cuemu_compile(source, output, o, NULL);
  fflush(stderr);
  if (saved >= 0) {
    dup2(saved, 2);
    close(saved);
  }
  if (fd >= 0)
    close(fd);
  pthread_mutex_unlock(&compile_lock);
  return st;
}

/* Finds the lowered name of every name expression in the module. */
static int lower_names(cuemu_nvrtc_program *p, const char *module_path) {
  if (p->name_count == 0)
    return NVRTC_OK;
  cuemu_module *m = NULL;
  if (cuemu_module_load(&m, module_path) != CUEMU_SUCCESS) {
    cuemu__nvrtc_text_add(&p->log, "cuemu: %s\n", cuemu_last_message());
    return NVRTC_INTERNAL_ERROR;
  }
  int r = NVRTC_OK;
  for (int i = 0; i < p->name_count && r == NVRTC_OK; ++i) {
    cuemu_kernel *k = NULL;
    char symbol[1024];
    /* A name expression of a variable: its symbol is its lowered name. */
    if (cuemu__module_variable_symbol(m, p->names[i].kernel, symbol,
                                      sizeof symbol) == CUEMU_SUCCESS) {
      p->names[i].lowered = strdup(symbol);
      if (!p->names[i].lowered)
        r = NVRTC_OUT_OF_MEMORY;
      continue;
    }
    if (cuemu_module_get_kernel(m, p->names[i].kernel, &k) != CUEMU_SUCCESS) {
      cuemu__nvrtc_text_add(&p->log, "cuemu: %s\n", cuemu_last_message());
      r = NVRTC_INTERNAL_ERROR;
    } else if (cuemu__module_kernel_symbol(m, k, symbol, sizeof symbol) ==
               CUEMU_SUCCESS) {
      p->names[i].lowered = strdup(symbol);
    } else {
      /* No symbol of its own (an extern "C" kernel folded into its thunk):
       * its name is the lowered name. */
      p->names[i].lowered = strdup(cuemu_kernel_name(k));
    }
    if (r == NVRTC_OK && !p->names[i].lowered)
      r = NVRTC_OUT_OF_MEMORY;
  }
  cuemu_module_unload(m);
  return r;
}

/* A quoted include that neither the program's headers nor the folder of
 * cuemu's private copy has is searched for, as NVRTC searches it, in the
 * folder of the file the program's name names (the current folder for a
 * name without one): a program read from "kernels/k.cu" includes
 * "kernels/common.cuh" as "common.cuh". Returns 0, or -1 when out of
 * memory; a folder that does not exist adds nothing. */
static int quote_folder_of(const char *name, cuemu_nvrtc_options *o) {
  const char *slash = strrchr(name, '/');
  char folder[4096], real[4096];
  if (!slash)
    snprintf(folder, sizeof folder, ".");
  else if (slash == name)
    snprintf(folder, sizeof folder, "/");
  else
    snprintf(folder, sizeof folder, "%.*s", (int)(slash - name), name);
  if (!realpath(folder, real))
    return 0;
  return cuemu__nvrtc_options_add(o, "-iquote", real);
}

/* Makes the text form of the program's image (runtime/cuemu_module_text.h),
 * which nvrtcGetPTX gives: PTX is text, and programs copy it as a C
 * string. Returns 0 or -1. */
static int ptx_text(cuemu_nvrtc_program *p) {
  FILE *f = open_memstream(&p->ptx, &p->ptx_size);
  if (!f)
    return -1;
  int bad = cuemu__module_text_write(f, p->image, p->image_size) != 0;
  if (fclose(f) != 0 || bad) {
    free(p->ptx);
    p->ptx = NULL;
    p->ptx_size = 0;
    return -1;
  }
  return 0;
}

/* The folder under `root` that holds the program's source and headers for
 * the compiler, named by a hash of them: the compile cache's keys name the
 * files a compile reads, so that the same program compiled again, by this
 * process or another, is found there. Returns 0 or -1. */
static int program_folder(const cuemu_nvrtc_program *p, const char *root,
                          char *dir, size_t cap) {
  cuemu_hasher *h = NULL;
  if (cuemu_hasher_create(&h, "nvrtc program") != CUEMU_SUCCESS)
    return -1;
  cuemu_hasher_add_string(h, p->name);
  cuemu_hasher_add_string(h, p->source);
  for (int i = 0; i < p->header_count; ++i) {
    cuemu_hasher_add_string(h, p->include_names[i]);
    cuemu_hasher_add_string(h, p->headers[i]);
  }
  cuemu_cache_key key;
  cuemu_hasher_finish(h, &key);
  if (snprintf(dir, cap, "%s/%s", root, key.hex) >= (int)cap)
    return -1;
  return mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

/* The folder of this user's NVRTC programs: $TMPDIR/cuemu-nvrtc-UID,
 * made if missing and refused unless it is this user's own folder.
 * Returns 0 or -1. */
static int programs_root(char *root, size_t cap) {
  const char *tmp = getenv("TMPDIR");
  if (snprintf(root, cap, "%s/cuemu-nvrtc-%ld", tmp && *tmp ? tmp : "/tmp",
               (long)getuid()) >= (int)cap)
    return -1;
  if (mkdir(root, 0700) != 0 && errno != EEXIST)
    return -1;
  struct stat st;
  return lstat(root, &st) == 0 && S_ISDIR(st.st_mode) &&
                 st.st_uid == getuid()
             ? 0
             : -1;
}

/* Asks the program's flow callback whether to go on (at each step of a
 * compile): 1 cancels it, with NVRTC_ERROR_CANCELLED. */
static int flow_continues(cuemu_nvrtc_program *p, int r) {
  if (r != NVRTC_OK || !p->flow || p->flow(p->flow_payload, NULL) != 1)
    return r;
  cuemu__nvrtc_text_add(&p->log, "nvrtc: the compilation was cancelled by "
                                 "the program's flow callback\n");
  return NVRTC_CANCELLED;
}

int cuemu_nvrtc_set_flow_callback(cuemu_nvrtc_program *p,
                                  int (*callback)(void *, void *),
                                  void *payload) {
  if (!p)
    return NVRTC_INVALID_PROGRAM;
  p->flow = callback;
  p->flow_payload = payload;
  return NVRTC_OK;
}

int cuemu_nvrtc_get_pch_heap_size(size_t *size) {
  if (!size)
    return NVRTC_INVALID_INPUT;
  *size = __atomic_load_n(&pch_heap_size, __ATOMIC_RELAXED);
  return NVRTC_OK;
}

int cuemu_nvrtc_set_pch_heap_size(size_t size) {
  __atomic_store_n(&pch_heap_size, size, __ATOMIC_RELAXED);
  return NVRTC_OK;
}

int cuemu_nvrtc_get_pch_create_status(cuemu_nvrtc_program *p) {
  return p ? NVRTC_NO_PCH_CREATE_ATTEMPTED : NVRTC_INVALID_PROGRAM;
}

int cuemu_nvrtc_get_pch_heap_size_required(cuemu_nvrtc_program *p,
                                           size_t *size) {
  if (!p)
    return NVRTC_INVALID_PROGRAM;
  if (!size)
    return NVRTC_INVALID_INPUT;
  *size = 0;
  return NVRTC_OK;
}

int cuemu_nvrtc_compile_program(cuemu_nvrtc_program *p, int option_count,
                                const char *const *options) {
  if (!p)
    return NVRTC_INVALID_PROGRAM;
  if (option_count < 0 || (option_count > 0 && !options))
    return NVRTC_INVALID_INPUT;
  /* A compile starts afresh. */
  p->tried = 1;
  p->compiled = 0;
  p->log.len = 0;
  if (p->log.s)
    p->log.s[0] = '\0';
  free(p->image);
  p->image = NULL;
  p->image_size = 0;
  free(p->ptx);
  p->ptx = NULL;
  p->ptx_size = 0;
  /* The program's files in their folder (kept, for the next compile of
   * the same program); the module and the messages in a folder of this
   * compile's own (removed). */
  char root[4096], dir[4200], work[4200];
  if (programs_root(root, sizeof root) != 0 ||
      program_folder(p, root, dir, sizeof dir) != 0 ||
      snprintf(work, sizeof work, "%s/work.XXXXXX", root) >=
          (int)sizeof work ||
      !mkdtemp(work))
    return NVRTC_BUILTIN_OPERATION_FAILURE;
  char include_dir[4300], quote_dir[4300], source[4400], output[4300],
      messages[4300];
  snprintf(include_dir, sizeof include_dir, "%s/include", dir);
  snprintf(quote_dir, sizeof quote_dir, "%s/quote", dir);
  snprintf(output, sizeof output, "%s/module.so", work);
  snprintf(messages, sizeof messages, "%s/log.txt", work);
  /* The source keeps the program's own name (its last part), which the
   * compiler's messages then show. */
  const char *base = strrchr(p->name, '/') ? strrchr(p->name, '/') + 1
                                           : p->name;
  snprintf(source, sizeof source, "%s/src/%s", dir,
           *base && strcmp(base, "..") && strcmp(base, ".")
               ? base
               : "default_program");
  int r = NVRTC_OK;
  cuemu_nvrtc_options o;
  r = cuemu__nvrtc_options_read(option_count, options, include_dir, &o,
                                &p->log);
  r = flow_continues(p, r);
  /* Quoted includes search the program's headers (those of host names
   * first) before the folder of the program's file. */
  if (r == NVRTC_OK && (cuemu__nvrtc_options_add(&o, "-iquote", quote_dir) ||
                        cuemu__nvrtc_options_add(&o, "-iquote", include_dir) ||
                        quote_folder_of(p->name, &o) != 0))
    r = NVRTC_OUT_OF_MEMORY;
  struct timespec newest = {0, 0};
  if (r == NVRTC_OK && write_file(dir, source + strlen(dir) + 1, p->name,
                                  p->source, &newest))
    r = NVRTC_BUILTIN_OPERATION_FAILURE;
  if (r == NVRTC_OK && ((mkdir(include_dir, 0700) != 0 && errno != EEXIST) ||
                        (mkdir(quote_dir, 0700) != 0 && errno != EEXIST)))
    r = NVRTC_BUILTIN_OPERATION_FAILURE;
  for (int i = 0; r == NVRTC_OK && i < p->header_count; ++i) {
    /* NVRTC searches the program's headers before any include path. */
    int host = cuemu__nvrtc_host_header(p->include_names[i]);
    if (host)
      cuemu__nvrtc_text_add(&p->log,
                            "cuemu: note: the program's header '%s' is used "
                            "by #include \"%s\" only; #include <%s> gets "
                            "the host's, which cuemu's CUDA headers "
                            "include\n",
                            p->include_names[i], p->include_names[i],
                            p->include_names[i]);
    if (write_file(host ? quote_dir : include_dir, p->include_names[i],
                   p->include_names[i], p->headers[i], &newest)) {
      cuemu__nvrtc_text_add(&p->log,
                            "nvrtc: error: cannot use the header name '%s'\n",
                            p->include_names[i]);
      r = NVRTC_INVALID_INPUT;
    }
  }
  const char **kernels = NULL;
  if (r == NVRTC_OK && p->name_count) {
    kernels = calloc((size_t)p->name_count, sizeof *kernels);
    if (!kernels)
      r = NVRTC_OUT_OF_MEMORY;
    for (int i = 0; kernels && i < p->name_count; ++i)
      kernels[i] = p->names[i].kernel;
  }
  if (r == NVRTC_OK) {
    cuemu_compile_options co;
    memset(&co, 0, sizeof co);
    co.module = 1;
    co.debug = o.debug;
    co.rdc = o.rdc;
    co.arch = o.arch;
    co.arch_suffix = o.arch_suffix;
    co.cuemu_arch_images = o.images[0] ? o.images : NULL;
    /* -fmad=true, or --use_fast_math without -fmad=false, as cuemu-nvcc;
     * without either, each operation rounds, as cuemu-nvcc's default (not
     * NVRTC's -fmad=true: docs/nvcc-checks.md says why). */
    co.fmad = o.fmad == 2 || (o.fmad == 0 && o.fast_math);
    /* --use_fast_math's intrinsics, as cuemu-nvcc (docs/device-math.md). */
    co.cuemu_fast_math = o.fast_math;
    co.argv = (const char *const *)o.argv;
    co.argc = o.argc;
    co.name_expressions = kernels;
    co.name_expression_count = p->name_count;
    r = flow_continues(p, r);
    if (r == NVRTC_OK)
      wait_past(&newest);
    cuemu_status st = r == NVRTC_OK
                          ? compile_captured(source, output, &co, messages)
                          : CUEMU_SUCCESS;
    if (r == NVRTC_OK)
      add_messages(p, messages, dir);
    if (st != CUEMU_SUCCESS) {
      if (st != CUEMU_COMPILE)
        cuemu__nvrtc_text_add(&p->log, "cuemu: %s\n", cuemu_last_message());
      r = NVRTC_COMPILATION;
    }
    r = flow_continues(p, r);
  }
  if (r == NVRTC_OK)
    r = lower_names(p, output);
  if (r == NVRTC_OK && read_file(output, &p->image, &p->image_size) != 0)
    r = NVRTC_BUILTIN_OPERATION_FAILURE;
  if (r == NVRTC_OK && ptx_text(p) != 0)
    r = NVRTC_OUT_OF_MEMORY;
  p->compiled = r == NVRTC_OK;
  p->lto = p->compiled && o.lto;
  p->cubin = p->compiled && o.real_arch;
  free(kernels);
  cuemu__nvrtc_options_free(&o);
  remove_tree(work);
  return r;
}

int cuemu_nvrtc_get_program_log_size(cuemu_nvrtc_program *p, size_t *size) {
  if (!p)
    return NVRTC_INVALID_PROGRAM;
  if (!size)
    return NVRTC_INVALID_INPUT;
  *size = p->log.len + 1;
  return NVRTC_OK;
}

int cuemu_nvrtc_get_program_log(cuemu_nvrtc_program *p, char *log) {
  if (!p)
    return NVRTC_INVALID_PROGRAM;
  if (!log)
    return NVRTC_INVALID_INPUT;
  memcpy(log, p->log.s ? p->log.s : "", p->log.len + 1);
  return NVRTC_OK;
}

int cuemu_nvrtc_get_image_size(cuemu_nvrtc_program *p, int ptx,
                               size_t *size) {
  if (!p || !p->compiled)
    return NVRTC_INVALID_PROGRAM;
  if (!size)
    return NVRTC_INVALID_INPUT;
  if (ptx == 3)
    *size = 0; /* no program is compiled to OptiX IR (-optix-ir) here */
  else if (ptx == 2)
    *size = p->lto ? p->image_size : 0; /* 0 without -dlto, as NVRTC */
  else if (ptx)
    *size = p->ptx_size + 1;
  else /* no cubin for a virtual architecture, as NVRTC */
    *size = p->cubin ? p->image_size : 0;
  return NVRTC_OK;
}

int cuemu_nvrtc_get_image(cuemu_nvrtc_program *p, int ptx, char *out) {
  if (!p || !p->compiled)
    return NVRTC_INVALID_PROGRAM;
  if (!out)
    return NVRTC_INVALID_INPUT;
  if ((ptx == 2 && !p->lto) || ptx == 3)
    return NVRTC_INVALID_PROGRAM; /* no LTO IR without -dlto, no OptiX IR */
  /* The text form is NUL-terminated, as PTX is. */
  if (ptx == 1)
    memcpy(out, p->ptx, p->ptx_size + 1);
  else if (ptx == 2 || p->cubin) /* NVRTC writes no cubin for compute_XX */
    memcpy(out, p->image, p->image_size);
  return NVRTC_OK;
}

int cuemu_nvrtc_get_lowered_name(cuemu_nvrtc_program *p,
                                 const char *expression,
                                 const char **lowered) {
  if (!p)
    return NVRTC_INVALID_PROGRAM;
  if (!expression || !lowered)
    return NVRTC_INVALID_INPUT;
  if (!p->compiled)
    return NVRTC_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  for (int i = 0; i < p->name_count; ++i)
    if (strcmp(p->names[i].expression, expression) == 0) {
      *lowered = p->names[i].lowered;
      return NVRTC_OK;
    }
  return NVRTC_NAME_EXPRESSION_NOT_VALID;
}
