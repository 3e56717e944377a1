/*
 * cuemu_module.c: the C API's modules and kernels: loading modules, finding
 * kernels, their attributes, and launching them through the one launch path
 * (cuemu_device_launch.h).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_report.h"
#include "check/cuemu_check.h"
#include "core/cuemu_printf.h"
#include "device/cuemu_device_launch.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_elf_symbol.h"
#include "device/cuemu_functions.h"
#include "device/cuemu_module_binding.h"

struct cuemu_kernel {
  const cuemu_kernel_desc *desc;
  char *key;                  /* the name without insignificant spaces */
  cuemu_param *params;
  char *symbol;               /* CUDA's name of it, once asked for */
};

/* Another name of a kernel of the module: a name expression that names a
 * kernel the table also lists under its own name (NVRTC's "my_kernel" of a
 * kernel that is not a template). */
typedef struct kernel_alias {
  char *key;
  int index;                  /* into the module's kernels */
} kernel_alias;

struct cuemu_module {
  void *handle;
  const cuemu_module_desc *desc;
  int count;
  cuemu_kernel *kernels;
  int alias_count;
  kernel_alias *aliases;
};

/* Drops white space except where it separates two identifier characters,
 * so that "scale<double, 3>" and "scale<double,3>" are the same key. */
static char *name_key(const char *name) {
  size_t n = strlen(name);
  char *key = malloc(n + 1);
  if (!key)
    return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = (unsigned char)name[i];
    if (isspace(c)) {
      size_t j = i;
      while (j < n && isspace((unsigned char)name[j]))
        j++;
      int before = k > 0 && (isalnum((unsigned char)key[k - 1]) ||
                             key[k - 1] == '_');
      int after = j < n && (isalnum((unsigned char)name[j]) || name[j] == '_');
      if (before && after)
        key[k++] = ' ';
      i = j - 1;
      continue;
    }
    key[k++] = (char)c;
  }
  key[k] = '\0';
  return key;
}

/* Describes the kernel `d` in *k (its name key and parameters); -1 when
 * out of memory, with what was allocated left for the caller to free. */
static int kernel_init(cuemu_kernel *k, const cuemu_kernel_desc *d) {
  k->desc = d;
  k->key = name_key(d->name);
  k->params = calloc((size_t)d->param_count + 1, sizeof *k->params);
  if (!k->key || !k->params)
    return -1;
  for (int p = 0; p < d->param_count; ++p) {
    k->params[p].ctype = d->params[p].ctype;
    k->params[p].size = d->params[p].size;
    k->params[p].align = d->params[p].align;
  }
  return 0;
}

static void module_free(cuemu_module *m) {
  if (!m)
    return;
  cuemu__function_forget(m->desc);
  for (int i = 0; i < m->count; ++i) {
    free(m->kernels[i].key);
    free(m->kernels[i].params);
    free(m->kernels[i].symbol);
  }
  free(m->kernels);
  for (int i = 0; i < m->alias_count; ++i)
    free(m->aliases[i].key);
  free(m->aliases);
  if (m->desc)
    cuemu__check_module_unloading((const void *)m->desc);
  if (m->handle)
    dlclose(m->handle);
  free(m);
}

/* RTLD_NOW unless cuemu__module_bind_lazily() said otherwise. */
static int module_binding = RTLD_NOW;

void cuemu__module_bind_lazily(int lazily) {
  module_binding = lazily ? RTLD_LAZY : RTLD_NOW;
}

cuemu_status cuemu_module_load(cuemu_module **out, const char *path) {
  if (!out || !path)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_module_load: out and path must not be NULL");
  *out = NULL;
  cuemu_module *m = calloc(1, sizeof *m);
  if (!m)
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory to load %s", path);
  m->handle = dlopen(path, module_binding | RTLD_LOCAL);
  if (!m->handle) {
    cuemu_status st = cuemu__report(CUEMU_MODULE_LOAD, "%s", dlerror());
    module_free(m);
    return st;
  }
  cuemu_module_describe_fn describe =
      (cuemu_module_describe_fn)dlsym(m->handle, "cuemu_module_describe");
  if (!describe) {
    module_free(m);
    return cuemu__report(CUEMU_MODULE_LOAD,
                         "%s is not a cuemu module (no cuemu_module_describe; "
                         "build it with cuemu-cc --module)",
                         path);
  }
  cuemu__check_module_loaded((const void *)describe);
  m->desc = describe();
  if (!m->desc || m->desc->abi != CUEMU_MODULE_ABI) {
    unsigned abi = m->desc ? m->desc->abi : 0;
    module_free(m);
    return cuemu__report(CUEMU_MODULE_VERSION,
                         "%s was built for module ABI %u; this libcuemu "
                         "expects %u: rebuild it",
                         path, abi, CUEMU_MODULE_ABI);
  }
  /* A module of cuemu-nvcc -cubin or -fatbin names its images: a device
   * that runs none of them has no binary to load (CUDA_ERROR_NO_BINARY_FOR_GPU). */
  const char *images = (const char *)dlsym(m->handle, "cuemu_module_images");
  if (images && !cuemu__device_runs_images(images)) {
    const cuemu_device_model *model = cuemu__device_model();
    /* A module of cuemu-nvcc -ptx names its PTX targets alone: the JIT
     * compile of PTX for a newer device fails (CUDA_ERROR_INVALID_PTX). */
    cuemu_status st = strncmp(images, "compute_", 8) == 0
        ? cuemu__report(CUEMU_PTX_TARGET,
                        "%s: ptxas fatal   : SM version specified by .target "
                        "(%s) is higher than default SM version assumed "
                        "(sm_%d%d)",
                        path, images, model->major, model->minor)
        : cuemu__report(
        CUEMU_KERNEL_IMAGE,
        "%s: no image for the emulated device (compute capability %d.%d) "
        "among the module's %s (-arch, -gencode, -code; CUEMU_DEVICE sets "
        "the device)",
        path, model->major, model->minor, images);
    module_free(m);
    return st;
  }
  m->kernels = calloc((size_t)m->desc->kernel_count + 1, sizeof *m->kernels);
  m->aliases = calloc((size_t)m->desc->kernel_count + 1, sizeof *m->aliases);
  if (!m->kernels || !m->aliases) {
    module_free(m);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory to load %s", path);
  }
  for (int i = 0; i < m->desc->kernel_count; ++i) {
    /* An entry without a thunk names a variable (see
     * cuemu__module_variable_symbol()), not a kernel. */
    if (!m->desc->kernels[i].thunk)
      continue;
    /* A kernel listed twice (its definition and a name expression) is one
     * kernel, as CUDA counts and enumerates them: the second entry is a
     * name of the first. */
    int first = -1;
    for (int j = 0; j < m->count && first < 0; ++j)
      if (m->desc->kernels[i].function &&
          m->kernels[j].desc->function == m->desc->kernels[i].function)
        first = j;
    if (first >= 0) {
      kernel_alias *a = &m->aliases[m->alias_count++];
      a->index = first;
      if (!(a->key = name_key(m->desc->kernels[i].name))) {
        module_free(m);
        return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory to load %s",
                             path);
      }
      continue;
    }
    if (kernel_init(&m->kernels[m->count++], &m->desc->kernels[i]) != 0) {
      module_free(m);
      return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory to load %s", path);
    }
  }
  *out = m;
  return CUEMU_SUCCESS;
}

cuemu_status cuemu_module_unload(cuemu_module *module) {
  /* CUDA prints waiting printf output when a module is unloaded (its
   * formats are the module's). */
  cuemu__printf_flush_pending();
  module_free(module);
  return CUEMU_SUCCESS;
}

cuemu_status cuemu_module_get_kernel(cuemu_module *m, const char *name,
                                     cuemu_kernel **out) {
  if (!m || !name || !out)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_module_get_kernel: NULL argument");
  *out = NULL;
  char *key = name_key(name);
  if (!key)
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  for (int i = 0; i < m->count; ++i) {
    if (strcmp(m->kernels[i].key, key) == 0) {
      free(key);
      *out = &m->kernels[i];
      return CUEMU_SUCCESS;
    }
  }
  for (int i = 0; i < m->alias_count; ++i) {
    if (strcmp(m->aliases[i].key, key) == 0) {
      free(key);
      *out = &m->kernels[m->aliases[i].index];
      return CUEMU_SUCCESS;
    }
  }
  free(key);
  return cuemu__report(CUEMU_KERNEL_NOT_FOUND,
                       "no kernel named '%s' in the module (template "
                       "instantiations must be named when compiling, e.g. "
                       "cuemu-cc --name-expr 'scale<double, 3>')",
                       name);
}

int cuemu_module_kernel_count(const cuemu_module *m) { return m ? m->count : 0; }

cuemu_kernel *cuemu_module_kernel_at(const cuemu_module *m, int i) {
  return m && i >= 0 && i < m->count ? &m->kernels[i] : NULL;
}

const char *cuemu_kernel_name(const cuemu_kernel *k) {
  return k ? k->desc->name : NULL;
}

/* Whether `symbol` can be the symbol of the kernel named `name`: it holds
 * the name's last identifier (that of "ns::scale<float, 2>" is "scale"),
 * as every mangling of it does. */
static int symbol_fits(const char *symbol, const char *name) {
  const char *end = strchr(name, '<');
  if (!end)
    end = name + strlen(name);
  const char *start = end;
  while (start > name &&
         (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
    start--;
  size_t n = (size_t)(end - start);
  for (const char *p = symbol; n > 0 && *p; ++p)
    if (strncmp(p, start, n) == 0)
      return 1;
  return 0;
}

const char *cuemu__kernel_symbol_name(cuemu_kernel *k) {
  if (!k)
    return NULL;
  char *s = __atomic_load_n(&k->symbol, __ATOMIC_ACQUIRE);
  if (s)
    return s;
  const char *name = k->desc->name;
  char symbol[4096];
  if (cuemu__elf_function_name_at(k->desc->function, symbol, sizeof symbol) ==
          CUEMU_SUCCESS &&
      symbol_fits(symbol, name))
    name = symbol;
  s = strdup(name);
  if (!s)
    return k->desc->name;
  char *expected = NULL;
  if (!__atomic_compare_exchange_n(&k->symbol, &expected, s, 0,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    free(s);
    s = expected;
  }
  return s;
}

int cuemu_kernel_param_count(const cuemu_kernel *k) {
  return k ? k->desc->param_count : 0;
}

const cuemu_param *cuemu_kernel_param(const cuemu_kernel *k, int i) {
  return k && i >= 0 && i < k->desc->param_count ? &k->params[i] : NULL;
}

cuemu_status cuemu_kernel_set_max_dynamic_shared(cuemu_kernel *k,
                                                 size_t bytes) {
  if (!k)
    return cuemu__report(CUEMU_INVALID_VALUE, "kernel must not be NULL");
  int value = bytes > (size_t)INT_MAX ? INT_MAX : (int)bytes;
  return cuemu__function_set(k->desc->function, k->desc->name,
                             CUEMU_FUNCTION_MAX_DYNAMIC_SHARED, value);
}

cuemu_status cuemu_kernel_set_carveout(cuemu_kernel *k, int percent) {
  if (!k)
    return cuemu__report(CUEMU_INVALID_VALUE, "kernel must not be NULL");
  return cuemu__function_set(k->desc->function, k->desc->name,
                             CUEMU_FUNCTION_CARVEOUT, percent);
}

const cuemu_kernel_desc *cuemu__kernel_desc(const cuemu_kernel *k) {
  return k->desc;
}

cuemu_status cuemu_kernel_get_attributes(const cuemu_kernel *k,
                                         cuemu_kernel_attributes *out) {
  if (!k || !out)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_kernel_get_attributes: NULL argument");
  cuemu__function_attributes(k->desc->function, k->desc, out);
  out->local_bytes = cuemu__function_local_bytes(k->desc->function, k->desc);
  return CUEMU_SUCCESS;
}

/* A launch of the C API, run or only checked. */
static cuemu_status launch(cuemu_kernel *k, cuemu_dim3 grid, cuemu_dim3 block,
                           size_t dynamic_shared, cuemu_stream *stream,
                           void **args, int nargs, int cooperative,
                           int check_only) {
  if (!k)
    return cuemu__report(CUEMU_INVALID_VALUE, "kernel must not be NULL");
  cuemu_launch_request r = {
      .kernel = k->desc,
      .grid = grid,
      .block = block,
      .dynamic_shared = dynamic_shared,
      .stream = stream,
      .args = args,
      .nargs = nargs,
      .cooperative = cooperative,
      .origin = CUEMU_LAUNCH_API,
  };
  return check_only ? cuemu__device_check_launch(&r)
                    : cuemu__device_launch(&r);
}

cuemu_status cuemu_kernel_check_launch(cuemu_kernel *k, cuemu_dim3 grid,
                                       cuemu_dim3 block, size_t dynamic_shared,
                                       int nargs, int cooperative) {
  /* The arguments are not looked at: only their count. */
  void *none[1] = {NULL};
  void **args = NULL;
  if (k && nargs == k->desc->param_count && nargs > 0) {
    args = calloc((size_t)nargs, sizeof *args);
    if (!args)
      return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
    for (int i = 0; i < nargs; ++i)
      args[i] = none;
  }
  cuemu_status st = launch(k, grid, block, dynamic_shared, NULL,
                           args ? args : none, nargs, cooperative, 1);
  free(args);
  return st;
}

cuemu_status cuemu_kernel_launch(cuemu_kernel *k, cuemu_dim3 grid,
                                 cuemu_dim3 block, size_t dynamic_shared,
                                 cuemu_stream *stream, void **args,
                                 int nargs) {
  return launch(k, grid, block, dynamic_shared, stream, args, nargs, 0, 0);
}

cuemu_status cuemu_kernel_launch_cooperative(cuemu_kernel *k, cuemu_dim3 grid,
                                             cuemu_dim3 block,
                                             size_t dynamic_shared,
                                             cuemu_stream *stream,
                                             void **args, int nargs) {
  return launch(k, grid, block, dynamic_shared, stream, args, nargs, 1, 0);
}

cuemu_status cuemu_kernel_max_cooperative_blocks(const cuemu_kernel *k,
                                                 cuemu_dim3 block,
                                                 size_t dynamic_shared,
                                                 unsigned *blocks) {
  unsigned long long n = (unsigned long long)block.x * block.y * block.z;
  cuemu_kernel_attributes a;
  if (k)
    cuemu__function_attributes(k->desc->function, k->desc, &a);
  if (!k || !blocks || n == 0 || n > a.max_threads_per_block)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_kernel_max_cooperative_blocks: a kernel, an "
                         "output and a block of 1 to %u threads are needed",
                         k ? a.max_threads_per_block
                           : cuemu__device_model()->max_threads_per_block);
  *blocks = cuemu__device_blocks_per_sm((unsigned)n,
                                        a.static_shared_bytes +
                                            dynamic_shared) *
            cuemu__device_model()->sms;
  return CUEMU_SUCCESS;
}

/* ---- The program's own kernels ------------------------------------------- */

/* The kernels of the program (registered descriptors) that the C API has
 * been asked for, one each, kept for the life of the process as the
 * program's kernels are. */
static pthread_mutex_t program_lock = PTHREAD_MUTEX_INITIALIZER;
static cuemu_kernel **program_kernels;
static size_t program_count;

cuemu_kernel *cuemu__kernel_of_program(const cuemu_kernel_desc *d) {
  if (!d)
    return NULL;
  cuemu_kernel *found = NULL;
  pthread_mutex_lock(&program_lock);
  for (size_t i = 0; i < program_count && !found; ++i)
    if (program_kernels[i]->desc == d)
      found = program_kernels[i];
  if (!found) {
    cuemu_kernel *k = calloc(1, sizeof *k);
    cuemu_kernel **v =
        k ? realloc(program_kernels, (program_count + 1) * sizeof *v) : NULL;
    if (v && kernel_init(k, d) == 0) {
      program_kernels = v;
      program_kernels[program_count++] = found = k;
    } else {
      if (v)
        program_kernels = v;
      if (k) {
        free(k->key);
        free(k->params);
      }
      free(k);
    }
  }
  pthread_mutex_unlock(&program_lock);
  return found;
}

int cuemu__kernel_is_program(const cuemu_kernel *k) {
  int found = 0;
  pthread_mutex_lock(&program_lock);
  for (size_t i = 0; k && i < program_count && !found; ++i)
    found = program_kernels[i] == k;
  pthread_mutex_unlock(&program_lock);
  return found;
}

/* ---- Global variables --------------------------------------------------- */


cuemu_status cuemu_module_get_global(cuemu_module *m, const char *name,
                                     void **ptr, size_t *size) {
  if (!m || !name || !*name)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_module_get_global: a module and a name are "
                         "required");
  void *address = NULL;
  size_t bytes = 0;
  cuemu_status st = cuemu__elf_find_object(m->handle, name, &address, &bytes);
  if (st != CUEMU_SUCCESS)
    return st;
  if (ptr)
    *ptr = address;
  if (size)
    *size = bytes;
  return CUEMU_SUCCESS;
}

/* ---- Kernels by their symbol names ---------------------------------------- */

#include "device/cuemu_module_symbols.h"

cuemu_status cuemu__module_find_function(cuemu_module *m, const char *symbol,
                                         void **address) {
  return cuemu__elf_find_function(m->handle, symbol, address);
}

cuemu_status cuemu__module_get_kernel_by_symbol(cuemu_module *m,
                                                const char *symbol,
                                                cuemu_kernel **out) {
  void *address = NULL;
  if (cuemu__elf_find_function(m->handle, symbol, &address) == CUEMU_SUCCESS)
    for (int i = 0; i < m->count; ++i)
      if (m->kernels[i].desc->function == address) {
        *out = &m->kernels[i];
        return CUEMU_SUCCESS;
      }
  return cuemu__report(CUEMU_KERNEL_NOT_FOUND,
                       "no kernel whose symbol is '%s' in the module",
                       symbol);
}

cuemu_status cuemu__module_kernel_symbol(cuemu_module *m,
                                         const cuemu_kernel *k, char *name,
                                         size_t size) {
  return cuemu__elf_function_name(m->handle, k->desc->function, name, size);
}

cuemu_status cuemu__module_variable_symbol(cuemu_module *m,
                                           const char *expression,
                                           char *name, size_t size) {
  char *key = name_key(expression);
  if (!key)
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  cuemu_status st = CUEMU_KERNEL_NOT_FOUND;
  for (int i = 0; i < m->desc->kernel_count && st == CUEMU_KERNEL_NOT_FOUND;
       ++i) {
    const cuemu_kernel_desc *d = &m->desc->kernels[i];
    char *dkey = d->thunk ? NULL : name_key(d->name);
    if (dkey && strcmp(dkey, key) == 0)
      st = cuemu__elf_object_name(m->handle, d->function, name, size);
    free(dkey);
  }
  free(key);
  return st;
}
