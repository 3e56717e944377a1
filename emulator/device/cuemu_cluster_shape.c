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
  unsigned long long blocks = (unsigned long long)c.x * c.y * c.z;
  if (!c.x || !c.y || !c.z || blocks > CUEMU_MAX_CLUSTER_BLOCKS)
    return cuemu__report(CUEMU_CLUSTER_SIZE,
                         "kernel %s: clusters of (%u,%u,%u) blocks; a "
                         "cluster has 1 to %u blocks",
                         name, c.x, c.y, c.z, CUEMU_MAX_CLUSTER_BLOCKS);
  if (r->grid.x % c.x || r->grid.y % c.y || r->grid.z % c.z)
    return cuemu__report(CUEMU_CLUSTER_SIZE,
                         "kernel %s: grid (%u,%u,%u) is not a whole number "
                         "of clusters of (%u,%u,%u) blocks",
                         name, r->grid.x, r->grid.y, r->grid.z, c.x, c.y, c.z);
  *cluster = c;
  return CUEMU_SUCCESS;
}

int cuemu_occupancy_max_active_clusters(const void *function,
                                        cuemu_uint3 cluster,
                                        cuemu_uint3 block,
                                        size_t dynamic_shared, int *out) {
  cuemu_uint3 compiled;
  if (!out)
    return cudaErrorInvalidValue;
  if (cluster.x == 0 && function &&
      cuemu_kernel_get_cluster_dims(function, &compiled))
    cluster = compiled;
  unsigned long long size =
      (unsigned long long)cluster.x * cluster.y * cluster.z;
  unsigned threads = block.x * block.y * block.z;
  cuemu_kernel_attributes a;
  cuemu__function_attributes(function, cuemu__function_find(function), &a);
  if (size == 0 || size > CUEMU_MAX_CLUSTER_BLOCKS || threads == 0)
    return cudaErrorInvalidClusterSize;
  /* The blocks that fit on the device at once, in whole clusters. */
  unsigned long long resident =
      (unsigned long long)cuemu__device_blocks_per_sm(
          threads, a.static_shared_bytes + dynamic_shared) *
      cuemu__device_model()->sms;
  *out = (int)(resident / size);
  return cudaSuccess;
}
