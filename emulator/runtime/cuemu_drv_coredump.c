/*
 * cuemu_drv_coredump.c: the driver API's GPU coredump settings
 * (cuCoredumpGetAttribute, cuCoredumpSetAttribute and their Global forms;
 * see cuemu_driver_api.h). cuemu writes no GPU coredump: a kernel's fault
 * is reported with its thread and source line instead. The settings are
 * validated, kept (the process's, and each context's once one is set on
 * it) and given back, so that a program that configures coredumps runs
 * and reads what it set.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>

#include "runtime/cuemu_drv_internal.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

/* CUcoredumpSettings of cuda.h. */
enum {
  ENABLE_ON_EXCEPTION = 1,
  TRIGGER_HOST = 2,
  LIGHTWEIGHT = 3,
  ENABLE_USER_TRIGGER = 4,
  FILE_NAME = 5,
  PIPE_NAME = 6,
  GENERATION_FLAGS = 7,
  SETTINGS_END = 8
};
/* CU_COREDUMP_SKIP_NONRELOCATED_ELF_IMAGES ... SKIP_CONSTBANK_MEMORY. */
#define GENERATION_FLAGS_MASK 0x3fu
/* The longest file or pipe name: 1023 characters. */
#define NAME_BYTES 1024

typedef struct settings {
  unsigned char flag[5]; /* indexed by the four bool settings */
  char file[NAME_BYTES];
  char pipe[NAME_BYTES];
  int generation_flags;
} settings;

typedef struct context_settings {
  struct context_settings *next;
  const void *context;
  settings s;
} context_settings;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static settings global;
static int global_ready;
static context_settings *contexts;

/* CUDA's defaults: coredumps off, the host also dumping, files named
 * core.cuda.HOSTNAME.PID and corepipe.cuda.HOSTNAME.PID. Under lock. */
static void defaults(void) {
  if (global_ready)
    return;
  char host[256] = "localhost";
  gethostname(host, sizeof host - 1);
  host[sizeof host - 1] = '\0';
  global.flag[TRIGGER_HOST] = 1;
  snprintf(global.file, sizeof global.file, "core.cuda.%s.%ld", host,
           (long)getpid());
  snprintf(global.pipe, sizeof global.pipe, "corepipe.cuda.%s.%ld", host,
           (long)getpid());
  global_ready = 1;
}

/* The settings of `context` (NULL: the process's), made from the
 * process's when `create`; NULL when it has none and !create, or when out
 * of memory. Under lock. */
static settings *settings_of(const void *context, int create) {
  defaults();
  if (!context)
    return &global;
  for (context_settings *c = contexts; c; c = c->next)
    if (c->context == context)
      return &c->s;
  if (!create)
    return NULL;
  context_settings *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->context = context;
  c->s = global;
  c->next = contexts;
  contexts = c;
  return &c->s;
}

/* The bytes a setting's value takes (a string's: its length and NUL). */
static size_t value_size(const settings *s, int attribute) {
  switch (attribute) {
  case FILE_NAME:
    return strlen(s->file) + 1;
  case PIPE_NAME:
    return strlen(s->pipe) + 1;
  case GENERATION_FLAGS:
    return sizeof(int);
  default:
    return 1; /* a C++ bool */
  }
}

static int get(const void *context, int attribute, void *value,
               size_t *size) {
  if (attribute < ENABLE_ON_EXCEPTION || attribute >= SETTINGS_END || !size)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&lock);
  const settings *s = settings_of(context, 0);
  if (!s)
    s = &global;
  size_t need = value_size(s, attribute);
  int e = DRV_CUDA_SUCCESS;
  if (!value) {
    *size = need;
  } else if (*size < need) {
    e = DRV_CUDA_ERROR_INVALID_VALUE;
  } else if (attribute == FILE_NAME || attribute == PIPE_NAME) {
    memcpy(value, attribute == FILE_NAME ? s->file : s->pipe, need);
  } else if (attribute == GENERATION_FLAGS) {
    memcpy(value, &s->generation_flags, sizeof(int));
  } else {
    *(unsigned char *)value = s->flag[attribute];
  }
  pthread_mutex_unlock(&lock);
  return e;
}

static int set(const void *context, int attribute, const void *value,
               size_t *size) {
  if (attribute < ENABLE_ON_EXCEPTION || attribute >= SETTINGS_END || !size)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  /* The user trigger and its pipe are the process's only. */
  if (context && (attribute == ENABLE_USER_TRIGGER || attribute == PIPE_NAME))
    return DRV_CUDA_ERROR_NOT_PERMITTED;
  pthread_mutex_lock(&lock);
  settings *s = settings_of(context, 1);
  int e = DRV_CUDA_SUCCESS;
  if (!s) {
    e = DRV_CUDA_ERROR_OUT_OF_MEMORY;
  } else if (!value) {
    *size = attribute == FILE_NAME || attribute == PIPE_NAME
                ? (size_t)NAME_BYTES
                : value_size(s, attribute);
  } else if (attribute == FILE_NAME || attribute == PIPE_NAME) {
    size_t n = strnlen(value, *size < NAME_BYTES ? *size : NAME_BYTES);
    if (n == 0 || n >= NAME_BYTES || n >= *size)
      e = DRV_CUDA_ERROR_INVALID_VALUE; /* empty, too long or no NUL */
    else
      memcpy(attribute == FILE_NAME ? s->file : s->pipe, value, n + 1);
  } else if (attribute == GENERATION_FLAGS) {
    int flags;
    if (*size < sizeof flags) {
      e = DRV_CUDA_ERROR_INVALID_VALUE;
    } else {
      memcpy(&flags, value, sizeof flags);
      if ((unsigned)flags & ~GENERATION_FLAGS_MASK)
        e = DRV_CUDA_ERROR_INVALID_VALUE;
      else
        s->generation_flags = flags;
    }
  } else if (*size < 1) {
    e = DRV_CUDA_ERROR_INVALID_VALUE;
  } else {
    s->flag[attribute] = *(const unsigned char *)value != 0;
  }
  pthread_mutex_unlock(&lock);
  return e;
}

/* The current context, for the per-context forms. */
static int current(const void **context) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  *context = cuemu__drv_current();
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_coredump_get_attribute(int global_form, int attribute,
                                     void *value, size_t *size) {
  const void *context = NULL;
  int e = global_form ? DRV_CUDA_SUCCESS : current(&context);
  return e ? e : get(context, attribute, value, size);
}

int cuemu_drv_coredump_set_attribute(int global_form, int attribute,
                                     const void *value, size_t *size) {
  const void *context = NULL;
  int e = global_form ? DRV_CUDA_SUCCESS : current(&context);
  return e ? e : set(context, attribute, value, size);
}
