/*
 * cuemu_instances.c: the registration of kernel template instances (see
 * cuemu/cuemu_instances.h and shims/cuda_builtins/cuemu_kernel_instances.h).
 *
 * The host pass of every translation unit calls
 * cuemu_program_register_instances() with its program's section of
 * instance records when the program starts; the first call for a section
 * registers it. The device pass's instances are sorted by (unit, key) and
 * each host pass's instance that is its own is looked up there; the pairs
 * (host instance, device instance) found are kept in one array for
 * cuemu_program_device_instance(). Everything is guarded by one mutex.
 */
#include <cuemu/cuemu_instances.h>

#include "device/cuemu_functions.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct device_entry {
  const char *unit;
  char *key;
  size_t order; /* the record's place: a later record wins */
  const cuemu_kernel_desc *desc;
} device_entry;

typedef struct instance_pair {
  const void *host;
  const void *device;
} instance_pair;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const cuemu_instance_record **sections; /* registered already */
static size_t section_count;
static instance_pair *pairs;
static size_t pair_count;

/* Memory for the registration at program start, which cannot go on
 * without it. */
static void *checked(void *p) {
  if (!p) {
    fputs("cuemu: out of memory registering kernel template instances\n",
          stderr);
    abort();
  }
  return p;
}

static void *allocate(size_t size) { return checked(malloc(size ? size : 1)); }

static void *grow(void *p, size_t size) { return checked(realloc(p, size)); }

/* What tells a kernel template's instance apart in both passes: its
 * symbol, where clang's numbers of unnamed types (`3$_12`, given in the
 * order clang meets them, which differs between the passes) are left out,
 * and the spelling of its parameters' types, where clang names a lambda by
 * its place in the source and g++ by its function and signature (g++'s
 * symbols number lambdas in the source's order). Returns a string to
 * free(). */
static char *instance_key(const char *symbol, const cuemu_param_desc *params) {
  /* The number of the lambda around an extended lambda (lambda_tag<L, C>:
   * `UlN5cuemu10lambda_tagILi24ELm34EEEE0_`, the number before the last
   * `_`), which g++ 12 counts among all the function's lambdas, those of
   * one pass too: the tag is the lambda's place, which tells it apart. */
  static const char tag[] = "10lambda_tagILi";
  size_t size = strlen(symbol) + 1;
  for (const cuemu_param_desc *p = params; p && p->ctype; ++p)
    size += strlen(p->ctype) + 1;
  char *unnumbered = allocate(strlen(symbol) + 1);
  size_t n = 0;
  for (const char *c = symbol; *c; ++c) {
    unnumbered[n++] = *c;
    if (strncmp(c, tag, sizeof tag - 1) != 0)
      continue;
    const char *p = c + sizeof tag - 1;
    while (*p >= '0' && *p <= '9')
      ++p;
    if (strncmp(p, "ELm", 3) != 0)
      continue;
    for (p += 3; *p >= '0' && *p <= '9';)
      ++p;
    if (strncmp(p, "EEEE", 4) != 0)
      continue;
    memcpy(unnumbered + n, c + 1, (size_t)(p + 4 - (c + 1)));
    n += (size_t)(p + 4 - (c + 1));
    for (c = p + 4; *c >= '0' && *c <= '9';)
      ++c;
    --c; /* the `_` is copied next */
  }
  unnumbered[n] = '\0';
  char *key = allocate(size);
  n = 0;
  for (const char *c = unnumbered; *c; ++c) {
    if (c[0] != '$' || c[1] != '_') {
      key[n++] = *c;
      continue;
    }
    /* `3$_12`: the length before it goes too. */
    while (n && key[n - 1] >= '0' && key[n - 1] <= '9')
      --n;
    key[n++] = '$';
    key[n++] = '_';
    for (c += 2; *c >= '0' && *c <= '9'; ++c) {
    }
    --c;
  }
  free(unnumbered);
  for (; params && params->ctype; ++params) {
    key[n++] = '|';
    size_t length = strlen(params->ctype);
    memcpy(key + n, params->ctype, length);
    n += length;
  }
  key[n] = '\0';
  return key;
}

static int compare_entries(const void *a, const void *b) {
  const device_entry *x = a, *y = b;
  int c = strcmp(x->unit, y->unit);
  if (!c)
    c = strcmp(x->key, y->key);
  if (!c)
    c = x->order < y->order ? -1 : x->order > y->order;
  return c;
}

/* The device pass's instance of (unit, key) recorded last, or NULL. */
static const cuemu_kernel_desc *find_device(const device_entry *entries,
                                            size_t count, const char *unit,
                                            const char *key) {
  size_t low = 0, high = count; /* the first entry after (unit, key) */
  while (low < high) {
    size_t mid = low + (high - low) / 2;
    int c = strcmp(entries[mid].unit, unit);
    if (!c)
      c = strcmp(entries[mid].key, key);
    if (c <= 0)
      low = mid + 1;
    else
      high = mid;
  }
  if (!low || strcmp(entries[low - 1].unit, unit) ||
      strcmp(entries[low - 1].key, key))
    return NULL;
  return entries[low - 1].desc;
}

/* Whether the section at `begin` is registered already; marks it so. */
static int seen(const cuemu_instance_record *begin) {
  for (size_t i = 0; i < section_count; ++i)
    if (sections[i] == begin)
      return 1;
  sections = grow(sections, (section_count + 1) * sizeof *sections);
  sections[section_count++] = begin;
  return 0;
}

void cuemu_program_register_instances(const cuemu_instance_record *begin,
                                      const cuemu_instance_record *end) {
  if (!begin)
    return;
  pthread_mutex_lock(&lock);
  if (seen(begin)) {
    pthread_mutex_unlock(&lock);
    return;
  }
  /* The records' functions register kernels (cuemu_program_register takes
   * its own lock), so they are called without this one; a second call for
   * the same section has returned above. */
  pthread_mutex_unlock(&lock);
  size_t count = 0;
  device_entry *entries =
      allocate((size_t)(end - begin) * sizeof *entries);
  for (const cuemu_instance_record *r = begin; r < end; ++r) {
    if (r->pass != 1)
      continue;
    const cuemu_kernel_desc *d = r->record(r->file, r->line);
    if (!d)
      continue;
    entries[count].unit = r->unit;
    entries[count].key = instance_key(r->symbol, d->params);
    entries[count].order = count;
    entries[count].desc = d;
    ++count;
  }
  qsort(entries, count, sizeof *entries, compare_entries);
  for (const cuemu_instance_record *r = begin; r < end; ++r) {
    if (r->pass != 2 || cuemu_program_find(r->kernel))
      continue;
    const cuemu_param_desc *params = r->record(NULL, 0);
    char *key = instance_key(r->symbol, params);
    const cuemu_kernel_desc *found = find_device(entries, count, r->unit, key);
    free(key);
    if (!found)
      continue;
    cuemu_kernel_desc *alias = allocate(sizeof *alias);
    *alias = *found;
    alias->function = r->kernel;
    pthread_mutex_lock(&lock);
    pairs = grow(pairs, (pair_count + 1) * sizeof *pairs);
    pairs[pair_count].host = r->kernel;
    pairs[pair_count++].device = found->function;
    pthread_mutex_unlock(&lock);
    cuemu_module_desc *module = allocate(sizeof *module);
    module->abi = CUEMU_MODULE_ABI;
    module->kernel_count = 1;
    module->kernels = alias;
    cuemu_program_register(module);
  }
  /* A further device pass's instances (their pass word is its
   * __CUDA_ARCH__, 800) are variants of the first pass's instance of the
   * same unit, symbol and parameters, whose code a launch runs when the
   * driver's rule picks that pass's image (cuemu__function_code()). */
  for (const cuemu_instance_record *r = begin; r < end; ++r) {
    if (r->pass < 100)
      continue;
    const cuemu_kernel_desc *v = r->record(r->file, r->line);
    if (!v)
      continue;
    char *key = instance_key(r->symbol, v->params);
    const cuemu_kernel_desc *found = find_device(entries, count, r->unit, key);
    free(key);
    if (found)
      cuemu_program_register_instance_variant(found, v, (int)(r->pass / 10));
  }
  for (size_t i = 0; i < count; ++i)
    free(entries[i].key);
  free(entries);
}

const void *cuemu_program_device_instance(const void *host) {
  const void *device = NULL;
  pthread_mutex_lock(&lock);
  /* The last pair for `host` wins, as a later registration would. */
  for (size_t i = pair_count; i-- > 0;)
    if (pairs[i].host == host) {
      device = pairs[i].device;
      break;
    }
  pthread_mutex_unlock(&lock);
  return device;
}

void cuemu__instances_forget_range(uintptr_t lo, uintptr_t hi) {
  pthread_mutex_lock(&lock);
  /* Its sections: an object loaded at the same address later registers
   * its own (seen() would take them for these). */
  for (size_t i = 0; i < section_count;) {
    if ((uintptr_t)sections[i] >= lo && (uintptr_t)sections[i] < hi)
      sections[i] = sections[--section_count];
    else
      ++i;
  }
  for (size_t i = 0; i < pair_count;) {
    uintptr_t host = (uintptr_t)pairs[i].host,
              device = (uintptr_t)pairs[i].device;
    if ((host >= lo && host < hi) || (device >= lo && device < hi))
      pairs[i] = pairs[--pair_count];
    else
      ++i;
  }
  pthread_mutex_unlock(&lock);
}
