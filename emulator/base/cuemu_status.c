/*
 * cuemu_status.c: names, descriptions and CUDA errors of statuses, from the
 * one table in cuemu_status.h, and the names and texts of CUDA's driver
 * errors, from the table in cuemu_driver_errors.h.
 */
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_rt_types.h>
#include <cuemu/cuemu_status.h>

/* The CUresult values under their CUDA names, for the table's driver
 * column. This file does not include the toolkit's cuda.h. */
enum cuemu_driver_error_ {
#define CUEMU_DRIVER_ERROR_ENUM_(name, value, text) name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRIVER_ERROR_ENUM_)
#undef CUEMU_DRIVER_ERROR_ENUM_
};

/* The table's kind column as a truth value. */
enum { CUEMU_STATUS_KIND_CALL_ = 0, CUEMU_STATUS_KIND_STICKY_ = 1 };

/* One row of the table, indexed by status. */
struct status_row {
  const char *name;
  const char *text;
  int runtime;
  int driver;
  int sticky;
};

static const struct status_row rows[] = {
#define CUEMU_STATUS_ROW_(name, msg, runtime, driver, kind)                    \
  [name] = {#name + sizeof "CUEMU_" - 1, msg, runtime, driver,              \
            CUEMU_STATUS_KIND_##kind##_},
    CUEMU_STATUS_MAP(CUEMU_STATUS_ROW_)
#undef CUEMU_STATUS_ROW_
};

/* The row of a status, or NULL for a value outside the table. */
static const struct status_row *row_of(cuemu_status status) {
  if ((unsigned)status >= (unsigned)CUEMU_STATUS_COUNT_)
    return 0;
  return &rows[status];
}

const char *cuemu_status_name(cuemu_status status) {
  const struct status_row *r = row_of(status);
  return r ? r->name : "UNKNOWN";
}

const char *cuemu_strerror(cuemu_status status) {
  const struct status_row *r = row_of(status);
  return r ? r->text : "unknown status";
}

int cuemu_status_cuda_error(cuemu_status status) {
  const struct status_row *r = row_of(status);
  return r ? r->runtime : cudaErrorUnknown;
}

int cuemu_status_driver_error(cuemu_status status) {
  const struct status_row *r = row_of(status);
  return r ? r->driver : CUDA_ERROR_UNKNOWN;
}

int cuemu_status_is_sticky(cuemu_status status) {
  const struct status_row *r = row_of(status);
  return r ? r->sticky : 0;
}

const char *cuemu_driver_error_name(int code) {
  switch (code) {
#define CUEMU_DRIVER_ERROR_NAME_(name, value, text)                            \
  case value:                                                                  \
    return #name;
    CUEMU_DRIVER_ERROR_MAP(CUEMU_DRIVER_ERROR_NAME_)
#undef CUEMU_DRIVER_ERROR_NAME_
  }
  return 0;
}

const char *cuemu_driver_error_string(int code) {
  switch (code) {
#define CUEMU_DRIVER_ERROR_TEXT_(name, value, text)                            \
  case value:                                                                  \
    return text;
    CUEMU_DRIVER_ERROR_MAP(CUEMU_DRIVER_ERROR_TEXT_)
#undef CUEMU_DRIVER_ERROR_TEXT_
  }
  return 0;
}
