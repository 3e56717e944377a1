/*
 * cuemu_status.c: names and descriptions of statuses, from the one table in
 * cuemu_status.h.
 */
#include <cuemu/cuemu_status.h>

const char *cuemu_status_name(cuemu_status status) {
  switch (status) {
#define CUEMU_STATUS_NAME_(name, msg)                                          \
  case CUEMU_##name:                                                           \
    return #name;
    CUEMU_STATUS_MAP(CUEMU_STATUS_NAME_)
#undef CUEMU_STATUS_NAME_
  default:
    return "UNKNOWN";
  }
}

const char *cuemu_strerror(cuemu_status status) {
  switch (status) {
#define CUEMU_STATUS_MSG_(name, msg)                                           \
  case CUEMU_##name:                                                           \
    return msg;
    CUEMU_STATUS_MAP(CUEMU_STATUS_MSG_)
#undef CUEMU_STATUS_MSG_
  default:
    return "unknown status";
  }
}
