/*
 * cuemu_drv_link.c: the driver API's linker (see cuemu_driver_link.h): each
 * input is stored in the compile cache while the link lasts, and the linked
 * image is a small module, compiled by the C compiler, that depends on the
 * stored inputs, carries them (cuemu_drv_link_image.c) and describes their
 * kernels together.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_cache.h>
#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_driver_link.h>

#include "base/cuemu_config.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_module_text.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

struct cuemu_drv_link {
  char **inputs; /* paths of the stored inputs, this link's own copies */
  char **names;  /* the inputs' names as added (cuLinkAddData's name, the
                    file of cuLinkAddFile), for messages */
  int count;
  void *image; /* the linked image, once complete */
  size_t size;
  int jit; /* made by nvJitLinkCreate: messages name nvJitLink's calls */
};

/* The name of the call `step` ("AddData", "Complete", ...) of the API
 * that made `state`. */
static const char *call_name(const cuemu_drv_link *state, const char *step,
                             char *buf, size_t size) {
  snprintf(buf, size, "%s%s", state && state->jit ? "nvJitLink" : "cuLink",
           step);
  return buf;
}

/* Reports a failure of the link's call `call`: on stderr and in `log`. */
static int link_fail(const char *call, int code, char *log, size_t log_size,
                     const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int link_fail(const char *call, int code, char *log, size_t log_size,
                     const char *fmt, ...) {
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (log && log_size)
    snprintf(log, log_size, "%s", text);
  if (!cuemu__config_quiet())
    fprintf(stderr, "cuemu: %s: %s\n", call, text);
  return code;
}

static int write_all(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wbe");
  if (!f)
    return -1;
  size_t done = fwrite(data, 1, size, f);
  return fclose(f) == 0 && done == size ? 0 : -1;
}

static void *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rbe");
  if (!f)
    return NULL;
  struct stat st;
  void *data = NULL;
  if (fstat(fileno(f), &st) == 0 && st.st_size > 0 &&
      (data = malloc((size_t)st.st_size)) &&
      fread(data, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
    free(data);
    data = NULL;
  }
  fclose(f);
  if (data)
    *size = (size_t)st.st_size;
  return data;
}

static int next_serial(void) {
  static int serial;
  return __atomic_add_fetch(&serial, 1, __ATOMIC_RELAXED);
}

/* The stored inputs of the process, removed when it exits (a linked image
 * is for the process that made it). */
static pthread_mutex_t stored_lock = PTHREAD_MUTEX_INITIALIZER;
static char **stored;
static size_t nstored;

static void remove_stored(void) {
  for (size_t i = 0; i < nstored; ++i)
    unlink(stored[i]);
}

static int remember(const char *path) {
  pthread_mutex_lock(&stored_lock);
  if (!stored)
    atexit(remove_stored);
  char **v = realloc(stored, (nstored + 1) * sizeof *v);
  char *copy = strdup(path);
  if (v)
    stored = v;
  if (v && copy)
    stored[nstored++] = copy;
  else
    free(copy);
  pthread_mutex_unlock(&stored_lock);
  return v && copy ? 0 : -1;
}

int cuemu_jit_link_create(cuemu_drv_link **state) {
  if (!state)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *state = calloc(1, sizeof **state);
  if (!*state)
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  (*state)->jit = 1;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_link_create(cuemu_drv_link **state) {
  int e = cuemu_drv_check_context();
  if (!e)
    e = cuemu_jit_link_create(state);
  if (!e)
    (*state)->jit = 0;
  return e;
}

int cuemu_drv_link_add_data(cuemu_drv_link *state, const void *data,
                            size_t size, const char *name) {
  if (!state || !data)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  char call[32];
  call_name(state, "AddData", call, sizeof call);
  if (cuemu__module_text_is(data, size ? size : SIZE_MAX)) {
    /* The text form (cuemu-nvcc -ptx): the image it holds. */
    size_t len = size ? strnlen(data, size) : strlen(data);
    char *text = strndup(data, len);
    void *decoded = NULL;
    size_t n = 0;
    int bad = !text || cuemu__module_text_decode(text, &decoded, &n) != 0;
    free(text);
    if (bad)
      return cuemu__drv_not_a_module_in(call, data, 4,
                                        name ? name : "a link input");
    int e = cuemu_drv_link_add_data(state, decoded, n, name);
    free(decoded);
    return e;
  }
  if (cuemu__drv_ptx_is(data, size ? size : SIZE_MAX)) {
    /* NVIDIA PTX text: JIT-compiled, then linked as its image. */
    void *compiled = NULL;
    size_t n = 0;
    int e = cuemu__drv_ptx_image(call, data, size ? size : SIZE_MAX,
                                 name && *name ? name : "a link input",
                                 &compiled, &n);
    if (!e)
      e = cuemu_drv_link_add_data(state, compiled, n, name);
    free(compiled);
    return e;
  }
  size_t elf = cuemu__drv_elf_size(data);
  if (!elf)
    return cuemu__drv_not_a_module_in(call, data, size < 4 ? size : 4,
                                      name ? name : "a link input");
  if (!size || size > elf)
    size = elf;
  /* Stored for the link (removed by cuLinkDestroy, or when the process
   * exits), under a name long enough that each load of the image can
   * rename it (cuemu_drv_link_image.c). */
  char dir[4096], path[4300];
  if (cuemu_cache_dir(dir, sizeof dir) != CUEMU_SUCCESS)
    return link_fail(call, DRV_CUDA_ERROR_UNKNOWN, NULL, 0, "%s",
                     cuemu_last_message());
  int len = snprintf(path, sizeof path, "%s/link-%ld-%d-cuemu-link-input", dir,
                     (long)getpid(), next_serial());
  while (len < CUEMU__DRV_LINKED_PATH_MIN && len < (int)sizeof path - 8)
    path[len++] = '_';
  snprintf(path + len, sizeof path - (size_t)len, ".so");
  if (strpbrk(path, "\"\\\n"))
    return link_fail(call, DRV_CUDA_ERROR_UNKNOWN, NULL, 0,
                     "the cache folder %s has a quote, backslash or newline "
                     "in its name, which a linked image cannot name",
                     dir);
  if (write_all(path, data, size) != 0 || remember(path) != 0) {
    unlink(path);
    return link_fail(call, DRV_CUDA_ERROR_UNKNOWN, NULL, 0,
                     "cannot store a link input in %s: %s", dir,
                     strerror(errno));
  }
  char **v = realloc(state->inputs, (size_t)(state->count + 1) * sizeof *v);
  if (v)
    state->inputs = v;
  char **w = realloc(state->names, (size_t)(state->count + 1) * sizeof *w);
  if (w)
    state->names = w;
  char *copy = strdup(path);
  char *label = strdup(name && *name ? name : "(unnamed input)");
  if (!v || !w || !copy || !label) {
    unlink(path);
    free(copy);
    free(label);
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  }
  state->names[state->count] = label;
  state->inputs[state->count++] = copy;
  return DRV_CUDA_SUCCESS;
}

/* CUDA's device runtime library, libcudadevrt.a, which programs of dynamic
 * parallelism add to their links (as the NVRTC User Guide's example does,
 * from $CUDA_PATH/lib64): cuemu's device runtime is part of libcuemu, which
 * every module links, so the library adds nothing. Known by its name: the
 * toolkit's copy (cuemu-toolkit/lib64, a linker script naming libcuemu) and
 * CUDA's archive alike. */
static int is_device_runtime_library(const char *path) {
  const char *base = strrchr(path, '/');
  return strcmp(base ? base + 1 : path, "libcudadevrt.a") == 0;
}

int cuemu_drv_link_add_file(cuemu_drv_link *state, const char *path) {
  if (!state || !path)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  char call[32];
  size_t size = 0;
  void *data = read_all(path, &size);
  if (!data)
    return DRV_CUDA_ERROR_FILE_NOT_FOUND;
  if (is_device_runtime_library(path)) {
    free(data);
    return DRV_CUDA_SUCCESS;
  }
  int e = size >= 4 ? cuemu_drv_link_add_data(state, data, size, path)
                    : cuemu__drv_not_a_module_in(
                          call_name(state, "AddFile", call, sizeof call),
                          data, size, path);
  free(data);
  return e;
}

/* The system linker's "undefined reference" lines in `text` as CUDA's
 * linker words them, one line each, without repeats:
 * error   : Undefined reference to 'poly3' in 'app_kernel.ptx'
 * naming the input by the name it was added under; NULL when there are
 * none (the caller then shows the linker's own output). */
static char *undefined_references(const cuemu_drv_link *state,
                                  const char *text, size_t size) {
  static const char marker[] = "undefined reference to `";
  char *out = NULL;
  size_t used = 0;
  const char *end = text + size;
  for (const char *line = text; line < end;) {
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    if (!eol)
      eol = end;
    const char *m = memmem(line, (size_t)(eol - line), marker,
                           sizeof marker - 1);
    const char *sym = m ? m + sizeof marker - 1 : NULL;
    const char *close = sym ? memchr(sym, '\'', (size_t)(eol - sym)) : NULL;
    if (close) {
      const char *where = "(unknown input)";
      for (int i = 0; i < state->count; ++i)
        if (memmem(line, (size_t)(m - line), state->inputs[i],
                   strlen(state->inputs[i])))
          where = state->names[i];
      char entry[512];
      int n = snprintf(entry, sizeof entry,
                       "error   : Undefined reference to '%.*s' in '%s'\n",
                       (int)(close - sym), sym, where);
      if (n > 0 && (size_t)n < sizeof entry &&
          !(out && strstr(out, entry))) {
        char *grown = realloc(out, used + (size_t)n + 1);
        if (!grown)
          break;
        out = grown;
        memcpy(out + used, entry, (size_t)n + 1);
        used += (size_t)n;
      }
    }
    line = eol + 1;
  }
  return out;
}

/* Writes the linked image's source: its describe function names the
 * inputs; and, at `payload`, the assembly of the section that carries
 * them. */
static int write_stub(const char *path, const char *payload,
                      const cuemu_drv_link *state) {
  FILE *f = fopen(path, "we");
  if (!f)
    return -1;
  fprintf(f, "/* A module linked by cuLinkComplete (cuemu). */\n"
             "extern const void *cuemu_link_describe(const char *const *, "
             "int);\n"
             "static const char *const inputs[] = {\n");
  for (int i = 0; i < state->count; ++i)
    fprintf(f, "  \"%s\",\n", state->inputs[i]);
  fprintf(f,
          "};\n"
          "__attribute__((visibility(\"default\"))) const void *\n"
          "cuemu_module_describe(void) {\n"
          "  return cuemu_link_describe(inputs, %d);\n"
          "}\n",
          state->count);
  if (fclose(f) != 0)
    return -1;
  f = fopen(payload, "we");
  if (!f)
    return -1;
  int e = cuemu__drv_link_image_write_payload(f, state->inputs, state->count);
  return fclose(f) == 0 && e == 0 ? 0 : -1;
}

int cuemu_drv_link_complete(cuemu_drv_link *state, void **image,
                            size_t *size, char *error_log, size_t log_size) {
  char call[32];
  call_name(state, "Complete", call, sizeof call);
  if (!state || !image || !size)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (state->count == 0)
    return link_fail(call, DRV_CUDA_ERROR_INVALID_VALUE, error_log, log_size,
                     "no inputs were added (cuLinkAddData, cuLinkAddFile)");
  char dir[4096], base[4200], source[4300], asm_source[4300], out[4300],
      log[4300];
  if (cuemu_cache_dir(dir, sizeof dir) != CUEMU_SUCCESS)
    return link_fail(call, DRV_CUDA_ERROR_UNKNOWN, error_log, log_size, "%s",
                     cuemu_last_message());
  snprintf(base, sizeof base, "%s/link-%ld-%d", dir, (long)getpid(),
           next_serial());
  snprintf(source, sizeof source, "%s.c", base);
  snprintf(asm_source, sizeof asm_source, "%s-inputs.s", base);
  snprintf(out, sizeof out, "%s.so", base);
  snprintf(log, sizeof log, "%s.log", base);
  if (write_stub(source, asm_source, state) != 0) {
    unlink(source);
    unlink(asm_source);
    return link_fail(call, DRV_CUDA_ERROR_UNKNOWN, error_log, log_size,
                     "cannot write %s", source);
  }
  /* Every input is a dependency of the image (not only those it uses),
   * and every reference of an input must be defined by another input or
   * by what a module is linked with (libcuemu, the C++ runtime). */
  Dl_info self;
  if (!dladdr((void *)cuemu_link_describe, &self) || !self.dli_fname)
    return link_fail(call, DRV_CUDA_ERROR_UNKNOWN, error_log, log_size,
                     "cannot find libcuemu");
  if (state->count > 48)
    return link_fail(call, DRV_CUDA_ERROR_INVALID_VALUE, error_log, log_size,
                     "more than 48 inputs");
  const char *cc = getenv("CC");
  const char *argv[64];
  int n = 0;
  argv[n++] = cc && *cc ? cc : "cc";
  argv[n++] = "-shared";
  argv[n++] = "-fPIC";
  argv[n++] = "-o";
  argv[n++] = out;
  argv[n++] = source;
  argv[n++] = asm_source;
  argv[n++] = "-Wl,--no-as-needed";
  for (int i = 0; i < state->count; ++i)
    argv[n++] = state->inputs[i];
  argv[n++] = "-Wl,--no-allow-shlib-undefined";
  argv[n++] = self.dli_fname;
  argv[n++] = "-lstdc++";
  argv[n++] = "-lgcc_s";
  argv[n] = NULL;
  int status = -1;
  cuemu_status st = cuemu_command_run(argv, log, &status);
  unlink(source);
  unlink(asm_source);
  if (st != CUEMU_SUCCESS || status != 0) {
    size_t lsize = 0;
    char *text = read_all(log, &lsize);
    unlink(log);
    unlink(out);
    int unresolved = text && memmem(text, lsize, "undefined reference", 19);
    char *refs = unresolved ? undefined_references(state, text, lsize) : NULL;
    int e = link_fail(call,
        unresolved ? DRV_CUDA_ERROR_INVALID_IMAGE : DRV_CUDA_ERROR_UNKNOWN,
        error_log, log_size, "%s%.*s",
        unresolved ? "unresolved references (is every input built with "
                     "-rdc=true, and is each definition in one of them?):\n"
                   : "the C compiler could not link the image: ",
        refs ? (int)strlen(refs) : (int)(text ? lsize : 0),
        refs ? refs : text ? text : "");
    free(refs);
    free(text);
    return e;
  }
  unlink(log);
  size_t bytes = 0;
  void *data = read_all(out, &bytes);
  unlink(out);
  if (!data)
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  free(state->image);
  state->image = data;
  state->size = bytes;
  *image = data;
  *size = bytes;
  if (error_log && log_size)
    error_log[0] = '\0';
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_link_destroy(cuemu_drv_link *state) {
  if (!state)
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  /* The image carries its inputs: the stored copies are done with. */
  for (int i = 0; i < state->count; ++i) {
    unlink(state->inputs[i]);
    free(state->inputs[i]);
    free(state->names[i]);
  }
  free(state->inputs);
  free(state->names);
  free(state->image);
  free(state);
  return DRV_CUDA_SUCCESS;
}

/* ---- The linked image's kernel table --------------------------------------- */

/* One table per load of an image (each load has inputs of its own), kept
 * until the module is unloaded (cuemu__drv_link_forget): the loader holds
 * on to the pointer. */
typedef struct linked_table {
  cuemu_module_desc desc;
  cuemu_kernel_desc *kernels;
} linked_table;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static linked_table **tables;
static size_t ntables;

const void *cuemu_link_describe(const char *const *paths, int n) {
  linked_table *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->desc.abi = CUEMU_MODULE_ABI;
  for (int i = 0; i < n; ++i) {
    void *h = dlopen(paths[i], RTLD_NOW | RTLD_NOLOAD);
    cuemu_module_describe_fn fn =
        h ? (cuemu_module_describe_fn)dlsym(h, "cuemu_module_describe") : NULL;
    const cuemu_module_desc *d = fn ? fn() : NULL;
    if (d && d->abi == CUEMU_MODULE_ABI && d->kernel_count > 0) {
      cuemu_kernel_desc *k =
          realloc(t->kernels, (size_t)(t->desc.kernel_count + d->kernel_count) *
                                  sizeof *k);
      if (k) {
        memcpy(k + t->desc.kernel_count, d->kernels,
               (size_t)d->kernel_count * sizeof *k);
        t->kernels = k;
        t->desc.kernel_count += d->kernel_count;
      }
    }
    if (h)
      dlclose(h);
  }
  t->desc.kernels = t->kernels;
  pthread_mutex_lock(&lock);
  linked_table **v = realloc(tables, (ntables + 1) * sizeof *v);
  if (v) {
    tables = v;
    tables[ntables++] = t;
  }
  pthread_mutex_unlock(&lock);
  if (!v) {
    free(t->kernels);
    free(t);
    return NULL;
  }
  return &t->desc;
}

void cuemu__drv_link_forget(const void *kernels) {
  pthread_mutex_lock(&lock);
  for (size_t i = 0; kernels && i < ntables; ++i)
    if (tables[i]->kernels == kernels) {
      free(tables[i]->kernels);
      free(tables[i]);
      tables[i] = tables[--ntables];
      break;
    }
  pthread_mutex_unlock(&lock);
}
