/*
 * cuemu_cluster_shape.c: the kernels' __cluster_dims__ (registered with
 * their descriptors) and the cluster shape of a launch (see
 * cuemu_cluster_shape.h and cuemu_device_runtime.h).
 */
#include "device/cuemu_cluster_shape.h"

#include <pthread.h>
#include <stdlib.h>

#include <cuemu/cuemu_device_runtime.h>
#include <cuemu/cuemu_rt_types.h>

#include "base/cuemu_report.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_functions.h"

typedef struct shape_entry {
  const void *function;
  cuemu_uint3 dims;
} shape_entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static shape_entry *table;
static size_t count, capacity;

void cuemu_kernel_set_cluster_dims(const void *function, unsigned x,
                                   unsigned y, unsigned z) {
  if (!function)
    return;
  pthread_mutex_lock(&lock);
  size_t i;
  for (i = 0; i < count && table[i].function != function; ++i)
    ;
  if (i == count && count == capacity) {
    size_t cap = capacity ? 2 * capacity : 16;
    shape_entry *grown = realloc(table, cap * sizeof *grown);
    if (grown) {
      table = grown;
      capacity = cap;
    }
  }
  if (i < capacity) {
    table[i].function = function;
    table[i].dims = (cuemu_uint3){x, y, z};
    if (i == count)
      count++;
  }
  pthread_mutex_unlock(&lock);
}

int cuemu_kernel_get_cluster_dims(const void *function, cuemu_uint3 *dims) {
  int found = 0;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < count; ++i)
    if (table[i].function == function) {
      if (dims)
        *dims = table[i].dims;
      found = 1;
      break;
    }
  pthread_mutex_unlock(&lock);
  return found;
}

void cuemu__cluster_attributes(const void *function,
                               cuemu_cluster_attributes *a) {
  cuemu_uint3 dims = {0, 0, 0};
  *a = (cuemu_cluster_attributes){{0, 0, 0}, 0, 0, 0};
  if (!function)
    return;
  a->must_be_set = cuemu_kernel_get_cluster_dims(function, &dims);
  a->required[0] = dims.x;
  a->required[1] = dims.y;
  a->required[2] = dims.z;
  a->nonportable = cuemu__function_cluster_nonportable(function);
  a->scheduling = cuemu__function_cluster_scheduling(function);
}

cuemu_status cuemu__cluster_shape(const cuemu_launch_request *r,
                                  const void *function, cuemu_dim3 *cluster) {
  cuemu_uint3 compiled = {0, 0, 0};
  int has = function && cuemu_kernel_get_cluster_dims(function, &compiled);
  cuemu_dim3 c = r->cluster;
  const char *name = r->kernel->name;
  *cluster = (cuemu_dim3){0, 0, 0};
  if (c.x == 0 && !has)
    return CUEMU_SUCCESS;
  if (c.x && has &&
      (c.x != compiled.x || c.y != compiled.y || c.z != compiled.z))
    return cuemu__report(CUEMU_CLUSTER_SIZE,
                         "kernel %s: launched with clusters of (%u,%u,%u) "
                         "blocks, but its __cluster_dims__ are (%u,%u,%u)",
                         name, c.x, c.y, c.z, compiled.x, compiled.y,
                         compiled.z);
  if (c.x == 0)
    c = (cuemu_dim3){compiled.x, compiled.y, compiled.z};
  *cluster = c;
  return CUEMU_SUCCESS;
}
