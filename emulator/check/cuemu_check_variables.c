/*
 * cuemu_check_variables.c: the namespace-scope __device__ variables of the
 * loaded program and modules, which cuemu-cc's notes register at load
 * (CUEMU_DEVICE_NOTE, cuemu_qualifiers.h), so that schedule perturbation
 * (cuemu_check_perturb.c) saves, restores and compares them as it does
 * tracked allocations: a kernel's atomicAdd on a __device__ counter then
 * counts once, not once per run. Only the variables the program's own
 * code defines are noted, never the shims' (which keep host-side pointers
 * that legitimately differ between the runs of a launch). Racecheck
 * watches them too, and names them in its reports.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_runtime.h>

#include "check/cuemu_check.h"

typedef struct variable {
  const void *base;
  size_t size;
  const char *name, *file; /* NULL from objects of earlier versions */
  int line;
} variable;

static pthread_mutex_t variables_lock = PTHREAD_MUTEX_INITIALIZER;
static variable *variables;
static size_t nvariables, variables_capacity;

int cuemu_device_variable_register_named(const void *p, size_t size,
                                         const char *name, const char *file,
                                         int line) {
  if (!p || !size)
    return 0;
  pthread_mutex_lock(&variables_lock);
  if (nvariables == variables_capacity) {
    size_t cap = variables_capacity ? 2 * variables_capacity : 64;
    variable *grown = realloc(variables, cap * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&variables_lock);
      return 0;
    }
    variables = grown;
    variables_capacity = cap;
  }
  variables[nvariables++] = (variable){p, size, name, file, line};
  pthread_mutex_unlock(&variables_lock);
  return 1;
}

int cuemu_device_variable_register(const void *p, size_t size) {
  return cuemu_device_variable_register_named(p, size, NULL, NULL, 0);
}

void cuemu_device_variable_unregister(const void *p) {
  pthread_mutex_lock(&variables_lock);
  for (size_t i = nvariables; i-- > 0;)
    if (variables[i].base == p) {
      variables[i] = variables[--nvariables];
      break;
    }
  pthread_mutex_unlock(&variables_lock);
}

/* Whether a live entry of a[0..n) overlaps [lo, hi). */
static int covered(const cuemu_rt_allocation *a, size_t n, uintptr_t lo,
                   uintptr_t hi) {
  for (size_t i = 0; i < n; ++i) {
    uintptr_t b = (uintptr_t)a[i].base;
    if (a[i].state == CUEMU_RT_MEMORY_LIVE && b < hi && lo < b + a[i].size)
      return 1;
  }
  return 0;
}

size_t cuemu__check_variables_append(cuemu_rt_allocation **a, size_t n) {
  pthread_mutex_lock(&variables_lock);
  cuemu_rt_allocation *grown =
      nvariables ? realloc(*a, (n + nvariables) * sizeof *grown) : NULL;
  if (grown) {
    *a = grown;
    for (size_t i = 0; i < nvariables; ++i) {
      uintptr_t lo = (uintptr_t)variables[i].base;
      if (covered(grown, n, lo, lo + variables[i].size))
        continue;
      grown[n++] = (cuemu_rt_allocation){(void *)(uintptr_t)lo,
                                         variables[i].size,
                                         CUEMU_RT_MEMORY_SYMBOL,
                                         CUEMU_RT_MEMORY_LIVE, 0};
    }
  }
  pthread_mutex_unlock(&variables_lock);
  return n;
}

int cuemu__check_variables_name(const void *base, const char **name,
                                const char **file, int *line) {
  int found = 0;
  pthread_mutex_lock(&variables_lock);
  for (size_t i = 0; i < nvariables && !found; ++i)
    if (variables[i].base == base && variables[i].name) {
      *name = variables[i].name;
      *file = variables[i].file;
      *line = variables[i].line;
      found = 1;
    }
  pthread_mutex_unlock(&variables_lock);
  return found;
}

int cuemu__check_variables_hold(const void *p) {
  uintptr_t a = (uintptr_t)p;
  int found = 0;
  pthread_mutex_lock(&variables_lock);
  for (size_t i = 0; i < nvariables && !found; ++i)
    found = a >= (uintptr_t)variables[i].base &&
            a - (uintptr_t)variables[i].base < variables[i].size;
  pthread_mutex_unlock(&variables_lock);
  return found;
}
