/*
 * cuemu_driver_link_api.h: the driver API's linker (cuLinkCreate,
 * cuLinkAddData, cuLinkAddFile, cuLinkComplete, cuLinkDestroy) over cuemu
 * modules built as relocatable device code (cuemu/cuemu_driver_link.h says
 * how). The JIT options are accepted; the log buffer options get the
 * linker's messages (the error log) or an empty string, CU_JIT_WALL_TIME
 * and the log sizes what cuda.h says (cuemu::drv::jit_outputs). Included
 * by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_LINK_API_H
#define CUEMU_DRIVER_LINK_API_H

/* The driver API's types (this header is read at the end of cuda.h). */

#include <cuemu/cuemu_driver_link.h>

namespace cuemu {
namespace drv {

inline cuemu_drv_link *ls(CUlinkState s) {
  return reinterpret_cast<cuemu_drv_link *>(s);
}

/* A link state's output options (cuLinkCreate's: the wall time and the
 * log sizes accumulate until cuLinkDestroy, in the option slots that must
 * stay valid until then), kept per state. */
struct link_log {
  CUlinkState state;
  __cuemu_jit_outputs __cuemu_out;
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

/* Adds the milliseconds since `start` to the state's wall time and writes
 * its outputs. */
inline void __cuemu_link_account(CUlinkState state, double start) {
  link_log *l = link_logs(state, false);
  if (l)
    __cuemu_jit_options_write(&l->__cuemu_out, __cuemu_jit_clock_ms() - start);
}

/* An input's type and options (compiler options only, which change
 * nothing): every type but NVVM IR is a cuemu module. */
inline CUresult link_input(CUjitInputType type, unsigned n,
                           CUjit_option *options, void **values) {
  if (type < CU_JIT_INPUT_CUBIN || type >= CU_JIT_NUM_INPUT_TYPES)
    return CUDA_ERROR_INVALID_VALUE;
  if (type == CU_JIT_INPUT_NVVM)
    return CUDA_ERROR_NOT_SUPPORTED;
  if (n && (!options || !values))
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

} // namespace drv
} // namespace cuemu

inline CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options,
                             void **optionValues, CUlinkState *stateOut) {
  CUEMU_DRV_SYMBOL(cuLinkCreate);
  cuemu::drv::__cuemu_jit_outputs __cuemu_out;
  CUresult e = cuemu::drv::__cuemu_jit_options_read(numOptions, options, optionValues,
                                            &__cuemu_out);
  if (e)
    return e;
  double start = cuemu::drv::__cuemu_jit_clock_ms();
  e = static_cast<CUresult>(cuemu_drv_link_create(
      reinterpret_cast<cuemu_drv_link **>(stateOut)));
  if (e == CUDA_SUCCESS) {
    cuemu::drv::link_log *l = cuemu::drv::link_logs(*stateOut, true);
    if (l)
      l->__cuemu_out = __cuemu_out;
    cuemu::drv::__cuemu_link_account(*stateOut, start);
  }
  return e;
}

/* Every input type is a cuemu module here (CU_JIT_INPUT_PTX, CUBIN,
 * FATBINARY, OBJECT, LIBRARY); NVVM IR and LTO inputs do not exist. */
inline CUresult cuLinkAddData(CUlinkState state, CUjitInputType type,
                              void *data, size_t size, const char *name,
                              unsigned int numOptions, CUjit_option *options,
                              void **optionValues) {
  CUEMU_DRV_SYMBOL(cuLinkAddData);
  CUresult e = cuemu::drv::link_input(type, numOptions, options, optionValues);
  if (e)
    return e;
  double start = cuemu::drv::__cuemu_jit_clock_ms();
  e = static_cast<CUresult>(
      cuemu_drv_link_add_data(cuemu::drv::ls(state), data, size, name));
  cuemu::drv::__cuemu_link_account(state, start);
  return e;
}

inline CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type,
                              const char *path, unsigned int numOptions,
                              CUjit_option *options, void **optionValues) {
  CUEMU_DRV_SYMBOL(cuLinkAddFile);
  CUresult e = cuemu::drv::link_input(type, numOptions, options, optionValues);
  if (e)
    return e;
  double start = cuemu::drv::__cuemu_jit_clock_ms();
  e = static_cast<CUresult>(
      cuemu_drv_link_add_file(cuemu::drv::ls(state), path));
  cuemu::drv::__cuemu_link_account(state, start);
  return e;
}

inline CUresult cuLinkComplete(CUlinkState state, void **cubinOut,
                               size_t *sizeOut) {
  CUEMU_DRV_SYMBOL(cuLinkComplete);
  cuemu::drv::link_log *l = cuemu::drv::link_logs(state, false);
  double start = cuemu::drv::__cuemu_jit_clock_ms();
  CUresult e = static_cast<CUresult>(cuemu_drv_link_complete(
      cuemu::drv::ls(state), cubinOut, sizeOut,
      l ? l->__cuemu_out.error_log : nullptr, l ? l->__cuemu_out.__cuemu_error_capacity : 0));
  cuemu::drv::__cuemu_link_account(state, start);
  return e;
}

inline CUresult cuLinkDestroy(CUlinkState state) {
  CUEMU_DRV_SYMBOL(cuLinkDestroy);
  cuemu::drv::link_log *l = cuemu::drv::link_logs(state, false);
  if (l)
    *l = cuemu::drv::link_log();
  return static_cast<CUresult>(cuemu_drv_link_destroy(cuemu::drv::ls(state)));
}

#endif /* CUEMU_DRIVER_LINK_API_H */
