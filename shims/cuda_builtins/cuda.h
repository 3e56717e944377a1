/*
 * cuda.h: kernels sometimes include the driver API header only for its
 * types; the emulator provides the runtime's.
 */
#ifndef CUEMU_CUDA_H
#define CUEMU_CUDA_H

#include "cuda_runtime.h"

#endif
