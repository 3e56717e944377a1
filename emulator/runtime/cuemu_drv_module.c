/*
 * cuemu_drv_module.c: the driver API's modules, functions and launches
 * (see cuemu_driver_api.h). A module image is a cuemu module, the shared
 * object that cuemu-nvcc -ptx/-cubin/-fatbin writes; an image in memory
 * (cuModuleLoadData, nvrtcGetPTX's) is copied into an anonymous file
 * (memfd) that stays open while the module is loaded, so that its symbol
 * table can be read (cuModuleGetGlobal, mangled names).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_config.h"
#include "base/cuemu_report.h"
#include "device/cuemu_cluster_shape.h"
#include "device/cuemu_device_launch.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_fat_module.h"
#include "device/cuemu_functions.h"
#include "device/cuemu_handles.h"
#include "device/cuemu_module_symbols.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_module_text.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_managed_guard.h"
#include "runtime/cuemu_rt_stream_queue.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

/* cuda.h's CU_LAUNCH_PARAM_* markers and CUfunction_attribute values. */
#define LAUNCH_PARAM_END ((void *)0x00)
#define LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
enum {
  FUNC_MAX_THREADS_PER_BLOCK = 0,
  FUNC_SHARED_SIZE_BYTES = 1,
  FUNC_CONST_SIZE_BYTES = 2,
  FUNC_LOCAL_SIZE_BYTES = 3,
  FUNC_NUM_REGS = 4,
  FUNC_PTX_VERSION = 5,
  FUNC_BINARY_VERSION = 6,
  FUNC_CACHE_MODE_CA = 7,
  FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  FUNC_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
  FUNC_CLUSTER_SIZE_MUST_BE_SET = 10,
  FUNC_REQUIRED_CLUSTER_WIDTH = 11,
  FUNC_REQUIRED_CLUSTER_HEIGHT = 12,
  FUNC_REQUIRED_CLUSTER_DEPTH = 13,
  FUNC_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
  FUNC_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 15,
  FUNC_ATTRIBUTE_MAX = 16
};

typedef struct drv_module {
  cuemu_module *module;
  int fd; /* the memfd of an image loaded from memory, or -1 */
  int inputs[48]; /* a linked image: the memfds of its inputs */
  int ninputs;
  void **tracked; /* variables tracked by cuModuleGetGlobal, forgotten at */
  int ntracked;   /* cuModuleUnload */
  dev_t dev;      /* a module loaded by its path: the file's device and */
  ino_t ino;      /* inode (else 0), to tell a second load of the file */
} drv_module;

/* The size of an ELF image from its headers: the end of the section
 * header table or of the furthest segment or section. 0 when `image` is no
 * ELF object of this machine's class. */
size_t cuemu__drv_elf_size(const void *image) {
  const ElfW(Ehdr) *eh = image;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32))
    return 0;
  size_t end = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
  const unsigned char *base = image;
  const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
  for (int i = 0; i < eh->e_phnum; ++i)
    if (ph[i].p_offset + ph[i].p_filesz > end)
      end = ph[i].p_offset + ph[i].p_filesz;
  const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(base + eh->e_shoff);
  for (int i = 0; i < eh->e_shnum; ++i)
    if (sh[i].sh_type != SHT_NOBITS && sh[i].sh_offset + sh[i].sh_size > end)
      end = sh[i].sh_offset + sh[i].sh_size;
  return end;
}

/* Says why an image is not a cuemu module, once per kind. */
int cuemu__drv_not_a_module(const void *head, size_t n, const char *where) {
  return cuemu__drv_not_a_module_in("cuModuleLoad", head, n, where);
}

int cuemu__drv_not_a_module_in(const char *call, const void *head, size_t n,
                               const char *where) {
  const unsigned char *h = head;
  const char *what = "it is not a cuemu module";
  if (n >= 4 && h[0] == 0x50 && h[1] == 0xed && h[2] == 0x55 && h[3] == 0xba)
    what = "it is an NVIDIA fatbinary (nvcc's), which has no code for a CPU";
  else if (n >= 1 && (h[0] == '/' || h[0] == '.' || h[0] == '\n'))
    what = "it is text, but not PTX (its first directive is not .version)";
  cuemu__report(CUEMU_MODULE_LOAD,
                "%s: %s: %s; build the module with cuemu-nvcc "
                "(-ptx, -cubin or -fatbin) or NVRTC through cuemu",
                call, where, what);
  if (!cuemu__config_quiet())
    fprintf(stderr, "cuemu: %s\n", cuemu_last_message());
  return DRV_CUDA_ERROR_INVALID_IMAGE;
}

/* The live modules, for the calls that find a function's module. */
static pthread_mutex_t modules_lock = PTHREAD_MUTEX_INITIALIZER;
static drv_module **modules;
static size_t nmodules;

/* Adds `d` to the live modules (add), or removes it; -1 out of memory. */
static int note_module(drv_module *d, int add) {
  int e = 0;
  pthread_mutex_lock(&modules_lock);
  if (add) {
    drv_module **v = realloc(modules, (nmodules + 1) * sizeof *v);
    if (v) {
      modules = v;
      modules[nmodules++] = d;
    }
    e = v ? 0 : -1;
  } else {
    for (size_t i = 0; i < nmodules; ++i)
      if (modules[i] == d) {
        modules[i] = modules[--nmodules];
        break;
      }
  }
  pthread_mutex_unlock(&modules_lock);
  return e;
}

/* Whether `d` is a live module: a handle that was unloaded (or never
 * loaded) is CUDA_ERROR_INVALID_HANDLE, never read. */
static int module_is_live(const drv_module *d) {
  int live = 0;
  pthread_mutex_lock(&modules_lock);
  for (size_t i = 0; d && i < nmodules && !live; ++i)
    live = modules[i] == d;
  pthread_mutex_unlock(&modules_lock);
  return live;
}

/* The live module that has kernel `k`, or NULL. */
static drv_module *module_of_function(const void *k) {
  drv_module *found = NULL;
  pthread_mutex_lock(&modules_lock);
  for (size_t i = 0; k && i < nmodules && !found; ++i)
    for (int j = 0, n = cuemu_module_kernel_count(modules[i]->module);
         j < n && !found; ++j)
      if ((const void *)cuemu_module_kernel_at(modules[i]->module, j) == k)
        found = modules[i];
  pthread_mutex_unlock(&modules_lock);
  return found;
}

static int finish_load(void **module, cuemu_module *m, int fd,
                       const int *inputs, int ninputs) {
  drv_module *d = malloc(sizeof *d);
  if (!d) {
    cuemu_module_unload(m);
    if (fd >= 0)
      close(fd);
    for (int i = 0; i < ninputs; ++i)
      cuemu__drv_loaded_fd_close(inputs[i]);
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  }
  d->module = m;
  d->fd = fd;
  d->ninputs = ninputs;
  memcpy(d->inputs, inputs, (size_t)ninputs * sizeof *inputs);
  if (note_module(d, 1) != 0) {
    free(d);
    cuemu_module_unload(m);
    if (fd >= 0)
      close(fd);
    for (int i = 0; i < ninputs; ++i)
      cuemu__drv_loaded_fd_close(inputs[i]);
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  }
  d->tracked = NULL;
  d->ntracked = 0;
  d->dev = 0;
  d->ino = 0;
  *module = d;
  return DRV_CUDA_SUCCESS;
}

/* The driver error of a failed cuemu_module_load(), its message printed. */
static int load_failed(cuemu_status st) {
  if (!cuemu__config_quiet())
    fprintf(stderr, "cuemu: cuModuleLoad: %s\n", cuemu_last_message());
  return st == CUEMU_OUT_OF_MEMORY || st == CUEMU_KERNEL_IMAGE ||
                 st == CUEMU_PTX_TARGET
             ? cuemu_status_driver_error(st)
             : DRV_CUDA_ERROR_INVALID_IMAGE;
}

/* Reads the file at `path` whole; NULL when it cannot. */
static void *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rbe");
  if (!f)
    return NULL;
  void *data = NULL;
  long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n)) &&
      fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *size = data ? (size_t)n : 0;
  return data;
}

/* Non-zero when the module file at `path` is a linked image (written to a
 * file from cuLinkComplete's): it is loaded from memory, so that each load
 * has its own inputs. */
static int linked_file(const char *path) {
  size_t size = 0;
  void *data = read_file(path, &size);
  int linked = data && cuemu__drv_link_image_is_linked(data, size);
  free(data);
  return linked;
}

/* Non-zero when a live module was loaded from the file `st` describes. */
static int loaded_file(const struct stat *st) {
  int found = 0;
  pthread_mutex_lock(&modules_lock);
  for (size_t i = 0; i < nmodules && !found; ++i)
    found = modules[i]->ino && modules[i]->dev == st->st_dev &&
            modules[i]->ino == st->st_ino;
  pthread_mutex_unlock(&modules_lock);
  return found;
}

/* Loads the module file at `path` from a copy in memory (a linked image,
 * or a file already loaded). */
static int load_from_memory(void **module, const char *path) {
  size_t size = 0;
  void *data = read_file(path, &size);
  if (!data)
    return DRV_CUDA_ERROR_FILE_NOT_FOUND;
  int e = size >= cuemu__drv_elf_size(data)
              ? cuemu__drv_module_load_data(module, data)
              : cuemu__drv_not_a_module(data, 4, path);
  free(data);
  return e;
}

/* Loads a module file in the text form (cuemu-nvcc -ptx). */
static int load_text_file(void **module, const char *path) {
  size_t size = 0;
  char *data = read_file(path, &size);
  if (!data)
    return DRV_CUDA_ERROR_FILE_NOT_FOUND;
  char *text = realloc(data, size + 1);
  if (!text) {
    free(data);
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  }
  text[size] = '\0';
  int e = cuemu__drv_module_load_data(module, text);
  free(text);
  return e;
}

/* Loads a file of NVIDIA PTX text, JIT-compiled (cuemu_drv_ptx.c); any
 * other file that is no module (its first n bytes at `head`) is refused. */
static int load_ptx_file(void **module, const char *path,
                         const unsigned char *head, size_t n) {
  size_t size = 0;
  char *data = read_file(path, &size);
  if (!data || !cuemu__drv_ptx_is(data, size)) {
    free(data);
    return cuemu__drv_not_a_module(head, n, path);
  }
  void *image = NULL;
  int e = cuemu__drv_ptx_image("cuModuleLoad", data, size, path, &image, &n);
  free(data);
  if (!e)
    e = cuemu__drv_module_load_data(module, image);
  free(image);
  return e;
}

int cuemu_drv_module_load(void **module, const char *path) {
  int e = cuemu_drv_check_context();
  return e ? e : cuemu__drv_module_load(module, path);
}

int cuemu__drv_module_load(void **module, const char *path) {
  if (!module || !path)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  FILE *f = fopen(path, "rb");
  if (!f)
    return DRV_CUDA_ERROR_FILE_NOT_FOUND;
  unsigned char head[128];
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  if (cuemu__module_text_is(head, n))
    return load_text_file(module, path);
  if (cuemu__fat_module_is(head, n)) {
    /* A module of several passes: the one the device runs, from memory. */
    size_t size = 0;
    char *whole = read_file(path, &size);
    if (!whole)
      return DRV_CUDA_ERROR_FILE_NOT_FOUND;
    int e = size >= n ? cuemu__drv_module_load_data(module, whole)
                      : cuemu__drv_not_a_module(head, n, path);
    free(whole);
    return e;
  }
  if (n < SELFMAG || memcmp(head, ELFMAG, SELFMAG) != 0)
    return load_ptx_file(module, path, head, n);
  /* dlopen() searches the library path for a name without a slash. */
  char local[4096];
  if (!strchr(path, '/')) {
    snprintf(local, sizeof local, "./%s", path);
    path = local;
  }
  /* A file that a live module was loaded from is loaded again from
   * memory: the dynamic loader would give the same object, and so the same
   * __device__ and __constant__ variables, where CUDA gives every load its
   * own. */
  struct stat st_file;
  int have_stat = stat(path, &st_file) == 0;
  if (linked_file(path) || (have_stat && loaded_file(&st_file)))
    return load_from_memory(module, path);
  cuemu_module *m = NULL;
  cuemu_status st = cuemu_module_load(&m, path);
  if (st != CUEMU_SUCCESS)
    return load_failed(st);
  int e = finish_load(module, m, -1, NULL, 0);
  if (!e && have_stat) {
    drv_module *d = *module;
    pthread_mutex_lock(&modules_lock);
    d->dev = st_file.st_dev;
    d->ino = st_file.st_ino;
    pthread_mutex_unlock(&modules_lock);
  }
  return e;
}

int cuemu_drv_module_load_data(void **module, const void *image) {
  int e = cuemu_drv_check_context();
  return e ? e : cuemu__drv_module_load_data(module, image);
}

int cuemu__drv_module_load_data(void **module, const void *image) {
  if (!module || !image)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (cuemu__module_text_is(image, SIZE_MAX)) {
    /* The text form (cuemu-nvcc -ptx): the image it holds. */
    void *decoded = NULL;
    size_t n = 0;
    if (cuemu__module_text_decode(image, &decoded, &n) != 0)
      return cuemu__drv_not_a_module(image, 4, "the image");
    int e = n >= cuemu__drv_elf_size(decoded)
                ? cuemu__drv_module_load_data(module, decoded)
                : cuemu__drv_not_a_module(decoded, 4, "the image");
    free(decoded);
    return e;
  }
  if (cuemu__drv_ptx_is(image, SIZE_MAX)) {
    /* NVIDIA PTX text: JIT-compiled, as the driver compiles it. */
    void *compiled = NULL;
    size_t n = 0;
    int e = cuemu__drv_ptx_image("cuModuleLoadData", image, SIZE_MAX,
                                 "the image", &compiled, &n);
    if (!e)
      e = cuemu__drv_module_load_data(module, compiled);
    free(compiled);
    return e;
  }
  if (cuemu__fat_module_is(image, SIZE_MAX)) {
    /* A module of several device passes (cuemu-nvcc -fatbin with several
     * -gencode architectures): the pass whose image the driver's rule
     * picks for the device, as CUDA picks an image of a fat binary. */
    char images[1024];
    size_t picked_size = 0;
    const void *picked =
        cuemu__fat_module_pick(image, &picked_size, images, sizeof images);
    if (!picked) {
      const cuemu_device_model *model = cuemu__device_model();
      return load_failed(cuemu__report(
          CUEMU_KERNEL_IMAGE,
          "the image: no image for the emulated device (compute capability "
          "%d.%d) among the module's %s (-arch, -gencode, -code; "
          "CUEMU_DEVICE sets the device)",
          model->major, model->minor, images));
    }
    return cuemu__drv_module_load_data(module, picked);
  }
  size_t size = cuemu__drv_elf_size(image);
  if (!size)
    return cuemu__drv_not_a_module(image, 4, "the image");
  /* A linked image: its inputs in files of this load, named by a copy. */
  unsigned char *patched = NULL;
  int inputs[48], ninputs = 0;
  int e = cuemu__drv_link_image_open(image, size, &patched, inputs, &ninputs);
  if (e)
    return e;
  int fd = memfd_create("cuemu-module", MFD_CLOEXEC);
  const char *p = patched ? (const char *)patched : image;
  size_t done = 0;
  while (fd >= 0 && done < size) {
    ssize_t w = write(fd, p + done, size - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      close(fd);
      fd = -1;
      break;
    }
    done += (size_t)w;
  }
  free(patched);
  cuemu_module *m = NULL;
  cuemu_status st = CUEMU_OUT_OF_MEMORY;
  if (fd >= 0) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    st = cuemu_module_load(&m, path);
  }
  if (st != CUEMU_SUCCESS) {
    if (fd >= 0)
      close(fd);
    for (int i = 0; i < ninputs; ++i)
      close(inputs[i]);
    return fd < 0 ? DRV_CUDA_ERROR_OUT_OF_MEMORY : load_failed(st);
  }
  return finish_load(module, m, fd, inputs, ninputs);
}

int cuemu_drv_module_unload(void *module) {
  int e = cuemu_drv_check_context();
  return e ? e : cuemu__drv_module_unload(module);
}

int cuemu__drv_module_unload(void *module) {
  drv_module *d = module;
  if (!module_is_live(d))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  note_module(d, 0);
  int saved = cuemu_drv_enter();
  for (int i = 0; i < d->ntracked; ++i)
    cuemu_rt_memory_untrack(d->tracked[i]);
  cuemu__rt_error_restore(saved);
  free(d->tracked);
  cuemu__drv_graph_forget(d->module);
  const void *kernels =
      cuemu_module_kernel_count(d->module) > 0
          ? (const void *)cuemu__kernel_desc(cuemu_module_kernel_at(d->module, 0))
          : NULL;
  cuemu_module_unload(d->module);
  if (d->ninputs)
    cuemu__drv_link_forget(kernels);
  if (d->fd >= 0)
    cuemu__drv_loaded_fd_close(d->fd);
  for (int i = 0; i < d->ninputs; ++i)
    cuemu__drv_loaded_fd_close(d->inputs[i]);
  free(d);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_module_get_function(void **function, void *module,
                                  const char *name) {
  int e = cuemu_drv_check_context();
  return e ? e : cuemu__drv_module_get_function(function, module, name);
}

int cuemu__drv_module_get_function(void **function, void *module,
                                   const char *name) {
  drv_module *d = module;
  if (!function || !name)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!module_is_live(d))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  /* CUDA finds a kernel by its symbol alone: the plain name of an
   * extern "C" kernel, the mangled name of a C++ kernel or of a template's
   * instance (nvrtcGetLoweredName's). A C++ kernel's plain name or a name
   * expression's text is not found on a GPU, so it is not found here either,
   * although cuemu's own module API (cuemu_module_get_kernel) takes it. */
  cuemu_kernel *k = NULL;
  if (cuemu_module_get_kernel(d->module, name, &k) == CUEMU_SUCCESS &&
      strcmp(cuemu__kernel_symbol_name(k), name) != 0)
    k = NULL;
  if (!k &&
      cuemu__module_get_kernel_by_symbol(d->module, name, &k) != CUEMU_SUCCESS)
    return DRV_CUDA_ERROR_NOT_FOUND;
  *function = k;
  return DRV_CUDA_SUCCESS;
}

int cuemu__drv_module_get_function_count(unsigned *count, void *module) {
  drv_module *d = module;
  if (!count)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!module_is_live(d))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  *count = (unsigned)cuemu_module_kernel_count(d->module);
  return DRV_CUDA_SUCCESS;
}

int cuemu__drv_module_enumerate_functions(void **functions, unsigned n,
                                          void *module) {
  drv_module *d = module;
  if (!functions)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!module_is_live(d))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  unsigned count = (unsigned)cuemu_module_kernel_count(d->module);
  for (unsigned i = 0; i < n && i < count; ++i)
    functions[i] = cuemu_module_kernel_at(d->module, (int)i);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_module_get_function_count(unsigned *count, void *module) {
  int e = cuemu_drv_check_context();
  return e ? e : cuemu__drv_module_get_function_count(count, module);
}

int cuemu_drv_module_enumerate_functions(void **functions, unsigned n,
                                         void *module) {
  int e = cuemu_drv_check_context();
  return e ? e : cuemu__drv_module_enumerate_functions(functions, n, module);
}

int cuemu_drv_func_get_module(void **module, void *function) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (!module)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *module = module_of_function(function);
  if (!*module && cuemu__kernel_is_program(function)) {
    /* CUDA gives the module its runtime loaded the kernel in; the
     * program's kernels are in no module here. */
    cuemu__report(CUEMU_NOT_SUPPORTED,
                  "cuFuncGetModule of a program's kernel (%s, through "
                  "cudaGetKernel and cuKernelGetFunction): not supported, "
                  "the program's kernels are in no module",
                  cuemu_kernel_name(function));
    cuemu__report_print(cuemu_last_message());
    return DRV_CUDA_ERROR_NOT_SUPPORTED;
  }
  return *module ? DRV_CUDA_SUCCESS : DRV_CUDA_ERROR_INVALID_HANDLE;
}

int cuemu_drv_func_is_loaded(int *state, void *function) {
  int e = cuemu__drv_initialised() ? DRV_CUDA_SUCCESS
                                   : DRV_CUDA_ERROR_NOT_INITIALIZED;
  if (e)
    return e;
  if (!state)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!module_of_function(function) && !cuemu__kernel_is_program(function))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  *state = 1; /* CU_FUNCTION_LOADING_STATE_LOADED: modules load eagerly */
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_module_get_global(unsigned long long *dptr, size_t *bytes,
                                void *module, const char *name) {
  int e = cuemu_drv_check_context();
  return e ? e : cuemu__drv_module_get_global(dptr, bytes, module, name);
}

cuemu_module *cuemu__drv_module_of(void *module) {
  return module ? ((drv_module *)module)->module : NULL;
}

int cuemu__drv_module_get_global(unsigned long long *dptr, size_t *bytes,
                                 void *module, const char *name) {
  drv_module *d = module;
  if (!name)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!module_is_live(d))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  void *p = NULL;
  size_t n = 0;
  if (cuemu_module_get_global(d->module, name, &p, &n) != CUEMU_SUCCESS)
    return DRV_CUDA_ERROR_NOT_FOUND;
  /* Copies to and from the variable are accepted, as to cudaMalloc's. */
  cuemu_rt_allocation a;
  void **grown = NULL;
  if (!cuemu_rt_memory_find(p, &a) &&
      (grown = realloc(d->tracked, (size_t)(d->ntracked + 1) * sizeof *grown))) {
    d->tracked = grown;
    int saved = cuemu_drv_enter();
    if (cuemu_rt_memory_track(p, n, CUEMU_RT_MEMORY_SYMBOL) == cudaSuccess)
      d->tracked[d->ntracked++] = p;
    cuemu__rt_error_restore(saved);
  }
  if (dptr)
    *dptr = (unsigned long long)(uintptr_t)p;
  if (bytes)
    *bytes = n;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_func_get_attribute(int *value, int attribute, void *function) {
  int e = cuemu_drv_check_context();
  function = cuemu__drv_function(function);
  return e ? e : cuemu__drv_func_get_attribute(value, attribute, function);
}

int cuemu__drv_func_get_attribute(int *value, int attribute, void *function) {
  if (!value || attribute < 0 || attribute >= FUNC_ATTRIBUTE_MAX)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!function)
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  const cuemu_kernel_desc *d = cuemu__kernel_desc(function);
  if (cuemu__drv_cluster_attribute(d ? d->function : NULL, attribute, value))
    return DRV_CUDA_SUCCESS;
  cuemu_kernel_attributes a;
  cuemu_kernel_get_attributes(function, &a);
  return cuemu__drv_attribute_value(&a, attribute, value);
}

int cuemu__drv_cluster_attribute(const void *function, int attribute,
                                 int *value) {
  if (attribute < FUNC_CLUSTER_SIZE_MUST_BE_SET ||
      attribute > FUNC_CLUSTER_SCHEDULING_POLICY_PREFERENCE)
    return 0;
  cuemu_cluster_attributes c;
  cuemu__cluster_attributes(function, &c);
  if (attribute == FUNC_CLUSTER_SIZE_MUST_BE_SET)
    *value = c.must_be_set;
  else if (attribute == FUNC_NON_PORTABLE_CLUSTER_SIZE_ALLOWED)
    *value = c.nonportable;
  else if (attribute == FUNC_CLUSTER_SCHEDULING_POLICY_PREFERENCE)
    *value = c.scheduling;
  else
    *value = (int)c.required[attribute - FUNC_REQUIRED_CLUSTER_WIDTH];
  return 1;
}

int cuemu__drv_attribute_value(const cuemu_kernel_attributes *a_,
                               int attribute, int *value) {
  if (!value || attribute < 0 || attribute >= FUNC_ATTRIBUTE_MAX)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  cuemu_kernel_attributes a = *a_;
  switch (attribute) {
  case FUNC_MAX_THREADS_PER_BLOCK: *value = (int)a.max_threads_per_block; break;
  case FUNC_SHARED_SIZE_BYTES: *value = (int)a.static_shared_bytes; break;
  case FUNC_CONST_SIZE_BYTES: *value = (int)a.const_bytes; break;
  case FUNC_LOCAL_SIZE_BYTES: *value = (int)a.local_bytes; break;
  case FUNC_NUM_REGS: *value = a.num_regs; break;
  case FUNC_PTX_VERSION: *value = a.ptx_version; break;
  case FUNC_BINARY_VERSION: *value = a.binary_version; break;
  case FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *value = (int)a.max_dynamic_shared_bytes;
    break;
  case FUNC_PREFERRED_SHARED_MEMORY_CARVEOUT:
    *value = a.preferred_carveout;
    break;
  default: /* cache mode: -Xptxas -dlcm=ca is never given */
    *value = 0;
    break;
  }
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_func_set_attribute(void *function, int attribute, int value) {
  int e = cuemu_drv_check_context();
  function = cuemu__drv_function(function);
  return e ? e : cuemu__drv_func_set_attribute(function, attribute, value);
}

int cuemu__drv_func_set_attribute(void *function, int attribute, int value) {
  if (!function)
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  cuemu_status st;
  if (attribute == FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    st = value < 0 ? CUEMU_INVALID_VALUE
                   : cuemu_kernel_set_max_dynamic_shared(function,
                                                         (size_t)value);
  else if (attribute == FUNC_PREFERRED_SHARED_MEMORY_CARVEOUT)
    st = cuemu_kernel_set_carveout(function, value);
  else if (attribute == FUNC_NON_PORTABLE_CLUSTER_SIZE_ALLOWED ||
           attribute == FUNC_CLUSTER_SCHEDULING_POLICY_PREFERENCE) {
    /* Kept where the attribute queries read them (the kernel's entry). */
    const cuemu_kernel_desc *d = cuemu__kernel_desc(function);
    st = cuemu__function_set(d ? d->function : function,
                             cuemu_kernel_name(function), attribute, value);
  } else
    st = CUEMU_INVALID_VALUE; /* the other attributes are read-only */
  return st == CUEMU_SUCCESS ? DRV_CUDA_SUCCESS : DRV_CUDA_ERROR_INVALID_VALUE;
}

int cuemu_drv_func_get_name(const char **name, void *function) {
  int e = cuemu_drv_check_context();
  function = cuemu__drv_function(function);
  if (e)
    return e;
  if (!name)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!function)
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  *name = cuemu__kernel_symbol_name(function);
  return DRV_CUDA_SUCCESS;
}

/* Where parameter `i` of the kernel `d` describes lies in the parameter
 * buffer: each parameter at its alignment after the one before, as the
 * compiler lays out a struct of them (CU_LAUNCH_PARAM_BUFFER_POINTER,
 * cuFuncGetParamInfo, cudaFuncGetParamInfo). */
static size_t param_offset(const cuemu_kernel_desc *d, int i) {
  size_t offset = 0;
  for (int j = 0; j <= i; ++j) {
    size_t align = d->params[j].align ? d->params[j].align : 1;
    offset = (offset + align - 1) / align * align;
    if (j < i)
      offset += d->params[j].size;
  }
  return offset;
}

int cuemu__drv_param_info(const cuemu_kernel_desc *d, size_t index,
                          size_t *offset, size_t *size) {
  if (!d || !offset || index >= (size_t)d->param_count)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *offset = param_offset(d, (int)index);
  if (size)
    *size = d->params[index].size;
  return DRV_CUDA_SUCCESS;
}

int cuemu__drv_func_get_param_info(void *function, size_t index,
                                   size_t *offset, size_t *size) {
  return function ? cuemu__drv_param_info(cuemu__kernel_desc(function), index,
                                          offset, size)
                  : DRV_CUDA_ERROR_INVALID_VALUE;
}

int cuemu_drv_func_get_param_info(void *function, size_t index,
                                  size_t *offset, size_t *size) {
  int e = cuemu_drv_check_context();
  function = cuemu__drv_function(function);
  return e ? e : cuemu__drv_func_get_param_info(function, index, offset, size);
}

/* Unpacks a CU_LAUNCH_PARAM_BUFFER_POINTER buffer into one pointer per
 * parameter (param_offset). Returns 0, or a driver error. */
static int unpack_extra(const cuemu_kernel *k, void **extra, void **args) {
  char *buffer = NULL;
  size_t size = 0;
  int have_size = 0;
  for (int i = 0; extra[i] != LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == LAUNCH_PARAM_BUFFER_POINTER) {
      buffer = extra[i + 1];
    } else if (extra[i] == LAUNCH_PARAM_BUFFER_SIZE) {
      if (!extra[i + 1])
        return DRV_CUDA_ERROR_INVALID_VALUE;
      size = *(size_t *)extra[i + 1];
      have_size = 1;
    } else {
      return DRV_CUDA_ERROR_INVALID_VALUE;
    }
  }
  int n = cuemu_kernel_param_count(k);
  if (n > 0 && (!buffer || !have_size))
    return DRV_CUDA_ERROR_INVALID_VALUE;
  for (int i = 0; i < n; ++i) {
    const cuemu_param *p = cuemu_kernel_param(k, i);
    size_t offset = param_offset(cuemu__kernel_desc(k), i);
    if (offset + p->size > size) {
      cuemu__report(CUEMU_ARGUMENT_COUNT,
                    "cuLaunchKernel: kernel %s: the parameter buffer has %zu "
                    "bytes; parameter %d (%s) needs bytes %zu to %zu",
                    cuemu_kernel_name(k), size, i, p->ctype, offset,
                    offset + p->size);
      return DRV_CUDA_ERROR_INVALID_VALUE;
    }
    args[i] = buffer + offset;
  }
  return DRV_CUDA_SUCCESS;
}

int cuemu__drv_launch_args(const cuemu_kernel *k, void **params, void **extra,
                           void **unpacked, void ***args) {
  int n = cuemu_kernel_param_count(k);
  *args = params;
  if (params && extra)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (extra) {
    if (n > 256)
      return DRV_CUDA_ERROR_INVALID_VALUE;
    *args = unpacked;
    return unpack_extra(k, extra, unpacked);
  }
  return n > 0 && !params ? DRV_CUDA_ERROR_INVALID_VALUE : DRV_CUDA_SUCCESS;
}

int cuemu_drv_launch_kernel(void *function, unsigned grid_x, unsigned grid_y,
                            unsigned grid_z, unsigned block_x,
                            unsigned block_y, unsigned block_z,
                            unsigned shared_bytes, void *stream,
                            void **params, void **extra, int cooperative) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  cuemu_kernel *k = cuemu__drv_function(function);
  if (!k)
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  int n = cuemu_kernel_param_count(k);
  void **args = params;
  void *unpacked[256];
  e = cuemu__drv_launch_args(k, params, extra, unpacked, &args);
  if (e)
    return e;
  /* The sticky error of the device, as in the runtime API. */
  cuemu_status sticky = cuemu__device_sticky();
  if (sticky != CUEMU_SUCCESS)
    return cuemu_status_driver_error(sticky);
  if (!cuemu__handle_stream_valid(stream))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  cuemu_dim3 grid = {grid_x, grid_y, grid_z};
  cuemu_dim3 block = {block_x, block_y, block_z};
  /* Into a capturing stream: a kernel node, as the runtime's launches;
   * into an asynchronous stream, a kernel node that runs in its order. */
  cuemu_launch_request r = {
      .kernel = cuemu__kernel_desc(k),
      .grid = grid,
      .block = block,
      .dynamic_shared = shared_bytes,
      .stream = stream,
      .args = args,
      .cooperative = cooperative,
      .origin = CUEMU_LAUNCH_RUNTIME,
  };
  int saved = cuemu_drv_enter();
  int captured = cuemu__rt_capture_launch(&r);
  if (captured != CUEMU__RT_NOT_CAPTURED) {
    cuemu__drv_graph_note(k);
    return cuemu_drv_result(captured, saved);
  }
  captured = cuemu__stream_defer_launch(&r);
  if (captured != CUEMU__RT_NOT_CAPTURED) {
    cuemu__drv_graph_note(k);
    return cuemu_drv_result(captured, saved);
  }
  cuemu__rt_error_restore(saved);
  cuemu_status st =
      cooperative
          ? cuemu_kernel_launch_cooperative(k, grid, block, shared_bytes,
                                            stream, args, n)
          : cuemu_kernel_launch(k, grid, block, shared_bytes, stream, args, n);
  cuemu__managed_guard_launched(stream, r.kernel->name);
  cuemu__device_stick(st);
  /* A fault while the kernel ran (an assert, a bad address) is the sticky
   * error that the next synchronisation returns; the launch itself
   * succeeded, as on a GPU. */
  if (cuemu_status_is_sticky(st))
    return 0;
  return cuemu_status_driver_error(st);
}
