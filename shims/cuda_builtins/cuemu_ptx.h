/*
 * cuemu_ptx.h: the emulation of inline PTX (see cuemu_ptx_base.h), all of
 * it: cuemu-cc's translation of an asm statement calls functions of the
 * headers included here. Included by cuda_runtime.h.
 */
#ifndef CUEMU_PTX_SHIM_H
#define CUEMU_PTX_SHIM_H

#include "cuemu_ptx_base.h"
#include "cuemu_ptx_int.h"
#include "cuemu_ptx_float.h"
#include "cuemu_ptx_sync.h"
#include "cuemu_ptx_matrix.h"
#include "cuemu_ptx_tensor.h"
#include "cuemu_ptx_wgmma.h"

#endif /* CUEMU_PTX_SHIM_H */
