/*
 * cuemu_module.c: loading modules, finding kernels and launching them; and
 * the kernel registry of whole programs.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_runtime.h>

#include "check/cuemu_check.h"
#include "core/cuemu_core.h"
#include "base/cuemu_report.h"
#include "core/cuemu_worker.h"
#include "runtime/cuemu_rt_streams_internal.h"

struct cuemu_kernel {
  const cuemu_kernel_desc *desc;
  char *key;                  /* the name without insignificant spaces */
  size_t max_dynamic_shared;
  cuemu_param *params;
};

struct cuemu_module {
  void *handle;
  const cuemu_module_desc *desc;
  int count;
  cuemu_kernel *kernels;
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

static void module_free(cuemu_module *m) {
  if (!m)
    return;
  for (int i = 0; i < m->count; ++i) {
    free(m->kernels[i].key);
    free(m->kernels[i].params);
  }
  free(m->kernels);
  if (m->handle)
    dlclose(m->handle);
  free(m);
}

cuemu_status cuemu_module_load(cuemu_module **out, const char *path) {
  if (!out || !path)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_module_load: out and path must not be NULL");
  *out = NULL;
  cuemu_module *m = calloc(1, sizeof *m);
  if (!m)
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory to load %s", path);
  m->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
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
  m->kernels = calloc((size_t)m->desc->kernel_count + 1, sizeof *m->kernels);
  if (!m->kernels) {
    module_free(m);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory to load %s", path);
  }
  for (int i = 0; i < m->desc->kernel_count; ++i) {
    const cuemu_kernel_desc *d = &m->desc->kernels[i];
    cuemu_kernel *k = &m->kernels[i];
    m->count = i + 1;
    k->desc = d;
    k->key = name_key(d->name);
    k->max_dynamic_shared = CUEMU_DEFAULT_DYNAMIC_SHARED;
    k->params = calloc((size_t)d->param_count + 1, sizeof *k->params);
    if (!k->key || !k->params) {
      module_free(m);
      return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory to load %s", path);
    }
    for (int p = 0; p < d->param_count; ++p) {
      k->params[p].ctype = d->params[p].ctype;
      k->params[p].size = d->params[p].size;
      k->params[p].align = d->params[p].align;
    }
  }
  *out = m;
  return CUEMU_SUCCESS;
}

cuemu_status cuemu_module_unload(cuemu_module *module) {
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
  if (bytes > cuemu_rt_max_shared_optin())
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "kernel %s: %zu bytes of dynamic shared memory is "
                         "past the opt-in limit of %u",
                         k->desc->name, bytes,
                         (unsigned)cuemu_rt_max_shared_optin());
  k->max_dynamic_shared = bytes;
  return CUEMU_SUCCESS;
}

/* Checks the arguments of a launch and runs it. */
static cuemu_status launch(cuemu_kernel *k, cuemu_dim3 grid, cuemu_dim3 block,
                           size_t dynamic_shared, void **args, int nargs,
                           int cooperative) {
  if (!k)
    return cuemu__report(CUEMU_INVALID_VALUE, "kernel must not be NULL");
  if (nargs != k->desc->param_count || (nargs > 0 && !args))
    return cuemu__report(CUEMU_ARGUMENT_COUNT,
                         "kernel %s takes %d argument%s; %d given",
                         k->desc->name, k->desc->param_count,
                         k->desc->param_count == 1 ? "" : "s", nargs);
  for (int i = 0; i < nargs; ++i)
    if (!args[i])
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "kernel %s: argument %d is a NULL pointer (args "
                           "holds pointers to the values)",
                           k->desc->name, i);
  return cuemu__launch(k->desc, k->max_dynamic_shared, grid, block,
                       dynamic_shared, args, cooperative);
}

cuemu_status cuemu_kernel_launch(cuemu_kernel *k, cuemu_dim3 grid,
                                 cuemu_dim3 block, size_t dynamic_shared,
                                 cuemu_stream *stream, void **args,
                                 int nargs) {
  (void)stream; /* launches are synchronous */
  return launch(k, grid, block, dynamic_shared, args, nargs, 0);
}

cuemu_status cuemu_kernel_launch_cooperative(cuemu_kernel *k, cuemu_dim3 grid,
                                             cuemu_dim3 block,
                                             size_t dynamic_shared,
                                             cuemu_stream *stream,
                                             void **args, int nargs) {
  (void)stream;
  return launch(k, grid, block, dynamic_shared, args, nargs, 1);
}

cuemu_status cuemu_kernel_max_cooperative_blocks(const cuemu_kernel *k,
                                                 cuemu_dim3 block,
                                                 size_t dynamic_shared,
                                                 unsigned *blocks) {
  unsigned long long n = (unsigned long long)block.x * block.y * block.z;
  if (!k || !blocks || n == 0 || n > CUEMU_MAX_THREADS_PER_BLOCK)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_kernel_max_cooperative_blocks: a kernel, an "
                         "output and a block of 1 to %u threads are needed",
                         CUEMU_MAX_THREADS_PER_BLOCK);
  *blocks = cuemu__grid_max_blocks((unsigned)n, dynamic_shared);
  return CUEMU_SUCCESS;
}

/* ---- The kernel registry of whole programs ------------------------------ */

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static const cuemu_module_desc **registry;
static size_t registry_count;

void cuemu_program_register(const cuemu_module_desc *desc) {
  pthread_mutex_lock(&registry_lock);
  const cuemu_module_desc **r =
      realloc(registry, (registry_count + 1) * sizeof *r);
  if (r) {
    registry = r;
    registry[registry_count++] = desc;
  }
  pthread_mutex_unlock(&registry_lock);
}

const cuemu_kernel_desc *cuemu_program_find(const void *function) {
  const cuemu_kernel_desc *found = NULL;
  pthread_mutex_lock(&registry_lock);
  for (size_t i = 0; i < registry_count && !found; ++i)
    for (int k = 0; k < registry[i]->kernel_count; ++k)
      if (registry[i]->kernels[k].function == function) {
        found = &registry[i]->kernels[k];
        break;
      }
  pthread_mutex_unlock(&registry_lock);
  return found;
}

int cuemu_program_launch(const cuemu_kernel_desc *kernel, cuemu_uint3 grid,
                         cuemu_uint3 block, size_t dynamic_shared,
                         void *stream, void **args) {
  if (cuemu__rt_stream_check(stream) != 0)
    return cuemu__report(CUEMU_INVALID_HANDLE,
                         "kernel %s: launched into a stream that is not "
                         "valid (destroyed, or never created)",
                         kernel->name);
  cuemu_dim3 g = {grid.x, grid.y, grid.z};
  cuemu_dim3 b = {block.x, block.y, block.z};
  return cuemu__launch(kernel, cuemu__rt_kernel_shared_limit(kernel, args),
                       g, b, dynamic_shared, args, 0);
}

/* ---- Global variables --------------------------------------------------- */

#include "device/cuemu_elf_symbol.h"

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
