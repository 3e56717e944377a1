/*
 * cuemu_functions.c: the device's table of kernels (see cuemu_functions.h).
 *
 * Registered modules (whole programs) are kept in registration order and
 * searched by kernel address; the settings of kernels are an array of
 * (address, settings) entries. Both are small, and guarded by one mutex.
 */
#include "device/cuemu_functions.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_device_runtime.h>

#include "base/cuemu_report.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_frame_size.h"
#include "runtime/cuemu_rt_foreign_runtime.h"

typedef struct function_entry {
  const void *function;
  size_t max_dynamic_shared; /* DEFAULT_DYNAMIC_SHARED: the device's */
  int carveout;
  size_t static_shared; /* the sum of the declarations' sizes */
  unsigned long long *declarations; /* of static shared variables, counted */
  size_t declaration_count;
  int nonportable_cluster; /* cudaFuncAttributeNonPortableClusterSizeAllowed */
  int scheduling_policy; /* cudaFuncAttributeClusterSchedulingPolicyPreference */
  int launches_grids;    /* its body launches grids (the kernel table's) */
  int unoptimized;       /* its device pass compiled it at -O0 */
  int frame_known;       /* frame has been read (cuemu__function_frame) */
  size_t frame;
} function_entry;

/* An entry's dynamic shared-memory limit until cudaFuncSetAttribute sets
 * one: the device's, read when asked (an entry may be made when a program
 * or module is loaded, before the device's settings are read, and a test
 * harness may change them in a child afterwards). */
#define DEFAULT_DYNAMIC_SHARED ((size_t)-1)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const cuemu_module_desc **modules;
static size_t module_count;
static int *module_arch;  /* each module's -arch (80), 0: not known */
static int program_arch;  /* the -arch registered last, 0: none */
/* Each module's images (cuemu_program_register_target(): "sm_80,compute_80",
 * a copy), NULL: not known. */
static char **module_images;
static const char *program_images; /* those of program_arch */
static function_entry *entries;
static size_t entry_count, entry_capacity;
/* Advanced by each change of the tables below, which makes the launches'
 * cached picks (pick_for()) stale. */
static unsigned long generation = 1;

/* A registration changed the tables (called with the lock held). */
static void tables_changed(void) {
  __atomic_add_fetch(&generation, 1, __ATOMIC_RELEASE);
}

void cuemu_program_register_target(const cuemu_module_desc *desc, int arch,
                                   const char *images) {
  /* A program of cuemu's units: NVIDIA's runtime beside it is warned of. */
  cuemu__rt_foreign_runtime_check(desc);
  /* A copy: the text is in the registering object, which may be unloaded
   * (dlclose) while the table keeps its entry. */
  char *copy = images ? strdup(images) : NULL;
  pthread_mutex_lock(&lock);
  const cuemu_module_desc **grown =
      realloc(modules, (module_count + 1) * sizeof *grown);
  if (grown)
    modules = grown;
  int *archs = realloc(module_arch, (module_count + 1) * sizeof *archs);
  if (archs)
    module_arch = archs;
  char **kept = realloc(module_images, (module_count + 1) * sizeof *kept);
  if (kept)
    module_images = kept;
  if (grown && archs && kept) {
    module_arch[module_count] = arch;
    module_images[module_count] = copy;
    modules[module_count++] = desc;
    if (arch > 0) {
      program_arch = arch;
      program_images = copy;
    }
    tables_changed();
  } else {
    free(copy);
  }
  pthread_mutex_unlock(&lock);
}

void cuemu_program_register_arch(const cuemu_module_desc *desc, int arch) {
  cuemu_program_register_target(desc, arch, NULL);
}

void cuemu_program_register(const cuemu_module_desc *desc) {
  cuemu_program_register_arch(desc, 0);
}

/* The tables of further device passes (cuemu_program_register_variant()),
 * each with the module of its first pass and its images (a copy). Read
 * without the lock while there are none. */
typedef struct variant_entry {
  const cuemu_module_desc *first, *desc;
  int arch;
  char *images;
} variant_entry;
static variant_entry *variants;
static size_t variant_count;

void cuemu_program_register_variant(const cuemu_module_desc *first,
                                    const cuemu_module_desc *variant,
                                    int arch, const char *images) {
  char *copy = images ? strdup(images) : NULL;
  if (!first || !variant || !copy) {
    free(copy);
    return;
  }
  pthread_mutex_lock(&lock);
  variant_entry *grown =
      realloc(variants, (variant_count + 1) * sizeof *grown);
  if (grown) {
    variants = grown;
    variants[variant_count] = (variant_entry){first, variant, arch, copy};
    __atomic_store_n(&variant_count, variant_count + 1, __ATOMIC_RELEASE);
    tables_changed();
  } else {
    free(copy);
  }
  pthread_mutex_unlock(&lock);
}

/* Kernel template instances of further device passes
 * (cuemu_program_register_instance_variant()): each with the thunk of the
 * first pass's instance, which every descriptor of that instance has (the
 * device pass's and the host pass's alias, a copy of it), and its pass's
 * architecture. Not the instance's name: where the compiler's
 * __PRETTY_FUNCTION__ leaves out the template arguments (clang++, which
 * compiles units of CUB and Thrust), the instances of one kernel template
 * share one name. */
typedef struct instance_variant {
  cuemu_thunk_fn first; /* the first pass's instance's thunk */
  const cuemu_kernel_desc *desc;
  int arch;
} instance_variant;
static instance_variant *instance_variants;
static size_t instance_variant_count;

void cuemu_program_register_instance_variant(const cuemu_kernel_desc *first,
                                             const cuemu_kernel_desc *variant,
                                             int arch) {
  if (!first || !first->thunk || !variant)
    return;
  pthread_mutex_lock(&lock);
  /* A record may be repeated (one per use of the instance's template). */
  for (size_t k = 0; k < instance_variant_count; ++k)
    if (instance_variants[k].arch == arch &&
        instance_variants[k].first == first->thunk) {
      pthread_mutex_unlock(&lock);
      return;
    }
  instance_variant *grown =
      realloc(instance_variants,
              (instance_variant_count + 1) * sizeof *grown);
  if (grown) {
    instance_variants = grown;
    instance_variants[instance_variant_count++] =
        (instance_variant){first->thunk, variant, arch};
    tables_changed();
  }
  pthread_mutex_unlock(&lock);
}

static int image_runs(const char *image, size_t n, int major, int minor);

/* Non-zero when the comma-separated `list` names the `n` bytes at image. */
static int lists_image(const char *list, const char *image, size_t n) {
  for (const char *p = list; p && *p;) {
    const size_t len = strcspn(p, ",");
    if (len == n && strncmp(p, image, n) == 0)
      return 1;
    p += len + (p[len] == ',');
  }
  return 0;
}

/* The image of the comma-separated `list` that the driver's rule picks
 * for a device of compute capability major.minor: the highest cubin that
 * runs, else the PTX of the highest architecture that runs; its length
 * into *n. NULL when none runs. */
static const char *picked_image(const char *list, int major, int minor,
                                size_t *n) {
  const char *best = NULL;
  long best_value = -1;
  int best_cubin = 0;
  for (const char *p = list; p && *p;) {
    const size_t len = strcspn(p, ",");
    if (image_runs(p, len, major, minor)) {
      const int cubin = strncmp(p, "sm_", 3) == 0;
      const long value = strtol(p + (cubin ? 3 : 8), NULL, 10);
      if (!best || cubin > best_cubin ||
          (cubin == best_cubin && value > best_value)) {
        best = p;
        *n = len;
        best_value = value;
        best_cubin = cubin;
      }
    }
    p += len + (p[len] == ',');
  }
  return best;
}

/* The variant of the module `first` whose images hold the `n` bytes at
 * `image`, or NULL (the first pass's own). Called with the lock held. */
static const variant_entry *variant_with(const cuemu_module_desc *first,
                                         const char *image, size_t n) {
  for (size_t v = 0; image && v < variant_count; ++v)
    if (variants[v].first == first &&
        lists_image(variants[v].images, image, n))
      return &variants[v];
  return NULL;
}

/* The architecture of the device pass that made the `n` bytes at `image`:
 * the variant's of `first` that lists it (first NULL: any variant's), else
 * `arch` (the first pass's). Called with the lock held. */
static int pass_arch_of(const cuemu_module_desc *first, const char *image,
                        size_t n, int arch) {
  for (size_t v = 0; image && v < variant_count; ++v)
    if ((!first || variants[v].first == first) &&
        lists_image(variants[v].images, image, n))
      return variants[v].arch;
  return arch;
}

/* The kernel named `name` in the table `table` that has code, or NULL. */
static const cuemu_kernel_desc *kernel_named(const cuemu_module_desc *table,
                                             const char *name) {
  for (int k = 0; k < table->kernel_count; ++k)
    if (table->kernels[k].thunk && table->kernels[k].name &&
        strcmp(table->kernels[k].name, name) == 0)
      return &table->kernels[k];
  return NULL;
}

/* The registered module whose table holds `desc`, or -1. Called with the
 * lock held. */
static long module_of(const cuemu_kernel_desc *desc) {
  for (size_t i = 0; i < module_count; ++i)
    if (desc >= modules[i]->kernels &&
        desc < modules[i]->kernels + modules[i]->kernel_count)
      return (long)i;
  return -1;
}

/* The code of the pass that runs `desc` on a device of compute capability
 * major.minor (cuemu__function_code()). Called with the lock held. */
static const cuemu_kernel_desc *code_of(const cuemu_kernel_desc *desc,
                                        int major, int minor) {
  const cuemu_kernel_desc *code = desc;
  if (!variant_count || !desc->name)
    return code;
  long i = module_of(desc);
  /* A kernel template's instance is registered apart, without an -arch:
   * the program's images count (arch_images_of()). */
  if (i >= 0 && !module_arch[i])
    i = -1;
  const char *images = i >= 0 ? module_images[i] : program_images;
  size_t n = 0;
  const char *best = images ? picked_image(images, major, minor, &n) : NULL;
  const variant_entry *v =
      best && i >= 0 ? variant_with(modules[i], best, n) : NULL;
  if (v) {
    const cuemu_kernel_desc *found = kernel_named(v->desc, desc->name);
    if (found)
      code = found;
  } else if (best && instance_variant_count && desc->function) {
    /* Only an instance's own descriptor (one with its function) takes a
     * variant's code: a launch's own (a deduced launch's, whose thunk
     * takes a tuple of its arguments) calls the kernel its own way. */
    const int arch = pass_arch_of(NULL, best, n, 0);
    for (size_t k = 0; arch && k < instance_variant_count; ++k)
      if (instance_variants[k].arch == arch &&
          instance_variants[k].first == desc->thunk) {
        code = instance_variants[k].desc;
        break;
      }
  }
  return code;
}

/* The -arch the kernel `desc` was built for: its module's, else the
 * program's (a kernel template's instance, registered apart), else 0; and
 * its build's images into *images (NULL: not known). Called with the lock
 * held. */
static int arch_images_locked(const cuemu_kernel_desc *desc,
                              const char **images) {
  int arch = 0;
  const char *found = NULL;
  for (size_t i = 0; i < module_count && desc; ++i)
    if (desc >= modules[i]->kernels &&
        desc < modules[i]->kernels + modules[i]->kernel_count) {
      arch = module_arch[i];
      found = module_images[i];
    }
  if (!arch) {
    arch = program_arch;
    found = program_images;
  }
  *images = found;
  return arch;
}

/* As arch_images_locked(), taking the lock; images may be NULL. */
static int arch_images_of(const cuemu_kernel_desc *desc,
                          const char **images) {
  const char *found = NULL;
  pthread_mutex_lock(&lock);
  const int arch = arch_images_locked(desc, &found);
  pthread_mutex_unlock(&lock);
  if (images)
    *images = found;
  return arch;
}

/* What a launch asks of a kernel's build on its device (whether an image
 * runs there, and the code of the pass that the driver's rule picks),
 * cached per host thread and kernel, for the compute capability it was
 * found for, while no registration has changed the tables since
 * (`generation`, which each one advances): a launch then takes no lock
 * and scans nothing, whatever the passes of its build. */
typedef struct launch_pick {
  const cuemu_kernel_desc *desc; /* NULL: an empty slot */
  const cuemu_kernel_desc *code;
  const char *images;
  unsigned long generation;
  int capability; /* major * 10 + minor */
  int runs;
} launch_pick;
enum { PICK_SLOTS = 32 };
/* Each thread's slots, allocated when it first launches (libcuemu's TLS is
 * initial-exec, where a library loaded by dlopen has little room: only
 * the pointer is thread-local), freed when it exits. */
static __thread launch_pick *picks;
static pthread_key_t picks_key;
static pthread_once_t picks_once = PTHREAD_ONCE_INIT;

static void make_picks_key(void) { pthread_key_create(&picks_key, free); }

/* The slot of `desc` among the thread's, or NULL when out of memory. */
static launch_pick *pick_slot(const cuemu_kernel_desc *desc) {
  if (!picks) {
    pthread_once(&picks_once, make_picks_key);
    picks = calloc(PICK_SLOTS, sizeof *picks);
    if (!picks)
      return NULL;
    pthread_setspecific(picks_key, picks);
  }
  return &picks[((uintptr_t)desc / sizeof(cuemu_kernel_desc)) % PICK_SLOTS];
}

/* The pick of `desc` (not NULL) for the current device, in *p: the
 * thread's cached one, else found (and cached, memory allowing). */
static void pick_for(const cuemu_kernel_desc *desc, launch_pick *p) {
  const cuemu_device_model *m = cuemu__device_model();
  const int capability = m->major * 10 + m->minor;
  const unsigned long now = __atomic_load_n(&generation, __ATOMIC_ACQUIRE);
  launch_pick *slot = pick_slot(desc);
  if (slot && slot->desc == desc && slot->generation == now &&
      slot->capability == capability) {
    *p = *slot;
    return;
  }
  const char *images = NULL;
  pthread_mutex_lock(&lock);
  arch_images_locked(desc, &images);
  const cuemu_kernel_desc *code = code_of(desc, m->major, m->minor);
  pthread_mutex_unlock(&lock);
  *p = (launch_pick){desc, code, images, now, capability, 1};
  if (images)
    p->runs = cuemu__device_runs_images(images);
  if (slot)
    *slot = *p;
}

const cuemu_kernel_desc *cuemu__function_code(const cuemu_kernel_desc *desc) {
  if (!__atomic_load_n(&variant_count, __ATOMIC_RELAXED) || !desc ||
      !desc->name)
    return desc;
  launch_pick p;
  pick_for(desc, &p);
  return p.code;
}

int cuemu__program_pass_arch(void) {
  if (!__atomic_load_n(&variant_count, __ATOMIC_ACQUIRE))
    return 0;
  const cuemu_device_model *m = cuemu__device_model();
  pthread_mutex_lock(&lock);
  size_t n = 0;
  const char *best = program_images
                         ? picked_image(program_images, m->major, m->minor, &n)
                         : NULL;
  const int arch = best ? pass_arch_of(NULL, best, n, 0) : 0;
  pthread_mutex_unlock(&lock);
  return arch;
}

/* Whether a device of compute capability major.minor runs the image named
 * by the `n` bytes at `image` ("sm_90a", "compute_80"), as CUDA's driver
 * chooses: a cubin runs on its own major version at its minor one or a
 * higher one (sm_86 on 8.9, not on 9.0), PTX is compiled for any device
 * no older; an 'a' image (sm_90a, compute_90a) runs on its own compute
 * capability only, an 'f' one on its family (the same major version, a
 * minor one no lower). */
static int image_runs(const char *image, size_t n, int major, int minor) {
  const int cubin = strncmp(image, "sm_", 3) == 0;
  const size_t skip = cubin ? 3 : strncmp(image, "compute_", 8) == 0 ? 8 : 0;
  if (!skip || skip >= n)
    return 0;
  char *end;
  const long number = strtol(image + skip, &end, 10);
  const char suffix = end < image + n ? *end : '\0';
  const int own_major = (int)(number / 10), own_minor = (int)(number % 10);
  if (suffix == 'a')
    return own_major == major && own_minor == minor;
  if (cubin || suffix == 'f')
    return own_major == major && own_minor <= minor;
  return own_major * 10 + own_minor <= major * 10 + minor;
}

int cuemu__function_has_image(const cuemu_kernel_desc *desc,
                              const char **images) {
  const char *list = NULL;
  int runs;
  if (desc) {
    launch_pick p;
    pick_for(desc, &p);
    list = p.images;
    runs = p.runs;
  } else {
    arch_images_of(desc, &list);
    runs = cuemu__device_runs_images(list);
  }
  if (images)
    *images = list;
  return runs;
}

int cuemu__device_pick_list(const char *const *lists, int n) {
  const cuemu_device_model *m = cuemu__device_model();
  size_t total = 1;
  for (int i = 0; i < n; ++i)
    total += strlen(lists[i]) + 1;
  char *all = malloc(total);
  if (!all)
    return -1;
  all[0] = '\0';
  for (int i = 0; i < n; ++i) {
    if (all[0] && lists[i][0])
      strcat(all, ",");
    strcat(all, lists[i]);
  }
  size_t len = 0;
  const char *image = picked_image(all, m->major, m->minor, &len);
  int found = -1;
  for (int i = 0; image && i < n && found < 0; ++i)
    if (lists_image(lists[i], image, len))
      found = i;
  free(all);
  return found;
}

int cuemu__device_runs_images(const char *list) {
  if (!list)
    return 1;
  const cuemu_device_model *m = cuemu__device_model();
  for (const char *p = list; *p;) {
    const size_t n = strcspn(p, ",");
    if (image_runs(p, n, m->major, m->minor))
      return 1;
    p += n + (p[n] == ',');
  }
  return 0;
}

const cuemu_kernel_desc *cuemu__function_find(const void *function) {
  const cuemu_kernel_desc *found = NULL;
  if (!function)
    return NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < module_count && !found; ++i)
    for (int k = 0; k < modules[i]->kernel_count; ++k)
      if (modules[i]->kernels[k].thunk &&
          modules[i]->kernels[k].function == function) {
        found = &modules[i]->kernels[k];
        break;
      }
  pthread_mutex_unlock(&lock);
  return found;
}

const cuemu_kernel_desc *cuemu_program_find(const void *function) {
  return cuemu__function_find(function);
}

const void *cuemu__function_identity(const cuemu_kernel_desc *kernel,
                                     void **args) {
  if (kernel->function)
    return kernel->function;
  if (kernel->params && args)
    return args[kernel->param_count];
  return kernel;
}

/* The entry of `function`, or NULL. Called with the lock. */
static function_entry *entry_of(const void *function) {
  for (size_t i = 0; i < entry_count; ++i)
    if (entries[i].function == function)
      return &entries[i];
  return NULL;
}

/* The entry of `function`, created with the defaults when there is none;
 * NULL when out of memory. Called with the lock. */
static function_entry *entry_for(const void *function) {
  function_entry *e = entry_of(function);
  if (e)
    return e;
  if (entry_count == entry_capacity) {
    size_t n = entry_capacity ? entry_capacity * 2 : 8;
    function_entry *grown = realloc(entries, n * sizeof *grown);
    if (!grown)
      return NULL;
    entries = grown;
    entry_capacity = n;
  }
  e = &entries[entry_count++];
  e->function = function;
  e->max_dynamic_shared = DEFAULT_DYNAMIC_SHARED;
  e->carveout = -1;
  e->static_shared = 0;
  e->declarations = NULL;
  e->declaration_count = 0;
  e->nonportable_cluster = 0;
  e->frame_known = 0;
  e->frame = 0;
  e->scheduling_policy = 0;
  e->launches_grids = 0;
  e->unoptimized = 0;
  return e;
}

size_t cuemu__function_max_dynamic_shared(const void *function) {
  size_t limit = cuemu__device_model()->shared_per_block;
  pthread_mutex_lock(&lock);
  function_entry *e = entry_of(function);
  if (e && e->max_dynamic_shared != DEFAULT_DYNAMIC_SHARED)
    limit = e->max_dynamic_shared;
  pthread_mutex_unlock(&lock);
  return limit;
}

cuemu_status cuemu__function_set(const void *function, const char *name,
                                 int attribute, int value) {
  const cuemu_device_model *m = cuemu__device_model();
  if (attribute == CUEMU_FUNCTION_MAX_DYNAMIC_SHARED) {
    if (value < 0 || (size_t)value > m->shared_per_block_optin)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "kernel %s: %d bytes of dynamic shared memory is "
                           "past the opt-in limit of %zu",
                           name, value, m->shared_per_block_optin);
  } else if (attribute == CUEMU_FUNCTION_CARVEOUT) {
    if (value < -1 || value > 100)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "kernel %s: a shared-memory carveout of %d%% (-1 "
                           "or 0 to 100 are allowed)",
                           name, value);
  } else if (attribute == CUEMU_FUNCTION_NONPORTABLE_CLUSTER) {
    if (value != 0 && value != 1)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "kernel %s: NonPortableClusterSizeAllowed is 0 "
                           "or 1, not %d",
                           name, value);
  } else if (attribute == CUEMU_FUNCTION_CLUSTER_SCHEDULING) {
    if (value < 0 || value > 2)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "kernel %s: ClusterSchedulingPolicyPreference is "
                           "0 (default), 1 (spread) or 2 (load balancing), "
                           "not %d",
                           name, value);
  } else if (attribute >= CUEMU_FUNCTION_FIRST_CLUSTER &&
             attribute <= CUEMU_FUNCTION_LAST_CLUSTER) {
    return CUEMU_SUCCESS; /* the other cluster attributes are hints */
  } else {
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "kernel %s: %d is not a settable function attribute",
                         name, attribute);
  }
  pthread_mutex_lock(&lock);
  function_entry *e = entry_for(function);
  if (!e) {
    pthread_mutex_unlock(&lock);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  }
  if (attribute == CUEMU_FUNCTION_MAX_DYNAMIC_SHARED)
    e->max_dynamic_shared = (size_t)value;
  else if (attribute == CUEMU_FUNCTION_NONPORTABLE_CLUSTER)
    e->nonportable_cluster = value;
  else if (attribute == CUEMU_FUNCTION_CLUSTER_SCHEDULING)
    e->scheduling_policy = value;
  else
    e->carveout = value;
  pthread_mutex_unlock(&lock);
  return CUEMU_SUCCESS;
}

void cuemu__function_attributes(const void *function,
                                const cuemu_kernel_desc *desc,
                                cuemu_kernel_attributes *out) {
  const cuemu_device_model *m = cuemu__device_model();
  int carveout = -1;
  size_t dynamic_limit = m->shared_per_block, noted = 0;
  /* The launch bounds and static shared memory are those of the code the
   * device runs: a further device pass's own (CUB's tuning policies give
   * each architecture its block size and shared storage). */
  const cuemu_kernel_desc *code = desc ? cuemu__function_code(desc) : NULL;
  pthread_mutex_lock(&lock);
  function_entry *e = entry_of(function);
  if (e) {
    carveout = e->carveout;
    if (e->max_dynamic_shared != DEFAULT_DYNAMIC_SHARED)
      dynamic_limit = e->max_dynamic_shared;
    noted = e->static_shared;
  }
  function_entry *c =
      code && code->function && code->function != function
          ? entry_of(code->function)
          : NULL;
  if (c && c->static_shared > noted)
    noted = c->static_shared;
  pthread_mutex_unlock(&lock);
  unsigned most = m->max_threads_per_block;
  if (code && code->max_threads && code->max_threads < most)
    most = code->max_threads;
  out->max_threads_per_block = most;
  out->static_shared_bytes =
      code && code->static_shared > noted ? code->static_shared : noted;
  out->max_dynamic_shared_bytes = dynamic_limit;
  out->preferred_carveout = carveout;
  /* Registers and constant memory are not known on the host; 32 registers
   * lets every block shape of the device be resident. Local memory is read
   * when asked (cuemu__function_local_bytes). */
  out->num_regs = 32;
  out->const_bytes = 0;
  out->local_bytes = 0;
  /* As CUDA reports them for the image its driver picks for the current
   * device: the PTX is the virtual architecture the picked image was made
   * from (its device pass's); the binary is the picked cubin's, else the
   * device's own (the driver compiles the PTX). Without the build's images:
   * -arch=sm_XY's fat binary (sm_XY code and compute_XY PTX). */
  const int device = m->major * 10 + m->minor;
  int arch = 0, binary = 0;
  pthread_mutex_lock(&lock);
  long i = desc ? module_of(desc) : -1;
  if (i >= 0 && !module_arch[i])
    i = -1; /* as arch_images_of() */
  const char *images = i >= 0 ? module_images[i] : program_images;
  arch = i >= 0 ? module_arch[i] : program_arch;
  size_t n = 0;
  const char *best =
      images ? picked_image(images, m->major, m->minor, &n) : NULL;
  if (best) {
    arch = pass_arch_of(i >= 0 ? modules[i] : NULL, best, n, arch);
    binary = strncmp(best, "sm_", 3) == 0 ? (int)strtol(best + 3, NULL, 10)
                                          : device;
  }
  pthread_mutex_unlock(&lock);
  out->ptx_version = arch ? arch : device;
  out->binary_version =
      binary ? binary
      : arch && arch / 10 == m->major && arch % 10 <= m->minor ? arch
                                                               : device;
}

size_t cuemu__function_frame(const void *function) {
  if (!function)
    return 0;
  pthread_mutex_lock(&lock);
  function_entry *e = entry_of(function);
  int known = e && e->frame_known;
  size_t frame = known ? e->frame : 0;
  pthread_mutex_unlock(&lock);
  if (known)
    return frame;
  /* Read outside the lock: it walks the loaded objects' unwind tables. */
  frame = cuemu__frame_size_deep(function);
  pthread_mutex_lock(&lock);
  e = entry_for(function);
  if (e) {
    e->frame = frame;
    e->frame_known = 1;
  }
  pthread_mutex_unlock(&lock);
  return frame;
}

size_t cuemu__function_local_bytes(const void *function,
                                   const cuemu_kernel_desc *desc) {
  return cuemu__frame_size(desc && desc->function ? desc->function : function);
}

int cuemu__function_cluster_nonportable(const void *function) {
  pthread_mutex_lock(&lock);
  function_entry *e = entry_of(function);
  int allowed = e ? e->nonportable_cluster : 0;
  pthread_mutex_unlock(&lock);
  return allowed;
}

void cuemu_kernel_set_launches_grids(const void *function) {
  if (!function)
    return;
  pthread_mutex_lock(&lock);
  function_entry *e = entry_for(function);
  if (e)
    e->launches_grids = 1;
  pthread_mutex_unlock(&lock);
}

void cuemu_kernel_set_unoptimized(const void *function) {
  if (!function)
    return;
  pthread_mutex_lock(&lock);
  function_entry *e = entry_for(function);
  if (e)
    e->unoptimized = 1;
  pthread_mutex_unlock(&lock);
}

int cuemu__function_unoptimized(const void *function) {
  pthread_mutex_lock(&lock);
  function_entry *e = function ? entry_of(function) : NULL;
  int unoptimized = e ? e->unoptimized : 0;
  pthread_mutex_unlock(&lock);
  return unoptimized;
}

int cuemu_kernel_launches_grids(const void *function) {
  pthread_mutex_lock(&lock);
  function_entry *e = function ? entry_of(function) : NULL;
  int launches = e ? e->launches_grids : 0;
  pthread_mutex_unlock(&lock);
  return launches;
}

int cuemu__function_cluster_scheduling(const void *function) {
  pthread_mutex_lock(&lock);
  function_entry *e = entry_of(function);
  int policy = e ? e->scheduling_policy : 0;
  pthread_mutex_unlock(&lock);
  return policy;
}

void cuemu__function_forget(const cuemu_module_desc *module) {
  pthread_mutex_lock(&lock);
  tables_changed(); /* its descriptors' memory may serve another's */
  for (int k = 0; module && k < module->kernel_count; ++k) {
    function_entry *e = entry_of(module->kernels[k].function);
    if (e) {
      free(e->declarations);
      *e = entries[--entry_count];
    }
    /* The thunk's entry holds only its frame (cuemu__function_frame). */
    e = entry_of((const void *)module->kernels[k].thunk);
    if (e) {
      free(e->declarations);
      *e = entries[--entry_count];
    }
  }
  pthread_mutex_unlock(&lock);
}

void cuemu_kernel_declare_static_shared(const void *kernel,
                                        unsigned long long declaration,
                                        size_t bytes) {
  pthread_mutex_lock(&lock);
  function_entry *e = entry_for(kernel);
  size_t k = 0;
  while (e && k < e->declaration_count && e->declarations[k] != declaration)
    k++;
  if (e && k == e->declaration_count) {
    unsigned long long *grown =
        realloc(e->declarations, (k + 1) * sizeof *grown);
    if (grown) {
      grown[k] = declaration;
      e->declarations = grown;
      e->declaration_count = k + 1;
      e->static_shared += bytes;
    }
  }
  pthread_mutex_unlock(&lock);
}

/* Whether `p` lies in [lo, hi). */
static int within(const void *p, uintptr_t lo, uintptr_t hi) {
  return (uintptr_t)p >= lo && (uintptr_t)p < hi;
}

void cuemu__function_forget_range(uintptr_t lo, uintptr_t hi) {
  pthread_mutex_lock(&lock);
  tables_changed(); /* the picks cached for its kernels are stale */
  for (size_t i = 0; i < module_count;) {
    if (!within(modules[i], lo, hi)) {
      ++i;
      continue;
    }
    /* Its images stay allocated: program_images may name them. */
    --module_count;
    modules[i] = modules[module_count];
    module_arch[i] = module_arch[module_count];
    module_images[i] = module_images[module_count];
  }
  for (size_t i = 0; i < variant_count;) {
    if (within(variants[i].first, lo, hi) || within(variants[i].desc, lo, hi))
      variants[i] = variants[--variant_count];
    else
      ++i;
  }
  for (size_t i = 0; i < instance_variant_count;) {
    if (within((const void *)instance_variants[i].first, lo, hi) ||
        within(instance_variants[i].desc, lo, hi))
      instance_variants[i] = instance_variants[--instance_variant_count];
    else
      ++i;
  }
  /* The settings of its kernels and thunks: another object loaded at the
   * same addresses later starts without them. */
  for (size_t i = 0; i < entry_count;) {
    if (within(entries[i].function, lo, hi)) {
      free(entries[i].declarations);
      entries[i] = entries[--entry_count];
    } else {
      ++i;
    }
  }
  pthread_mutex_unlock(&lock);
}
