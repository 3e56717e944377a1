/*
 * cuemu_ptx_abi.c: the functions of CUDA's device ABI that nvcc's PTX calls
 * by name (`.extern .func malloc`, `free`, `__assertfail`), for cuemu's JIT
 * of PTX text (cuemu_ptx_module.c binds each to the module's calls). Each
 * takes the addresses of its return and parameter slots, as the functions
 * of a translated module do: slots[0] is the return's (or null), slots[1]
 * onwards the parameters' in order. vprintf, the fourth, is in
 * cuemu_printf.c with the rest of printf.
 */
#include <stddef.h>
#include <string.h>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_device_runtime.h>

/* The parameter in slot i, of the type of *value. */
#define SLOT(slots, i, value) memcpy(&(value), (slots)[i], sizeof(value))

void cuemu_ptx_malloc(void **__cuemu_slots) {
  size_t size = 0;
  SLOT(__cuemu_slots, 1, size);
  void *p = cuemu_device_malloc(size);
  if (__cuemu_slots[0]) memcpy(__cuemu_slots[0], &p, sizeof p);
}

void cuemu_ptx_free(void **__cuemu_slots) {
  void *p = NULL;
  SLOT(__cuemu_slots, 1, p);
  cuemu_device_free(p);
}

/* __assertfail(message, file, line, function, character size): the failed
 * assert() of a kernel. */
void cuemu_ptx_assertfail(void **__cuemu_slots) {
  const char *message = NULL, *file = NULL, *function = NULL;
  unsigned line = 0;
  SLOT(__cuemu_slots, 1, message);
  SLOT(__cuemu_slots, 2, file);
  SLOT(__cuemu_slots, 3, line);
  SLOT(__cuemu_slots, 4, function);
  cuemu_kernel_assert_fail(message, file, (int)line, function);
}
