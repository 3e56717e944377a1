/*
 * cuemu_variable_copies.c: the further device passes' own copies of
 * __device__ and __constant__ variables whose initializers hold device
 * code's addresses (cuemu_program_register_variable_copies()), which the
 * host's symbol calls reach on a device that runs that pass, as on a GPU
 * each device's symbol is its cubin's.
 */
#include <pthread.h>
#include <stdlib.h>

#include "device/cuemu_functions.h"

/* The registered sections, each once. */
typedef struct copy_range {
  const cuemu_variable_copy *begin, *end;
} copy_range;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static copy_range *ranges;
static size_t range_count; /* read without the lock while 0 */

void cuemu_program_register_variable_copies(const cuemu_variable_copy *begin,
                                            const cuemu_variable_copy *end) {
  if (!begin || end <= begin)
    return;
  pthread_mutex_lock(&lock);
  size_t k = 0;
  while (k < range_count && ranges[k].begin != begin)
    ++k;
  if (k == range_count) {
    copy_range *grown = realloc(ranges, (range_count + 1) * sizeof *grown);
    if (grown) {
      ranges = grown;
      ranges[range_count] = (copy_range){begin, end};
      __atomic_store_n(&range_count, range_count + 1, __ATOMIC_RELEASE);
    }
  }
  pthread_mutex_unlock(&lock);
}

void *cuemu__variable_copy(const void *symbol) {
  if (!symbol || !__atomic_load_n(&range_count, __ATOMIC_ACQUIRE))
    return (void *)symbol;
  const int arch = cuemu__program_pass_arch();
  if (!arch)
    return (void *)symbol;
  void *found = (void *)symbol;
  pthread_mutex_lock(&lock);
  for (size_t k = 0; k < range_count && found == symbol; ++k)
    for (const cuemu_variable_copy *c = ranges[k].begin; c < ranges[k].end;
         ++c)
      if (c->first == symbol && c->arch == arch && c->copy) {
        found = c->copy;
        break;
      }
  pthread_mutex_unlock(&lock);
  return found;
}
