/*
 * cuemu_variable_copies.c: the further device passes' own copies of
 * __device__ and __constant__ variables whose initializers hold device
 * code's addresses (cuemu_program_register_variable_copies()), which the
 * host's symbol calls reach on a device that runs that pass, as on a GPU
 * each device's symbol is its cubin's.
 */
#include "device/cuemu_functions.h"
#include "device/cuemu_record_sections.h"

/* The registered sections, each once. */
static cuemu__record_sections sections = CUEMU__RECORD_SECTIONS_INIT;

void cuemu_program_register_variable_copies(const cuemu_variable_copy *begin,
                                            const cuemu_variable_copy *end) {
  cuemu__record_sections_add(&sections, begin, end);
}

void *cuemu__variable_copy(const void *symbol) {
  if (!symbol || !cuemu__record_sections_any(&sections))
    return (void *)symbol;
  const int arch = cuemu__program_pass_arch();
  if (!arch)
    return (void *)symbol;
  void *found = (void *)symbol;
  pthread_mutex_lock(&sections.lock);
  for (size_t k = 0; k < sections.count && found == symbol; ++k)
    for (const cuemu_variable_copy *c = sections.ranges[k].begin;
         c < (const cuemu_variable_copy *)sections.ranges[k].end; ++c)
      if (c->first == symbol && c->arch == arch && c->copy) {
        found = c->copy;
        break;
      }
  pthread_mutex_unlock(&sections.lock);
  return found;
}
