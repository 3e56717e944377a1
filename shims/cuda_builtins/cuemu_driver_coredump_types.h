/*
 * cuemu_driver_coredump_types.h: the types of the driver API's core dump
 * attributes and execution affinity (CUexecAffinityParam is declared in
 * cuda.h), in CUDA 13's layout. C reads them too: cuda.h's C view
 * (cuemu_driver_c_decls.h, written by scripts/driver_c_view.py) includes
 * this header where cuemu_driver_coredump_api.h reads it.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_COREDUMP_TYPES_H
#define CUEMU_DRIVER_COREDUMP_TYPES_H

typedef enum CUcoredumpSettings_enum {
  CU_COREDUMP_ENABLE_ON_EXCEPTION = 1,
  CU_COREDUMP_TRIGGER_HOST,
  CU_COREDUMP_LIGHTWEIGHT,
  CU_COREDUMP_ENABLE_USER_TRIGGER,
  CU_COREDUMP_FILE,
  CU_COREDUMP_PIPE,
  CU_COREDUMP_GENERATION_FLAGS,
  CU_COREDUMP_MAX
} CUcoredumpSettings;

typedef enum CUCoredumpGenerationFlags {
  CU_COREDUMP_DEFAULT_FLAGS = 0,
  CU_COREDUMP_SKIP_NONRELOCATED_ELF_IMAGES = (1 << 0),
  CU_COREDUMP_SKIP_GLOBAL_MEMORY = (1 << 1),
  CU_COREDUMP_SKIP_SHARED_MEMORY = (1 << 2),
  CU_COREDUMP_SKIP_LOCAL_MEMORY = (1 << 3),
  CU_COREDUMP_SKIP_ABORT = (1 << 4),
  CU_COREDUMP_SKIP_CONSTBANK_MEMORY = (1 << 5),
  CU_COREDUMP_LIGHTWEIGHT_FLAGS =
      CU_COREDUMP_SKIP_NONRELOCATED_ELF_IMAGES |
      CU_COREDUMP_SKIP_GLOBAL_MEMORY | CU_COREDUMP_SKIP_SHARED_MEMORY |
      CU_COREDUMP_SKIP_LOCAL_MEMORY | CU_COREDUMP_SKIP_CONSTBANK_MEMORY
} CUCoredumpGenerationFlags;

/* Execution affinity (cuda.h's types; CUexecAffinityParam is declared by
 * cuda.h). */
typedef enum CUexecAffinityType_enum {
  CU_EXEC_AFFINITY_TYPE_SM_COUNT = 0,
  CU_EXEC_AFFINITY_TYPE_MAX
} CUexecAffinityType;

typedef struct CUexecAffinitySmCount_st {
  unsigned int val;
} CUexecAffinitySmCount_v1;
typedef CUexecAffinitySmCount_v1 CUexecAffinitySmCount;

struct CUexecAffinityParam_st {
  CUexecAffinityType type;
  union {
    CUexecAffinitySmCount smCount;
  } param;
};
typedef CUexecAffinityParam CUexecAffinityParam_v1;

#endif /* CUEMU_DRIVER_COREDUMP_TYPES_H */
