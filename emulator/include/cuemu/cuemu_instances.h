/*
 * cuemu_instances.h: the registration of kernel template instances, which
 * the host pass of every translation unit asks for when the program starts
 * (see shims/cuda_builtins/cuemu_kernel_instances.h). The work is done
 * once per program in libcuemu, so that no translation unit compiles it.
 */
#ifndef CUEMU_INSTANCES_H
#define CUEMU_INSTANCES_H

#include "cuemu_device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One entry of a program's section `cuemu_instances`: seven words, the
 * layout that emulator/compile/cuemu_elf_instances.c reads. `symbol` is the
 * instance's assembler name; `unit` names its translation unit (its .cu).
 * A device pass's (pass 1) `record` registers the instance and returns its
 * cuemu_kernel_desc; a host pass's (pass 2) returns the instance's
 * parameters (an array of cuemu_param_desc ended by a null ctype). */
typedef struct cuemu_instance_record {
  const void *(*record)(const char *file, long line);
  const char *file;
  long line;
  const void *kernel;
  const char *symbol;
  const char *unit;
  long pass;
} cuemu_instance_record;

/* Registers the instances of the records [begin, end) (one program's or
 * module's section), once for each `begin`: every device pass's instance,
 * then every host pass's instance that is not the device pass's (a
 * template argument without linkage, such as a lambda, makes each pass's
 * instance its own) as another name of the device pass's instance of the
 * same unit whose symbol and parameters match. Host code. */
void cuemu_program_register_instances(const cuemu_instance_record *begin,
                                      const cuemu_instance_record *end);

/* The device pass's instance that cuemu_program_register_instances()
 * matched to the host pass's instance `host` (NULL if none). */
const void *cuemu_program_device_instance(const void *host);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_INSTANCES_H */
