/*
 * cuemu_driver_link_api.h: the driver API's linker (cuLinkCreate,
 * cuLinkAddData, cuLinkAddFile, cuLinkComplete, cuLinkDestroy) over cuemu
 * modules built as relocatable device code (cuemu/cuemu_driver_link.h says
 * how). The JIT options are accepted; the log buffer options get the
 * linker's messages (the error log) or an empty string. Included by
 * cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_LINK_API_H
#define CUEMU_DRIVER_LINK_API_H

/* The driver API's types (this header is read at the end of cuda.h). */

#include <cuemu/cuemu_driver_link.h>

typedef struct CUlinkState_st *CUlinkState;

namespace cuemu {
namespace drv {

inline cuemu_drv_link *ls(CUlinkState s) {
  return reinterpret_cast<cuemu_drv_link *>(s);
}

/* The link state's error log buffer (CU_JIT_ERROR_LOG_BUFFER and its
 * size), kept per state from cuLinkCreate's options. */
struct link_log {
  CUlinkState state;
  char *buffer;
  size_t size;
};

inline link_log *link_logs(CUlinkState state, bool add) {
  static thread_local link_log logs[16];
  for (link_log &l : logs)
    if (l.state == state)
      return &l;
  if (add)
    for (link_log &l : logs)
      if (!l.state) {
        l.state = state;
        return &l;
      }
  return nullptr;
}

/* Checks the options and empties the log buffers; INVALID_VALUE when the
 * arrays are missing. */
inline CUresult link_options(unsigned n, CUjit_option *options, void **values,
                             char **error_log, size_t *error_size) {
  if (n && (!options || !values))
    return CUDA_ERROR_INVALID_VALUE;
  for (unsigned __cuemu_i = 0; __cuemu_i < n; ++__cuemu_i) {
    if ((options[__cuemu_i] == CU_JIT_INFO_LOG_BUFFER ||
         options[__cuemu_i] == CU_JIT_ERROR_LOG_BUFFER) &&
        values[__cuemu_i])
      static_cast<char *>(values[__cuemu_i])[0] = '\0';
    if (options[__cuemu_i] == CU_JIT_ERROR_LOG_BUFFER && error_log)
      *error_log = static_cast<char *>(values[__cuemu_i]);
    if (options[__cuemu_i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES && error_size)
      *error_size = reinterpret_cast<size_t>(values[__cuemu_i]);
    if (options[__cuemu_i] == CU_JIT_WALL_TIME)
      *reinterpret_cast<float *>(&values[__cuemu_i]) = 0.0f;
  }
  return CUDA_SUCCESS;
}

/* An input's type and options: every type but NVVM IR is a cuemu module. */
inline CUresult link_input(CUjitInputType type, unsigned n,
                           CUjit_option *options, void **values) {
  if (type < CU_JIT_INPUT_CUBIN || type >= CU_JIT_NUM_INPUT_TYPES)
    return CUDA_ERROR_INVALID_VALUE;
  if (type == CU_JIT_INPUT_NVVM)
    return CUDA_ERROR_NOT_SUPPORTED;
  return link_options(n, options, values, nullptr, nullptr);
}

} // namespace drv
} // namespace cuemu

inline CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options,
                             void **optionValues, CUlinkState *stateOut) {
  char *log = nullptr;
  size_t size = 0;
  CUresult e = cuemu::drv::link_options(numOptions, options, optionValues,
                                        &log, &size);
  if (e)
    return e;
  e = static_cast<CUresult>(cuemu_drv_link_create(
      reinterpret_cast<cuemu_drv_link **>(stateOut)));
  if (e == CUDA_SUCCESS && log && size) {
    cuemu::drv::link_log *l = cuemu::drv::link_logs(*stateOut, true);
    if (l) {
      l->buffer = log;
      l->size = size;
    }
  }
  return e;
}

/* Every input type is a cuemu module here (CU_JIT_INPUT_PTX, CUBIN,
 * FATBINARY, OBJECT, LIBRARY); NVVM IR and LTO inputs do not exist. */
inline CUresult cuLinkAddData(CUlinkState state, CUjitInputType type,
                              void *data, size_t size, const char *name,
                              unsigned int numOptions, CUjit_option *options,
                              void **optionValues) {
  CUresult e = cuemu::drv::link_input(type, numOptions, options, optionValues);
  if (e)
    return e;
  return static_cast<CUresult>(
      cuemu_drv_link_add_data(cuemu::drv::ls(state), data, size, name));
}

inline CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type,
                              const char *path, unsigned int numOptions,
                              CUjit_option *options, void **optionValues) {
  CUresult e = cuemu::drv::link_input(type, numOptions, options, optionValues);
  if (e)
    return e;
  return static_cast<CUresult>(
      cuemu_drv_link_add_file(cuemu::drv::ls(state), path));
}

inline CUresult cuLinkComplete(CUlinkState state, void **cubinOut,
                               size_t *sizeOut) {
  cuemu::drv::link_log *l = cuemu::drv::link_logs(state, false);
  return static_cast<CUresult>(cuemu_drv_link_complete(
      cuemu::drv::ls(state), cubinOut, sizeOut, l ? l->buffer : nullptr,
      l ? l->size : 0));
}

inline CUresult cuLinkDestroy(CUlinkState state) {
  cuemu::drv::link_log *l = cuemu::drv::link_logs(state, false);
  if (l)
    *l = cuemu::drv::link_log();
  return static_cast<CUresult>(cuemu_drv_link_destroy(cuemu::drv::ls(state)));
}

#endif /* CUEMU_DRIVER_LINK_API_H */
