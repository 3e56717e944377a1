/*
 * cuda_device_runtime_api.h: the device runtime's API (dynamic parallelism:
 * the named streams cudaStreamTailLaunch and cudaStreamFireAndForget,
 * cudaGetParameterBuffer, cudaLaunchDevice and the calls kernel code shares
 * with host code), a CUDA header that programs include by this name; nvcc 13
 * builds them with no warning. cuemu declares all of it in its runtime API
 * (cuemu_device_runtime.h), so the toolkit's own, whose declarations would
 * conflict with cuemu's, is not read.
 */
#ifndef CUEMU_CUDA_DEVICE_RUNTIME_API_H
#define CUEMU_CUDA_DEVICE_RUNTIME_API_H

#include "cuda_runtime_api.h"

#endif /* CUEMU_CUDA_DEVICE_RUNTIME_API_H */
