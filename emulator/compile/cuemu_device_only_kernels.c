/*
 * cuemu_device_only_kernels.c: kernels that the device pass alone defines.
 *
 * nvcc's host pass writes a stub for every __global__ function that its
 * device pass compiles, and the stub names the function: a kernel that
 * the host pass does not see (defined under `#if defined(__CUDA_ARCH__)`)
 * fails to compile there ("'k' was not declared in this scope", nvcc 13's
 * .stub.c), whether or not a launch names it. cuemu's host pass finds the
 * device pass's kernels by address and needs no stub, so it built such
 * programs, whose host code then ran without the kernel. It refuses them
 * as nvcc does, naming the kernel's file and line.
 *
 * A kernel template gets a stub for each instance that the device pass
 * makes (a launch in host or device code, an explicit instantiation or
 * specialization); one that nothing instantiates builds with nvcc. The
 * translation does not see the instances, the device pass's object does:
 * the records of its kernel template instances (cuemu_kernel_instances.h)
 * name their symbols, whose mangled names begin with the template's
 * qualified name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"
#include "cuemu_rewrite.h"

/* Non-zero when the pass `rw` has a kernel (a declaration or a definition)
 * named `name`. */
static int has_kernel(const cuemu_rewrite *rw, const char *name) {
  for (int i = 0; i < rw->kernel_count; ++i)
    if (rw->kernels[i].name && strcmp(rw->kernels[i].name, name) == 0)
      return 1;
  return 0;
}

/* Reports the kernel `name` (a kernel template where `is_template`) of
 * the device pass alone at file:line. */
static cuemu_status refuse(int is_template, const char *file, int line,
                           const char *name) {
  /* g++'s words in nvcc's stub: a qualified name is not a member. */
  const char *last = strrchr(name, ':');
  const char *unqualified = last ? last + 1 : name;
  int scope = last && last - name >= 1 ? (int)(last - name - 1) : 0;
  return cuemu__report(
      CUEMU_COMPILE,
      "%s:%d: error: %s '%s' is defined in the device pass only (within "
      "#if __CUDA_ARCH__)%s: nvcc's host pass, whose stub names every "
      "kernel of the device pass, refuses it ('%s' %s%.*s%s)",
      file, line, is_template ? "kernel template" : "kernel", name,
      is_template ? " and the device pass makes an instance of it" : "",
      unqualified,
      scope ? "is not a member of '" : "was not declared in this scope", scope,
      name, scope ? "'" : "");
}

cuemu_status cuemu__device_only_kernels(const cuemu_rewrite *device,
                                        const cuemu_rewrite *host,
                                        const char *source,
                                        cuemu_device_template **templates,
                                        int *count) {
  *templates = NULL;
  *count = 0;
  for (int i = 0; i < device->kernel_count; ++i) {
    const cuemu_kernel_decl *k = &device->kernels[i];
    if (!k->is_definition || !k->name || has_kernel(host, k->name))
      continue;
    const char *file = k->file ? k->file : source;
    if (!k->is_template) {
      cuemu__device_templates_free(*templates, *count);
      *templates = NULL;
      *count = 0;
      return refuse(0, file, k->line, k->name);
    }
    cuemu_device_template *more =
        realloc(*templates, (size_t)(*count + 1) * sizeof **templates);
    char *name = strdup(k->name), *where = strdup(file);
    if (more)
      *templates = more;
    if (!more || !name || !where) {
      free(name);
      free(where);
      cuemu__device_templates_free(*templates, *count);
      *templates = NULL;
      *count = 0;
      return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
    }
    more[*count].name = name;
    more[*count].file = where;
    more[*count].line = k->line;
    ++*count;
  }
  return CUEMU_SUCCESS;
}

/* Non-zero when the mangled name `symbol` names an instance of the
 * function template `name` ("ns::k": _ZN2ns1kI..., "k": _Z1kI...), an
 * unnamed namespace's anywhere in it too (the translation's named one,
 * CUEMU_UNNAMED_NAMESPACE, or a compiler's _GLOBAL__N_1). */
static int instance_of(const char *symbol, const char *name) {
  if (strncmp(symbol, "_Z", 2) != 0)
    return 0;
  const char *m = symbol + 2;
  int nested = *m == 'N';
  m += nested;
  const char *part = name;
  int parts = 0;
  for (;;) {
    while (*part == ':')
      part++;
    if (!*part)
      break;
    size_t want = strcspn(part, ":");
    char *end;
    unsigned long length = strtoul(m, &end, 10);
    if (end == m || length == 0 || strlen(end) < length)
      return 0;
    if ((length == 12 && strncmp(end, "_GLOBAL__N_1", 12) == 0) ||
        strncmp(end, CUEMU_UNNAMED_NAMESPACE,
                sizeof CUEMU_UNNAMED_NAMESPACE - 1) == 0) {
      m = end + length;
      continue;
    }
    if (length != want || strncmp(end, part, want) != 0)
      return 0;
    m = end + length;
    part += want;
    parts++;
  }
  return parts > 0 && (nested || parts == 1) && *m == 'I';
}

/* What cuemu__device_template_instances() looks for, and what it found. */
typedef struct template_search {
  const cuemu_device_template *templates;
  int count;
  int found; /* the index of the first one instantiated, or -1 */
} template_search;

static int find_template(const char *symbol, void *data) {
  template_search *search = data;
  for (int i = 0; i < search->count; ++i)
    if (instance_of(symbol, search->templates[i].name)) {
      search->found = i;
      return 1;
    }
  return 0;
}

cuemu_status cuemu__device_template_instances(
    const char *object, const cuemu_device_template *templates, int count) {
  if (count == 0)
    return CUEMU_SUCCESS;
  template_search search = {templates, count, -1};
  cuemu_status st = cuemu__elf_instance_symbols(object, find_template, &search);
  if (st != CUEMU_SUCCESS || search.found < 0)
    return st;
  const cuemu_device_template *t = &templates[search.found];
  return refuse(1, t->file, t->line, t->name);
}

void cuemu__device_templates_free(cuemu_device_template *templates, int count) {
  for (int i = 0; i < count; ++i) {
    free(templates[i].name);
    free(templates[i].file);
  }
  free(templates);
}
